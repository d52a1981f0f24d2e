import { Type } from '@sinclair/typebox';
import { INVOICE_ACCESS } from '../../../access/invoices.ts';
import { publicUrlOf } from '../../../config.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { Enum, ErrorResponses } from '../../../http/schemas.ts';
import { IdParams, NoQuery, readById, type TypedApp } from '../../../http/route-kit.ts';
import { principalOf } from '../../../http/security.ts';
import { SuggestedRecipientsSchema } from '../invoices/index.ts';
import { estimateLinks, estimateRecipients, revokeEstimateLinks } from './client-links.ts';
import { sendEstimate } from './messages.ts';
import { getEstimatePdf } from './pdf.ts';
import { ESTIMATE_STATES } from './rules.ts';
import { EstimateCreateBody, EstimateLinksSchema, EstimateListSchema, EstimateMessageBody, EstimatePatchBody, EstimateSchema } from './schemas.ts';
import {
  answerEstimate,
  convertEstimate,
  createEstimate,
  deleteEstimate,
  getEstimate,
  listEstimates,
  reopenEstimate,
  updateEstimate,
} from './service.ts';

/**
 * Estimates in the web app (issue 25 item 7). Session-only routes: the API
 * (spec v2) names no estimate routes. Access as for invoices: owners,
 * administrators and managers (managers their own estimates, or all with View
 * invoices); delete: owners and administrators.
 */

const ListQuery = Type.Object(
  { state: Type.Optional(Enum(ESTIMATE_STATES)), client_id: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
const PdfQuery = Type.Object(
  { download: Type.Optional(Type.Boolean({ description: 'true: as an attachment; otherwise inline, for the preview.' })) },
  { additionalProperties: false },
);
const Converted = Type.Object(
  { estimate: EstimateSchema, invoice: Type.Object({ id: Type.String(), number: Type.String() }, { additionalProperties: true }) },
  { additionalProperties: false },
);

export async function estimatesWebRoutes(app: TypedApp) {
  const web = { access: INVOICE_ACCESS, web: true } as const;
  const now = () => app.config.clock();

  app.get(
    '/web/api/estimates',
    {
      config: web,
      schema: {
        tags: ['web'],
        operationId: 'listEstimates',
        summary: 'List estimates',
        description: "The estimates in the caller's reach, newest issue date first.",
        querystring: ListQuery,
        response: { 200: EstimateListSchema, ...ErrorResponses },
      },
    },
    async (request) => ({
      estimates: await listEstimates(app.db, principalOf(request), { state: request.query.state, clientId: request.query.client_id }),
    }),
  );

  app.post(
    '/web/api/estimates',
    {
      config: { ...web, idempotent: true },
      schema: {
        tags: ['web'],
        operationId: 'createEstimate',
        summary: 'Create a draft estimate',
        description: "Explicit lines; tax, second tax, discount and currency default to the client's; the number to the next free one.",
        body: EstimateCreateBody,
        response: { 201: EstimateSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createEstimate(requestDb(request), principalOf(request), request.body, now())),
  );

  app.get(
    '/web/api/estimates/:id',
    {
      config: web,
      schema: { tags: ['web'], operationId: 'getEstimate', summary: 'An estimate', params: IdParams, querystring: NoQuery, response: { 200: EstimateSchema, ...ErrorResponses } },
    },
    readById(app, getEstimate),
  );

  app.patch(
    '/web/api/estimates/:id',
    {
      config: { ...web, idempotent: true },
      schema: {
        tags: ['web'],
        operationId: 'updateEstimate',
        summary: 'Change a draft or sent estimate',
        description: 'Accepted and declined estimates: 409 naming the state. `line_items` replaces all the lines.',
        params: IdParams,
        body: EstimatePatchBody,
        response: { 200: EstimateSchema, ...ErrorResponses },
      },
    },
    async (request) => updateEstimate(requestDb(request), principalOf(request), request.params.id, request.body, now()),
  );

  app.delete(
    '/web/api/estimates/:id',
    {
      config: { access: 'administrator', web: true },
      schema: { tags: ['web'], operationId: 'deleteEstimate', summary: 'Delete an estimate', params: IdParams, response: { 204: Type.Null(), ...ErrorResponses } },
    },
    async (request, reply) => {
      await deleteEstimate(app.db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/web/api/estimates/:id/pdf',
    {
      config: web,
      schema: {
        tags: ['web'],
        operationId: 'estimatePdf',
        summary: 'The estimate as a PDF',
        params: IdParams,
        querystring: PdfQuery,
        response: { 200: { description: 'The PDF document.', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { pdf, filename } = await getEstimatePdf(app.db, principalOf(request), request.params.id);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `${request.query.download ? 'attachment' : 'inline'}; filename="${filename}"`)
        .header('Cache-Control', 'private, no-store')
        .header('Content-Length', pdf.length)
        .send(pdf);
    },
  );

  app.post(
    '/web/api/estimates/:id/send',
    {
      config: { ...web, idempotent: true },
      schema: {
        tags: ['web'],
        operationId: 'sendEstimate',
        summary: 'E-mail the estimate',
        description:
          "Through the outbox, with the PDF attached unless attach_pdf is false, ending with a new client link (the client's page, where the client accepts or declines); a draft becomes sent. Send an Idempotency-Key: a repeated click sends once.",
        params: IdParams,
        body: EstimateMessageBody,
        response: { 200: EstimateSchema, ...ErrorResponses },
      },
    },
    async (request) => sendEstimate(requestDb(request), principalOf(request), request.params.id, request.body, now(), { baseUrl: publicUrlOf(app.config) }),
  );

  for (const answer of ['accept', 'decline'] as const) {
    app.post(
      `/web/api/estimates/:id/${answer}`,
      {
        config: web,
        schema: {
          tags: ['web'],
          operationId: `${answer}Estimate`,
          summary: `Record that the client ${answer}s the estimate`,
          description: `Sent estimates only (409 naming the state otherwise); already ${answer}ed: returned unchanged.`,
          params: IdParams,
          response: { 200: EstimateSchema, ...ErrorResponses },
        },
      },
      async (request) => answerEstimate(app.db, principalOf(request), request.params.id, answer, { now: now() }),
    );
  }

  app.post(
    '/web/api/estimates/:id/reopen',
    {
      config: web,
      schema: {
        tags: ['web'],
        operationId: 'reopenEstimate',
        summary: 'Reopen a declined estimate as a draft',
        params: IdParams,
        response: { 200: EstimateSchema, ...ErrorResponses },
      },
    },
    async (request) => reopenEstimate(app.db, principalOf(request), request.params.id, { now: now() }),
  );

  app.post(
    '/web/api/estimates/:id/convert',
    {
      // Not idempotent by key: the convert opens its own transaction (service.ts); the row lock and
      // the recorded invoice id make a repeat a 409 instead.
      config: web,
      schema: {
        tags: ['web'],
        operationId: 'convertEstimate',
        summary: 'Make a draft invoice of an accepted estimate',
        description: 'One transaction, through the invoices\' create (their rules and numbering). Converted already: 409 with invoice_id; not accepted: 409 naming the state.',
        params: IdParams,
        response: { 201: Converted, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await convertEstimate(app.db, principalOf(request), request.params.id, { now: now() })),
  );

  app.get(
    '/web/api/estimates/:id/client-links',
    {
      config: web,
      schema: {
        tags: ['web'],
        operationId: 'getEstimateClientLinks',
        summary: "The estimate's client links: how many work, and when the client last opened one",
        params: IdParams,
        querystring: NoQuery,
        response: { 200: EstimateLinksSchema, ...ErrorResponses },
      },
    },
    readById(app, estimateLinks),
  );

  app.delete(
    '/web/api/estimates/:id/client-links',
    {
      config: web,
      schema: {
        tags: ['web'],
        operationId: 'revokeEstimateClientLinks',
        summary: 'Revoke every client link of the estimate: each is a 404 from the next request on',
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Type.Null({ description: 'Revoked.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      await revokeEstimateLinks(app.db, principalOf(request), request.params.id, now());
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/web/api/estimates/:id/recipients',
    {
      config: web,
      schema: {
        tags: ['web'],
        operationId: 'getEstimateRecipients',
        summary: "Who the estimate's e-mail goes to first: the client's invoice e-mail address, else its contacts with an e-mail",
        params: IdParams,
        querystring: NoQuery,
        response: { 200: SuggestedRecipientsSchema, ...ErrorResponses },
      },
    },
    readById(app, estimateRecipients),
  );
}
