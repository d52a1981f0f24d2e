import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { INVOICE_ACCESS } from '../../../access/invoices.ts';
import { publicUrlOf } from '../../../config.ts';
import { IdParams, NoQuery, readById, type TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { AttachmentSchema, listInvoiceAttachments } from '../invoice-attachments/index.ts';
import { ClientEstimateSchema, ClientPageSchema, AcceptBody, DeclineBody, EInvoiceBody, LinkSummarySchema, MadeLinkSchema, TokenBody } from './schemas.ts';
import { answerClientEstimate, clientPage, clientPageEInvoice, clientPagePdf, createInvoiceLink, invoiceLinks, revokeInvoiceLinks } from './service.ts';

/**
 * The client's page of an invoice (issue 25 item 6): the invoice page's link
 * management (session, whoever may see the invoice) and the two public routes the
 * page at /c#<token> calls. The public ones take the token in a JSON body, so it
 * never appears in a URL, a log line or a Referer; they are counted per address by
 * the rate limiter, answer `Cache-Control: no-store` and `Referrer-Policy:
 * no-referrer`, and an unknown or revoked token is a 404 that says nothing more.
 */

const open = { access: 'public', web: true, rateLimit: 'address' } as const;
const tags = ['web'];

/** What the public answers carry: never stored by any cache, never a Referer, never indexed. */
const privately = (reply: FastifyReply) =>
  reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').header('X-Robots-Tag', 'noindex, nofollow');

export async function clientPageWebRoutes(app: TypedApp) {
  const now = () => app.config.clock();

  app.get(
    '/web/api/invoices/:id/client-links',
    {
      config: { access: INVOICE_ACCESS, web: true },
      schema: {
        tags,
        operationId: 'getInvoiceClientLinks',
        summary: "The invoice's client links: how many work, and when the client last opened one",
        params: IdParams,
        querystring: NoQuery,
        response: { 200: LinkSummarySchema, ...ErrorResponses },
      },
    },
    readById(app, invoiceLinks),
  );

  app.get(
    '/web/api/invoices/:id/sharing',
    {
      config: { access: INVOICE_ACCESS, web: true },
      schema: {
        tags,
        operationId: 'getInvoiceSharing',
        summary: "The invoice page's files and client links in one request: its attachments and its links' summary",
        params: IdParams,
        querystring: NoQuery,
        response: {
          200: Type.Object({ attachments: Type.Array(AttachmentSchema), client_links: LinkSummarySchema }, { additionalProperties: false }),
          ...ErrorResponses,
        },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const attachments = await listInvoiceAttachments(app.db, p, request.params.id);
      return { attachments, client_links: await invoiceLinks(app.db, p, request.params.id) };
    },
  );

  app.post(
    '/web/api/invoices/:id/client-links',
    {
      config: { access: INVOICE_ACCESS, web: true },
      schema: {
        tags,
        operationId: 'createInvoiceClientLink',
        summary: 'Make a new client link to a sent invoice (its URL is shown this once)',
        description: 'The links made before keep working (revoke them to end them). A draft has none: 409.',
        params: IdParams,
        response: { 201: MadeLinkSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const made = await createInvoiceLink(app.db, principalOf(request), request.params.id, { baseUrl: publicUrlOf(app.config), now: now() });
      return reply.code(201).send(made);
    },
  );

  app.delete(
    '/web/api/invoices/:id/client-links',
    {
      config: { access: INVOICE_ACCESS, web: true },
      schema: {
        tags,
        operationId: 'revokeInvoiceClientLinks',
        summary: "Revoke every client link of the invoice: each is a 404 from the next request on",
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Type.Null({ description: 'Revoked.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      await revokeInvoiceLinks(app.db, principalOf(request), request.params.id, now());
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/web/api/client-page',
    {
      config: open,
      schema: {
        tags,
        operationId: 'getClientPage',
        summary: "What a client link shows (the page at /c#<token>): an invoice with its payments and the amount due, or an estimate and its answer",
        description: 'No session: the token is the credential. Unknown, malformed or revoked: 404.',
        body: TokenBody,
        response: { 200: ClientPageSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      privately(reply);
      return clientPage(app.db, request.body.token, now());
    },
  );

  app.post(
    '/web/api/client-page/pdf',
    {
      config: open,
      schema: {
        tags,
        operationId: 'getClientPagePdf',
        summary: "The PDF of a client link's invoice or estimate",
        body: TokenBody,
        response: {
          200: { description: 'The PDF document.', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
          ...ErrorResponses,
        },
      },
    },
    async (request, reply) => {
      privately(reply);
      const { pdf, filename } = await clientPagePdf(app.db, request.body.token, now());
      return reply.type('application/pdf').header('Content-Disposition', `attachment; filename="${filename}"`).header('Content-Length', pdf.length).send(pdf);
    },
  );

  app.post(
    '/web/api/client-page/e-invoice',
    {
      config: open,
      schema: {
        tags,
        operationId: 'getClientPageEInvoice',
        summary: "An e-invoice of a client link's invoice (one of the page's `e_invoices`)",
        description: 'Factur-X (PDF) or CII/UBL XML, EN 16931 or XRechnung. An estimate link, unknown or revoked: 404; data the format needs is missing: 422.',
        body: EInvoiceBody,
        response: {
          200: {
            description: 'The e-invoice.',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } }, 'application/xml': { schema: { type: 'string' } } },
          },
          ...ErrorResponses,
        },
      },
    },
    async (request, reply) => {
      privately(reply);
      const { body, filename, contentType } = await clientPageEInvoice(app.db, request.body.token, request.body.format, now());
      return reply.type(contentType).header('Content-Disposition', `attachment; filename="${filename}"`).header('Content-Length', body.length).send(body);
    },
  );

  app.post(
    '/web/api/client-page/accept',
    {
      config: open,
      schema: {
        tags,
        operationId: 'acceptClientEstimate',
        summary: "The client accepts the link's estimate",
        description:
          'Once: an estimate answered already (accepted, declined, converted) or being revised is 409, and of two answers at once one is recorded; past valid_until: 409; changed since the page showed it (`version`): 409, so a client accepts only what they saw. An invoice link, unknown or revoked: 404.',
        body: AcceptBody,
        response: { 200: ClientEstimateSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      privately(reply);
      return answerClientEstimate(app.db, request.body.token, 'accept', { now: now(), version: request.body.version });
    },
  );

  app.post(
    '/web/api/client-page/decline',
    {
      config: open,
      schema: {
        tags,
        operationId: 'declineClientEstimate',
        summary: "The client declines the link's estimate, optionally saying why",
        description: 'Once, as accept. The reason is shown to the workspace on the estimate page.',
        body: DeclineBody,
        response: { 200: ClientEstimateSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      privately(reply);
      return answerClientEstimate(app.db, request.body.token, 'decline', { now: now(), reason: request.body.reason });
    },
  );
}
