import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { INVOICE_ACCESS, INVOICE_DELETE_ACCESS } from '../../../access/invoices.ts';
import { ApiError, badRequest } from '../../../errors.ts';
import { checkIfMatch, etagOf } from '../../../http/etag.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { Enum, ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { isId } from '../../../ids.ts';
import { listInvoiceMessages, sendInvoiceMessage, type MessageInput } from './messages.ts';
import { getInvoicePdf } from './pdf.ts';
import type { PresentedInvoice } from './presenter.ts';
import {
  DESCRIPTION_MAX,
  EXPENSE_SUMMARY_TYPES,
  INVOICE_STATES,
  KIND_MAX,
  LINE_EFFECTS,
  MESSAGE_EVENTS,
  NOTES_MAX,
  NUMBER_MAX,
  PAYMENT_TERMS,
  PURCHASE_ORDER_MAX,
  SUBJECT_MAX,
  TIME_SUMMARY_TYPES,
  assertDates,
} from './rules.ts';
import {
  UPDATABLE_FIELDS,
  createInvoice,
  deleteInvoice,
  getInvoice,
  listInvoices,
  updateInvoice,
  type CreateInput,
  type UpdateInput,
} from './service.ts';

const IsoDate = (description: string) => Type.String({ format: 'date', description: `YYYY-MM-DD. ${description}` });
const Percent = (what: string) =>
  Type.Number({ description: `${what}: a percentage from 0 to 100, at most 4 decimal places.` });

// ---------------------------------------------------------------- request bodies

const LineItemCreate = Type.Object(
  {
    kind: Type.Optional(Type.String({ maxLength: KIND_MAX, description: 'Category of the line, default `Service`.' })),
    description: Type.Optional(Nullable(Type.String({ maxLength: DESCRIPTION_MAX }))),
    quantity: Type.Optional(Type.Number({ description: 'Default 1; not negative; at most 4 decimal places.' })),
    unit_price: Type.Optional(Type.Number({ description: 'Default 0; not negative; at most 4 decimal places.' })),
    effect: Type.Optional(Enum(LINE_EFFECTS, '`charge` (default) or `credit`: credits subtract, with positive numbers.')),
    taxed: Type.Optional(Type.Boolean({ description: 'The first tax applies to the line (default true).' })),
    taxed2: Type.Optional(Type.Boolean({ description: 'The second tax applies to the line (default true).' })),
    project_id: Type.Optional(Nullable(Type.String({ description: "A project of the invoice's client." }))),
    sort_order: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: 'Default: the position in the array.' })),
  },
  { additionalProperties: false },
);

const ImportPart = (types: readonly string[]) =>
  Type.Object(
    {
      summary_type: Enum(types, 'One line per group of this kind (per project); `detailed`: one line per record.'),
      from: Type.Optional(IsoDate('Earliest work date; default: the earliest uninvoiced record.')),
      to: Type.Optional(IsoDate('Latest work date; default: the latest uninvoiced record.')),
    },
    { additionalProperties: false },
  );

const LineItemsImport = Type.Object(
  {
    project_ids: Type.Optional(
      Type.Array(Type.String(), { uniqueItems: true, maxItems: 1000, description: "Projects of the client; omitted: all of the client's projects." }),
    ),
    time: Type.Optional(ImportPart(TIME_SUMMARY_TYPES)),
    expenses: Type.Optional(ImportPart(EXPENSE_SUMMARY_TYPES)),
  },
  { additionalProperties: false, description: 'At least one of `time` and `expenses`.' },
);

const invoiceFields = {
  number: Type.String({ maxLength: NUMBER_MAX, description: 'Unique in the workspace; default: the next free integer.' }),
  subject: Nullable(Type.String({ maxLength: SUBJECT_MAX })),
  issue_date: IsoDate('Default: today in the workspace time zone.'),
  due_date: IsoDate('Default: from payment_term, else the client\'s terms, else 30 days after the issue date.'),
  purchase_order: Nullable(Type.String({ maxLength: PURCHASE_ORDER_MAX })),
  tax: Percent('First tax'),
  tax2: Percent('Second tax'),
  discount: Percent('Discount'),
  notes: Nullable(Type.String({ maxLength: NOTES_MAX })),
  period_start: Nullable(IsoDate('Start of the invoiced period (imports default to the first work date).')),
  period_end: Nullable(IsoDate('End of the invoiced period, on or after period_start.')),
  service_period_start: Nullable(IsoDate('Start of the service period.')),
  service_period_end: Nullable(IsoDate('End of the service period, on or after its start.')),
};

export const InvoiceCreateBody = Type.Object(
  {
    client_id: Type.String({ description: 'An active client of the workspace that the caller can see (404 otherwise; archived: 400).' }),
    line_items_import: Type.Optional(LineItemsImport),
    line_items: Type.Optional(Type.Array(LineItemCreate, { minItems: 1, maxItems: 1000 })),
    payment_term: Type.Optional(Enum(PAYMENT_TERMS, 'Gives the default due date (`custom` has none, so needs `due_date`); an explicit `due_date` is kept with any term.')),
    currency: Type.Optional(Type.String({ description: "ISO 4217; default: the client's currency, else the workspace's." })),
    ...Object.fromEntries(Object.entries(invoiceFields).map(([k, v]) => [k, Type.Optional(v)])),
  },
  { additionalProperties: false },
);

const LineItemEdit = Type.Object(
  {
    id: Type.String({ description: 'The id of a line of this invoice.' }),
    description: Type.Optional(Nullable(Type.String({ maxLength: DESCRIPTION_MAX }))),
    unit_price: Type.Optional(Type.Number({ description: 'Not negative; at most 4 decimal places.' })),
    kind: Type.Optional(Type.String({ maxLength: KIND_MAX })),
  },
  { additionalProperties: false },
);

const InvoicePatchBody = Type.Object(
  {
    ...Object.fromEntries(Object.entries(invoiceFields).map(([k, v]) => [k, Type.Optional(v)])),
    line_items: Type.Optional(Type.Array(LineItemEdit, { maxItems: 10_000, description: 'Edits of existing lines, by id.' })),
  },
  { additionalProperties: false },
);

const RecipientSchema = Type.Object(
  { email: Type.String({ maxLength: 320 }), name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))) },
  { additionalProperties: false },
);

const MessageBody = Type.Object(
  {
    event_type: Type.Optional(Enum(MESSAGE_EVENTS, '`send` (default; a draft becomes open), `reminder` (open invoices with an amount due), `thank_you` (paid invoices).')),
    recipients: Type.Array(RecipientSchema, { description: 'At least one.' }),
    cc_recipients: Type.Optional(Type.Array(RecipientSchema, { description: 'Not with thank_you.' })),
    subject: Type.Optional(Nullable(Type.String({ maxLength: 998 }))),
    body: Type.Optional(Nullable(Type.String({ maxLength: 20_000 }))),
    attach_pdf: Type.Optional(Type.Boolean({ description: 'Default true.' })),
    attach_expense_receipts: Type.Optional(Type.Boolean({ description: "Default true: the receipts of the invoice's expenses." })),
    send_me_a_copy: Type.Optional(Type.Boolean({ description: 'A blind copy to the key owner.' })),
  },
  { additionalProperties: false },
);

// ---------------------------------------------------------------- responses

const LineItemSchema = Type.Object(
  {
    id: Type.String(),
    kind: Type.String(),
    description: Nullable(Type.String()),
    quantity: Type.Number(),
    unit_price: Type.Number(),
    amount: Type.Number({ description: 'quantity × unit_price, rounded half up to the currency minor unit; positive (see effect).' }),
    effect: Enum(LINE_EFFECTS),
    taxed: Type.Boolean(),
    taxed2: Type.Boolean(),
    project_id: Nullable(Type.String()),
    sort_order: Type.Integer(),
  },
  { additionalProperties: false },
);

const Named = Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false });
const Timestamp = Nullable(Type.String({ format: 'date-time' }));
const DateOrNull = Nullable(Type.String({ format: 'date' }));

export const InvoiceSchema = Type.Object(
  {
    id: Type.String(),
    client: Named,
    number: Type.String(),
    state: Enum(INVOICE_STATES),
    subject: Nullable(Type.String()),
    purchase_order: Nullable(Type.String()),
    issue_date: Type.String({ format: 'date' }),
    due_date: Type.String({ format: 'date' }),
    payment_term: Nullable(Enum(PAYMENT_TERMS)),
    currency: Type.String(),
    subtotal: Type.Number({ description: 'Sum of the lines (credits subtract).' }),
    discount: Type.Number(),
    discount_amount: Type.Number({ description: 'subtotal × discount %.' }),
    tax: Type.Number(),
    tax_amount: Type.Number({ description: 'tax % of the discounted sum of the lines flagged taxed.' }),
    tax2: Type.Number(),
    tax2_amount: Type.Number({ description: 'tax2 % of the discounted sum of the lines flagged taxed2.' }),
    amount: Type.Number({ description: 'subtotal − discount_amount + tax_amount + tax2_amount.' }),
    paid_amount: Type.Number({ description: 'Payments recorded (outside the API).' }),
    due_amount: Type.Number({ description: 'amount − paid_amount.' }),
    notes: Nullable(Type.String()),
    period_start: DateOrNull,
    period_end: DateOrNull,
    service_period_start: DateOrNull,
    service_period_end: DateOrNull,
    sent_at: Timestamp,
    paid_at: Timestamp,
    creator: Nullable(Named),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    line_items: Type.Array(LineItemSchema),
  },
  { additionalProperties: false },
);

const Address = Type.Object({ email: Type.String(), name: Nullable(Type.String()) }, { additionalProperties: false });

const MessageSchema = Type.Object(
  {
    id: Type.String(),
    invoice_id: Type.String(),
    event_type: Enum(MESSAGE_EVENTS),
    recipients: Type.Array(Address),
    cc_recipients: Type.Array(Address),
    subject: Nullable(Type.String()),
    body: Nullable(Type.String()),
    attach_pdf: Type.Boolean(),
    attach_expense_receipts: Type.Boolean(),
    send_me_a_copy: Type.Boolean(),
    sent_by: Nullable(Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() }, { additionalProperties: false })),
    delivery_status: Enum(['pending', 'sent', 'failed'], 'The e-mail in the outbox: pending (also while SMTP is not configured, and between retries), sent, or failed after at least three days of retries (until an operator retries it, which also starts delivery_attempts again from 0).'),
    delivery_attempts: Type.Integer(),
    delivered_at: Timestamp,
    delivery_error: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

// ---------------------------------------------------------------- query strings

const InvoicesQuery = Type.Object(
  {
    client_id: Type.Optional(Type.String()),
    state: Type.Optional(Enum(INVOICE_STATES)),
    from: Type.Optional(IsoDate('Issue date on or after.')),
    to: Type.Optional(IsoDate('Issue date on or before.')),
    updated_since: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601 date-time; only invoices updated at or after it.' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

const IdParams = Type.Object({ id: Type.String() }, { additionalProperties: false });
const NoQuery = Type.Object({}, { additionalProperties: false });
const PageOnly = Type.Object({ ...PageQuery }, { additionalProperties: false });
const EtagHeader = { ETag: { type: 'string', description: 'Strong ETag of this body.' } };

/** `line_items_attributes` and friends get a message that says what to do instead. */
export const explainUnsupported: preValidationAsyncHookHandler = async (request) => {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  if (Object.hasOwn(body, 'line_items_attributes')) {
    throw new ApiError('unknown_field', "Unknown field 'line_items_attributes': edit lines with line_items, each with the line's id.", {
      field: 'line_items_attributes',
    });
  }
  if (request.method === 'PATCH') {
    for (const field of Object.keys(body)) {
      if (!(UPDATABLE_FIELDS as readonly string[]).includes(field)) {
        throw new ApiError('unknown_field', `Unknown field '${field}': a PATCH accepts ${UPDATABLE_FIELDS.join(', ')}.`, { field });
      }
    }
    if (Object.keys(body).length === 0) throw badRequest(`Send at least one of ${UPDATABLE_FIELDS.join(', ')}.`);
    const lines = (body as { line_items?: unknown }).line_items;
    if (Array.isArray(lines)) {
      lines.forEach((line, i) => {
        if (line && typeof line === 'object' && !Array.isArray(line)) {
          if (!Object.hasOwn(line, 'id')) {
            throw badRequest(`line_items.${i} has no id: existing lines are edited by id; lines cannot be added or replaced.`, {
              field: `line_items.${i}.id`,
            });
          }
          for (const key of Object.keys(line)) {
            if (!['id', 'description', 'unit_price', 'kind'].includes(key)) {
              throw new ApiError('unknown_field', `Unknown field 'line_items.${i}.${key}': a line edit accepts id, description, unit_price, kind.`, {
                field: `line_items.${i}.${key}`,
              });
            }
          }
        }
      });
    }
  }
};

export async function invoicesRoutes(app: FastifyInstance) {
  app.features.add('invoice-line-item-edit', 'invoice-pdf');
  const ifMatch = (request: FastifyRequest, required: boolean) => (current: PresentedInvoice) =>
    checkIfMatch(request, etagOf(current), { required });

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
      const query = request.query as Static<typeof InvoicesQuery>;
      if (query.client_id !== undefined && !isId(query.client_id)) {
        throw badRequest(`Invalid query parameter 'client_id': '${query.client_id}' is not an id.`, { field: 'client_id' });
      }
      assertDates(query, ['from', 'to']);
      const updatedSince = query.updated_since === undefined ? undefined : new Date(query.updated_since);
      if (updatedSince && !(updatedSince.getUTCFullYear() >= 1 && updatedSince.getUTCFullYear() <= 9999)) {
        throw badRequest(`Invalid query parameter 'updated_since': a date-time from year 1 to 9999.`, { field: 'updated_since' });
      }
      const page = pageParams(query);
      const { invoices, total } = await listInvoices(
        app.db,
        principalOf(request),
        {
          clientId: query.client_id,
          state: query.state as never,
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
      const { id } = request.params as Static<typeof IdParams>;
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
      const body = await createInvoice(requestDb(request), principalOf(request), request.body as CreateInput, app.config.clock());
      return reply.code(201).header('Location', `/api/v2/invoices/${body.id}`).header('ETag', etagOf(body)).send(body);
    },
  );

  app.patch(
    '/api/v2/invoices/:id',
    {
      config: { access: INVOICE_ACCESS, idempotent: true },
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
      const { id } = request.params as Static<typeof IdParams>;
      const body = await updateInvoice(requestDb(request), principalOf(request), id, request.body as UpdateInput, {
        now: app.config.clock(),
        precondition: ifMatch(request, false),
      });
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.delete(
    '/api/v2/invoices/:id',
    {
      config: { access: INVOICE_DELETE_ACCESS },
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
      const { id } = request.params as Static<typeof IdParams>;
      await deleteInvoice(app.db, principalOf(request), id, { now: app.config.clock(), precondition: ifMatch(request, false) });
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v2/invoices/:id/pdf',
    {
      config: { access: INVOICE_ACCESS },
      schema: {
        tags: ['invoices'],
        summary: 'The invoice as a PDF',
        description: 'A4 (Letter for USD and CAD), as an attachment named `invoice-<number>.pdf`; private and uncached.',
        params: IdParams,
        querystring: NoQuery,
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
      const { id } = request.params as Static<typeof IdParams>;
      const { pdf, filename } = await getInvoicePdf(app.db, principalOf(request), id);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${filename}"`)
        .header('Content-Length', pdf.length)
        .send(pdf);
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
          'Records the message and queues its e-mail in the same transaction as the state change (`send` moves a draft to open). Delivery is asynchronous (the outbox worker, SMTP); `delivery_status` shows it. 409 when the state does not allow the event. Accepts an `Idempotency-Key`. 201.',
        params: IdParams,
        body: MessageBody,
        response: { 201: MessageSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params as Static<typeof IdParams>;
      const message = await sendInvoiceMessage(requestDb(request), principalOf(request), id, request.body as MessageInput, app.config.clock());
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
      const { id } = request.params as Static<typeof IdParams>;
      const query = request.query as Static<typeof PageOnly>;
      const page = pageParams(query);
      const { messages, total } = await listInvoiceMessages(app.db, principalOf(request), id, page);
      return { invoice_messages: messages, ...pageEnvelope(request, page, total) };
    },
  );
}
