import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { INVOICE_ACCESS, INVOICE_DELETE_ACCESS } from '../../../access/invoices.ts';
import { badRequest } from '../../../errors.ts';
import { checkIfMatch, etagOf } from '../../../http/etag.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { Enum, ErrorResponses } from '../../../http/schemas.ts';
import { EtagHeader, IdParams, NoQuery, type TypedApp, UpdatedSince, updatedSinceOf } from '../../../http/route-kit.ts';
import { isId } from '../../../ids.ts';
import { publicUrlOf } from '../../../config.ts';
import { listInvoiceMessages, sendInvoiceMessage } from './messages.ts';
import { E_INVOICE_PROFILES, E_INVOICE_SYNTAXES } from './e-invoice-data.ts';
import { getInvoicePdf } from './pdf.ts';
import type { PresentedInvoice } from './presenter.ts';
import { INVOICE_STATES, assertDates } from './rules.ts';
import { InvoiceCreateBody, InvoicePatchBody, InvoiceSchema, IsoDate, MessageBody, MessageSchema, explainUnsupported } from './schemas.ts';
import { createInvoice, deleteInvoice, getInvoice, listInvoices, updateInvoice } from './service.ts';

// ---------------------------------------------------------------- query strings

const InvoicesQuery = Type.Object(
  {
    client_id: Type.Optional(Type.String()),
    state: Type.Optional(Enum(INVOICE_STATES)),
    from: Type.Optional(IsoDate('Issue date on or after.')),
    to: Type.Optional(IsoDate('Issue date on or before.')),
    updated_since: UpdatedSince('only invoices updated at or after it.'),
    ...PageQuery,
  },
  { additionalProperties: false },
);

const PageOnly = Type.Object({ ...PageQuery }, { additionalProperties: false });

const PdfQuery = Type.Object(
  { format: Type.Optional(Enum(['pdf', 'facturx'] as const, '`pdf` (the default) or `facturx` (PDF/A-3 with the EN 16931 CII XML embedded).')) },
  { additionalProperties: false },
);

const XmlQuery = Type.Object(
  {
    syntax: Type.Optional(Enum(E_INVOICE_SYNTAXES, '`cii` (the default) or `ubl`.')),
    profile: Type.Optional(Enum(E_INVOICE_PROFILES, '`en16931` (the default) or `xrechnung` (XRechnung 3.0).')),
  },
  { additionalProperties: false },
);

/** The e-invoice writer loads its library (seconds) on the first e-invoice, not at start. */
const eInvoices = () => import('./e-invoice.ts');

/** A document download: its type and name, private and uncached as the spec's PDF. */
function sendFile(reply: FastifyReply, body: Buffer, type: string, filename: string) {
  return reply.type(type).header('Content-Disposition', `attachment; filename="${filename}"`).header('Content-Length', body.length).send(body);
}

export async function invoicesRoutes(app: TypedApp) {
  app.features.add('invoice-line-item-edit', 'invoice-pdf', 'e-invoice-en16931');
  const ifMatch = (request: FastifyRequest) => (current: PresentedInvoice) =>
    checkIfMatch(request, etagOf(current));

  app.get(
    '/api/v2/invoices',
    {
      config: { access: INVOICE_ACCESS },
      schema: {
        tags: ['invoices'],
        summary: 'List invoices',
        description:
          'The invoices in the caller\'s reach, newest issue date first (then newest created, then id): every invoice of the workspace for owners, administrators and managers with View invoices; the ones they created for other managers.',
        querystring: InvoicesQuery,
        response: { 200: Type.Object({ invoices: Type.Array(InvoiceSchema), ...EnvelopeSchema }), ...ErrorResponses },
      },
    },
    async (request) => {
      const query = request.query;
      if (query.client_id !== undefined && !isId(query.client_id)) {
        throw badRequest(`Invalid query parameter 'client_id': '${query.client_id}' is not an id.`, { field: 'client_id' });
      }
      assertDates(query, ['from', 'to']);
      const updatedSince = updatedSinceOf(query.updated_since);
      const page = pageParams(query);
      const { invoices, total } = await listInvoices(
        app.db,
        principalOf(request),
        {
          clientId: query.client_id,
          state: query.state,
          from: query.from,
          to: query.to,
          updatedSince,
        },
        page,
      );
      return { invoices, ...pageEnvelope(request, page, total) };
    },
  );

  app.get(
    '/api/v2/invoices/:id',
    {
      config: { access: INVOICE_ACCESS },
      schema: {
        tags: ['invoices'],
        summary: 'Get an invoice',
        description:
          "With client, creator, line items (by sort_order) and totals, and an `ETag`. Unknown, other-workspace and out-of-reach ids (another manager's invoice, for a manager without View invoices) are 404.",
        params: IdParams,
        querystring: NoQuery,
        response: { 200: { ...InvoiceSchema, headers: EtagHeader }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const body = await getInvoice(app.db, principalOf(request), id);
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.post(
    '/api/v2/invoices',
    {
      config: { access: INVOICE_ACCESS, idempotent: true },
      preValidation: explainUnsupported,
      schema: {
        tags: ['invoices'],
        summary: 'Create a draft invoice',
        description:
          'From tracked work (`line_items_import`: billable, uninvoiced time and expenses of the client, priced at the rates in force on their dates; they become billed) or from explicit `line_items` (nothing becomes billed); both is a 400. Owners, administrators and managers; a manager invoices clients they can see and the work of projects they manage, and importing time needs View billable rates. An unknown, other-workspace or inaccessible `client_id` or project id is 404. All or nothing: a failure leaves no invoice and no billed flag. Accepts an `Idempotency-Key`. Returns 201 with `Location` and `ETag`.',
        body: InvoiceCreateBody,
        response: { 201: { ...InvoiceSchema, headers: { ...EtagHeader, Location: { type: 'string' } } }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const body = await createInvoice(requestDb(request), principalOf(request), request.body, app.config.clock());
      return reply.code(201).header('Location', `/api/v2/invoices/${body.id}`).header('ETag', etagOf(body)).send(body);
    },
  );

  app.patch(
    '/api/v2/invoices/:id',
    {
      config: { access: INVOICE_ACCESS, idempotent: true, ifMatch: 'optional' },
      preValidation: explainUnsupported,
      schema: {
        tags: ['invoices'],
        summary: 'Update a draft invoice',
        description:
          'Drafts only (409 otherwise). Invoice-level fields, and edits of existing lines by `id` (`description`, `unit_price`, `kind`); lines cannot be added, removed or replaced. Totals are recalculated; imported time and expenses stay linked. Optional `If-Match` (412 when stale) and `Idempotency-Key`.',
        params: IdParams,
        body: InvoicePatchBody,
        response: { 200: { ...InvoiceSchema, headers: EtagHeader }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const body = await updateInvoice(requestDb(request), principalOf(request), id, request.body, {
        now: app.config.clock(),
        precondition: ifMatch(request),
      });
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.delete(
    '/api/v2/invoices/:id',
    {
      config: { access: INVOICE_DELETE_ACCESS, ifMatch: 'optional' },
      schema: {
        tags: ['invoices'],
        summary: 'Delete a draft invoice',
        description:
          'Owners and administrators; drafts only (409 otherwise). Optional `If-Match` (412 when stale; `*` matches): unlike project and client deletes, the spec does not require it here. The time entries and expenses the invoice captured become unbilled again. 204.',
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await deleteInvoice(app.db, principalOf(request), id, { now: app.config.clock(), precondition: ifMatch(request) });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v2/invoices/:id/pdf',
    {
      config: { access: INVOICE_ACCESS },
      schema: {
        tags: ['invoices'],
        summary: 'The invoice as a PDF, or as a Factur-X e-invoice',
        description:
          'A4 (Letter for USD and CAD), as an attachment named `invoice-<number>.pdf` (in the client’s language, as the document: `Rechnung-<number>.pdf` in German); private and uncached. ' +
          'With `format=facturx`: the same PDF as PDF/A-3 with its EN 16931 CII XML embedded as `factur-x.xml` ' +
          '(Factur-X / ZUGFeRD, profile EN 16931), named `invoice-<number>-facturx.pdf` (`Rechnung-…` in German); an invoice lacking data ' +
          'that EN 16931 requires gives 422 `e_invoice_incomplete` naming every missing field in `missing_fields`.',
        params: IdParams,
        querystring: PdfQuery,
        response: {
          200: {
            description: 'The PDF document.',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          ...ErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const p = principalOf(request);
      const { body, filename } =
        request.query.format === 'facturx'
          ? await (await eInvoices()).getEInvoice(app.db, p, id, { kind: 'facturx' })
          : await getInvoicePdf(app.db, p, id).then(({ pdf, filename }) => ({ body: pdf, filename }));
      return sendFile(reply, body, 'application/pdf', filename);
    },
  );

  app.get(
    '/api/v2/invoices/:id/xml',
    {
      config: { access: INVOICE_ACCESS },
      schema: {
        tags: ['invoices'],
        summary: 'The invoice as an EN 16931 e-invoice (XML)',
        description:
          '`syntax=cii` (UN/CEFACT Cross Industry Invoice D16B, the default) or `syntax=ubl` (UBL 2.1 Invoice); ' +
          '`profile=en16931` (the default) or `profile=xrechnung` (XRechnung 3.0, for German public buyers). ' +
          'Named `invoice-<number>[-xrechnung]-<syntax>.xml` (`Rechnung-…` for a client in German); private and uncached. An invoice lacking data the ' +
          'profile requires (the seller\u2019s country and VAT id, the client\u2019s country, for XRechnung the ' +
          'buyer reference, addresses, contact and payment details, …) gives 422 `e_invoice_incomplete` naming ' +
          'every missing field in `missing_fields`; never an invalid file.',
        params: IdParams,
        querystring: XmlQuery,
        response: {
          200: {
            description: 'The XML document.',
            content: { 'application/xml': { schema: { type: 'string' } } },
          },
          ...ErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { syntax = 'cii', profile = 'en16931' } = request.query;
      const { body, filename } = await (await eInvoices()).getEInvoice(app.db, principalOf(request), request.params.id, { kind: 'xml', syntax, profile });
      return sendFile(reply, body, 'application/xml; charset=utf-8', filename);
    },
  );

  app.post(
    '/api/v2/invoices/:id/messages',
    {
      config: { access: INVOICE_ACCESS, idempotent: true },
      schema: {
        tags: ['invoices'],
        summary: 'Send the invoice, a reminder or a thank-you',
        description:
          'Records the message and queues its e-mail in the same transaction as the state change (`send` moves a draft to open). The e-mail ends with a new secret link where the client sees the invoice without signing in (revoked in the web app). Delivery is asynchronous (the outbox worker, SMTP); `delivery_status` shows it. 409 when the state does not allow the event. Accepts an `Idempotency-Key`. 201.',
        params: IdParams,
        body: MessageBody,
        response: { 201: MessageSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const message = await sendInvoiceMessage(requestDb(request), principalOf(request), id, request.body, app.config.clock(), {
        baseUrl: publicUrlOf(app.config),
      });
      return reply.code(201).send(message);
    },
  );

  app.get(
    '/api/v2/invoices/:id/messages',
    {
      config: { access: INVOICE_ACCESS },
      schema: {
        tags: ['invoices'],
        summary: "The invoice's message history",
        description: 'Oldest first, with the delivery state of each e-mail.',
        params: IdParams,
        querystring: PageOnly,
        response: { 200: Type.Object({ invoice_messages: Type.Array(MessageSchema), ...EnvelopeSchema }), ...ErrorResponses },
      },
    },
    async (request) => {
      const { id } = request.params;
      const query = request.query;
      const page = pageParams(query);
      const { messages, total } = await listInvoiceMessages(app.db, principalOf(request), id, page);
      return { invoice_messages: messages, ...pageEnvelope(request, page, total) };
    },
  );
}
