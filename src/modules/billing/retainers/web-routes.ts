import { INVOICE_ACCESS } from '../../../access/invoices.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { IdParams, NoQuery, readById, type TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import {
  CreditBody,
  CreditedSchema,
  CreditParams,
  FundBody,
  FundedSchema,
  InvoiceRetainersSchema,
  RetainerCreateBody,
  RetainerDetailSchema,
  RetainerListQuery,
  RetainerListSchema,
  RetainerPatchBody,
} from './schemas.ts';
import { applyCredit, createRetainer, fundRetainer, getRetainer, invoiceRetainers, listRetainers, removeCredit, updateRetainer } from './service.ts';

/**
 * Retainers in the web app (issue 25 item 8). Session-only routes: the API (spec v2)
 * names no retainer routes. Access: those who see every invoice (service.ts).
 */
export async function retainersWebRoutes(app: TypedApp) {
  const web = { access: INVOICE_ACCESS, web: true } as const;
  const now = () => app.config.clock();

  app.get(
    '/web/api/retainers',
    {
      config: web,
      schema: {
        tags: ['web'],
        operationId: 'listRetainers',
        summary: 'List retainers',
        description: 'With their balances, by client and name. Owners, administrators and managers with View invoices.',
        querystring: RetainerListQuery,
        response: { 200: RetainerListSchema, ...ErrorResponses },
      },
    },
    async (request) => ({
      retainers: await listRetainers(app.db, principalOf(request), { clientId: request.query.client_id, archived: request.query.archived }),
    }),
  );

  app.post(
    '/web/api/retainers',
    {
      config: { ...web, idempotent: true },
      schema: {
        tags: ['web'],
        operationId: 'createRetainer',
        summary: 'Create a retainer',
        description: "For an active client; the currency defaults to the client's, else the workspace's.",
        body: RetainerCreateBody,
        response: { 201: RetainerDetailSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createRetainer(requestDb(request), principalOf(request), request.body, now())),
  );

  app.get(
    '/web/api/retainers/:id',
    {
      config: web,
      schema: {
        tags: ['web'],
        operationId: 'getRetainer',
        summary: 'A retainer with its history',
        description: 'Every funding and credit line, oldest invoice first, and whether each is in the balance now.',
        params: IdParams,
        querystring: NoQuery,
        response: { 200: RetainerDetailSchema, ...ErrorResponses },
      },
    },
    readById(app, getRetainer),
  );

  app.patch(
    '/web/api/retainers/:id',
    {
      config: { ...web, idempotent: true },
      schema: {
        tags: ['web'],
        operationId: 'updateRetainer',
        summary: 'Rename, archive or restore a retainer',
        description: 'Archiving needs a balance of 0 and no funding awaiting payment (409 otherwise).',
        params: IdParams,
        body: RetainerPatchBody,
        response: { 200: RetainerDetailSchema, ...ErrorResponses },
      },
    },
    async (request) => updateRetainer(requestDb(request), principalOf(request), request.params.id, request.body, now()),
  );

  app.post(
    '/web/api/retainers/:id/fund',
    {
      config: { ...web, idempotent: true },
      schema: {
        tags: ['web'],
        operationId: 'fundRetainer',
        summary: 'Create a retainer invoice',
        description: 'A draft invoice with one untaxed funding line; its funds count once it is paid in full. Send an Idempotency-Key: a repeated click creates one invoice.',
        params: IdParams,
        body: FundBody,
        response: { 201: FundedSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await fundRetainer(requestDb(request), principalOf(request), request.params.id, request.body, now())),
  );

  app.post(
    '/web/api/retainers/:id/credits',
    {
      config: { ...web, idempotent: true },
      schema: {
        tags: ['web'],
        operationId: 'applyRetainerCredit',
        summary: 'Draw on a retainer: a credit line on a draft invoice',
        description:
          'Same client and currency, a draft (409 otherwise); at most the balance and the amount due (400 naming amount, nothing written). Untaxed, outside the discount.',
        params: IdParams,
        body: CreditBody,
        response: { 201: CreditedSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await applyCredit(requestDb(request), principalOf(request), request.params.id, request.body, now())),
  );

  app.delete(
    '/web/api/retainers/:id/credits/:lineId',
    {
      config: web,
      schema: {
        tags: ['web'],
        operationId: 'removeRetainerCredit',
        summary: 'Remove a credit line from a draft invoice',
        description: 'Its funds return to the retainer. Not a draft: 409 (void the invoice instead).',
        params: CreditParams,
        response: { 200: RetainerDetailSchema, ...ErrorResponses },
      },
    },
    async (request) => removeCredit(app.db, principalOf(request), request.params.id, request.params.lineId, now()),
  );

  app.get(
    '/web/api/invoices/:id/retainers',
    {
      config: web,
      schema: {
        tags: ['web'],
        operationId: 'invoiceRetainers',
        summary: "An invoice's retainer credits and the retainers it may draw on",
        params: IdParams,
        querystring: NoQuery,
        response: { 200: InvoiceRetainersSchema, ...ErrorResponses },
      },
    },
    readById(app, invoiceRetainers),
  );
}

