import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { checkIfMatch, etagOf } from '../../../http/etag.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { EtagHeader, IdParams, NoQuery, rejectReadOnly, type TypedApp, UpdatedSince, updatedSinceOf } from '../../../http/route-kit.ts';
import { presentClient, type ClientRow } from './presenter.ts';
import { CLIENT_READ_ONLY, CLIENT_WRITABLE } from './rules.ts';
import { ClientCreateBody, ClientPatchBody, PaymentTermsSchema, writable } from './schemas.ts';
import { seesClientBilling } from '../../../access/catalog.ts';
import { createClient, deleteClient, getClient, listClients, updateClient } from './service.ts';


export const ClientSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    is_active: Type.Boolean(),
    address: Nullable(Type.String()),
    currency: Type.String({ description: "The client's currency, or the workspace currency when it has none." }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    payment_terms: Type.Optional(Nullable(PaymentTermsSchema)),
    payment_days: Type.Optional(Nullable(Type.Integer())),
    tax: Type.Optional(Nullable(Type.Number())),
    tax2: Type.Optional(Nullable(Type.Number())),
    discount: Type.Optional(Nullable(Type.Number())),
    language: Type.Optional(writable.language),
    vat_id: Type.Optional(writable.vat_id),
    invoice_email: Type.Optional(writable.invoice_email),
    street: Type.Optional(writable.street),
    postal_code: Type.Optional(writable.postal_code),
    city: Type.Optional(writable.city),
    country_code: Type.Optional(writable.country_code),
    buyer_reference: Type.Optional(writable.buyer_reference),
  },
  {
    additionalProperties: false,
    description:
      'Invoicing defaults (`payment_terms`, `payment_days`, `tax`, `tax2`, `discount`, `language`, `vat_id`, `invoice_email`, and the e-invoice parts `street`, `postal_code`, `city`, `country_code`, `buyer_reference`) appear only for callers who may edit clients or view invoices.',
  },
);

const ClientsQuery = Type.Object(
  {
    is_active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    updated_since: UpdatedSince('only clients updated at or after it.'),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export async function clientsRoutes(app: TypedApp) {
  const present = (request: FastifyRequest, row: ClientRow) =>
    presentClient(row, { billing: seesClientBilling(principalOf(request)) });
  const ifMatch = (request: FastifyRequest) => (row: ClientRow) =>
    checkIfMatch(request, etagOf(present(request, row)));

  app.get(
    '/api/v2/clients',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['clients'],
        summary: 'List clients',
        description:
          'Clients the caller sees, by name then id. Owners, administrators and managers who may edit clients or projects see all; everybody else (and a personal sync key) sees the clients of their actively assigned projects.',
        querystring: ClientsQuery,
        response: { 200: Type.Object({ clients: Type.Array(ClientSchema), ...EnvelopeSchema }), ...ErrorResponses },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const query = request.query;
      const page = pageParams(query);
      const { rows, total } = await listClients(
        app.db,
        p,
        {
          isActive: query.is_active === undefined ? undefined : query.is_active === 'true',
          updatedSince: updatedSinceOf(query.updated_since),
        },
        page,
      );
      return { clients: rows.map((row) => present(request, row)), ...pageEnvelope(request, page, total) };
    },
  );

  app.get(
    '/api/v2/clients/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['clients'],
        summary: 'Get a client',
        description: 'A client the caller sees, with an `ETag`. Invisible, other-workspace and unknown ids are 404.',
        params: IdParams,
        querystring: NoQuery,
        response: { 200: { ...ClientSchema, headers: EtagHeader }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const body = present(request, await getClient(app.db, principalOf(request), id));
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.post(
    '/api/v2/clients',
    {
      config: { access: 'edit_clients_and_tasks', idempotent: true },
      preValidation: rejectReadOnly({ readOnly: CLIENT_READ_ONLY }),
      schema: {
        tags: ['clients'],
        summary: 'Create a client',
        description:
          'Needs owner, administrator, or manager with Edit clients and tasks. Accepts an `Idempotency-Key`. Returns 201 with `Location` and `ETag`.',
        body: ClientCreateBody,
        response: { 201: { ...ClientSchema, headers: { ...EtagHeader, Location: { type: 'string' } } }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const row = await createClient(requestDb(request), principalOf(request), request.body, app.config.clock());
      const body = present(request, row);
      return reply
        .code(201)
        .header('Location', `/api/v2/clients/${row.id}`)
        .header('ETag', etagOf(body))
        .send(body);
    },
  );

  app.patch(
    '/api/v2/clients/:id',
    {
      config: { access: 'edit_clients_and_tasks', idempotent: true, ifMatch: 'optional' },
      preValidation: rejectReadOnly({ readOnly: CLIENT_READ_ONLY, requireOneOf: CLIENT_WRITABLE }),
      schema: {
        tags: ['clients'],
        summary: 'Update, archive or restore a client',
        description:
          'At least one writable property; unknown and read-only properties are 400. Optional `If-Match` (412 when stale) and `Idempotency-Key`. Changing `is_active` archives or restores and needs owner or administrator; archiving a client with active projects is 409.',
        params: IdParams,
        body: ClientPatchBody,
        response: { 200: { ...ClientSchema, headers: EtagHeader }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const row = await updateClient(requestDb(request), principalOf(request), id, request.body, {
        now: app.config.clock(),
        precondition: ifMatch(request),
      });
      const body = present(request, row);
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.delete(
    '/api/v2/clients/:id',
    {
      config: { access: 'administrator', ifMatch: 'required' },
      schema: {
        tags: ['clients'],
        summary: 'Delete an archived client',
        description:
          'Owners and administrators. The client must be archived, `If-Match` must carry its current ETag (428 when missing, 412 when stale), and it must have no projects and no financial documents (409); otherwise nothing is deleted. Its contacts are deleted with it.',
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await deleteClient(app.db, principalOf(request), id, { precondition: ifMatch(request) });
      return reply.code(204).send(null);
    },
  );
}
