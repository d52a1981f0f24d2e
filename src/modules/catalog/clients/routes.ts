import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PaymentTerms } from '../../../db/types.ts';
import { checkIfMatch, etagOf } from '../../../http/etag.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { EtagHeader, IdParams, NoQuery, rejectReadOnly, typed } from '../../../http/route-kit.ts';
import { presentClient, type ClientRow } from './presenter.ts';
import { CLIENT_READ_ONLY, CLIENT_WRITABLE, PAYMENT_TERMS, type ClientInput } from './rules.ts';
import { LANGUAGES } from '../../../i18n/index.ts';
import { seesClientBilling } from '../../../access/catalog.ts';
import { createClient, deleteClient, getClient, listClients, updateClient } from './service.ts';


const PaymentTermsSchema = Type.Unsafe<PaymentTerms>({
  type: 'string',
  enum: [...PAYMENT_TERMS],
  description: '`custom` takes `payment_days`; any other term rejects them.',
});
const Percent = (what: string) =>
  Type.Number({ minimum: 0, maximum: 100, description: `${what}, a percentage from 0 to 100 with at most 4 decimal places.` });

/** The writable properties; POST requires `name`, PATCH requires at least one of them. */
const writable = {
  name: Type.String({ minLength: 1, maxLength: 255, description: 'Unique in the workspace, ignoring case.' }),
  address: Nullable(Type.String({ maxLength: 2000 })),
  currency: Nullable(
    Type.String({ minLength: 3, maxLength: 3, description: 'ISO 4217 code; null uses the workspace currency.' }),
  ),
  payment_terms: Nullable(PaymentTermsSchema),
  payment_days: Nullable(Type.Integer({ minimum: 0, maximum: 365, description: 'Days until due; only with `custom`.' })),
  tax: Nullable(Percent('Default tax')),
  tax2: Nullable(Percent('Default second tax')),
  discount: Nullable(Percent('Default discount')),
  language: Type.Union(
    LANGUAGES.map((l) => Type.Literal(l)),
    { description: 'The language of the client\'s invoices (the PDF) and the default texts of their invoice e-mails; `en` when omitted.' },
  ),
  is_active: Type.Boolean({ description: 'false archives, true restores (owners and administrators only).' }),
};

const ClientCreateBody = Type.Object(
  {
    name: writable.name,
    address: Type.Optional(writable.address),
    currency: Type.Optional(writable.currency),
    payment_terms: Type.Optional(writable.payment_terms),
    payment_days: Type.Optional(writable.payment_days),
    tax: Type.Optional(writable.tax),
    tax2: Type.Optional(writable.tax2),
    discount: Type.Optional(writable.discount),
    language: Type.Optional(writable.language),
    is_active: Type.Optional(writable.is_active),
  },
  { additionalProperties: false },
);

const ClientPatchBody = Type.Partial(Type.Object(writable), { additionalProperties: false, minProperties: 1 });

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
  },
  {
    additionalProperties: false,
    description:
      'Invoicing defaults (`payment_terms`, `payment_days`, `tax`, `tax2`, `discount`, `language`) appear only for callers who may edit clients or view invoices.',
  },
);

const ClientsQuery = Type.Object(
  {
    is_active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    updated_since: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601 date-time; only clients updated at or after it.' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export async function clientsRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const present = (request: FastifyRequest, row: ClientRow) =>
    presentClient(row, { billing: seesClientBilling(principalOf(request)) });
  const ifMatch = (request: FastifyRequest, required: boolean) => (row: ClientRow) =>
    checkIfMatch(request, etagOf(present(request, row)), { required });

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
          updatedSince: query.updated_since ? new Date(query.updated_since) : undefined,
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
      const input = request.body;
      const row = await createClient(requestDb(request), principalOf(request), input as ClientInput & { name: string }, app.config.clock());
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
      config: { access: 'edit_clients_and_tasks', idempotent: true },
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
        precondition: ifMatch(request, false),
      });
      const body = present(request, row);
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.delete(
    '/api/v2/clients/:id',
    {
      config: { access: 'administrator' },
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
      await deleteClient(app.db, principalOf(request), id, { precondition: ifMatch(request, true) });
      return reply.code(204).send(null);
    },
  );
}
