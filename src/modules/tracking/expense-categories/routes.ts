import { Type } from '@sinclair/typebox';
import { etagOf } from '../../../http/etag.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { EtagHeader, IdParams, NoQuery, rejectReadOnly, type TypedApp } from '../../../http/route-kit.ts';
import { CATEGORY_READ_ONLY, CATEGORY_WRITABLE } from './rules.ts';
import { CreateBody, ExpenseCategorySchema, PatchBody } from './schemas.ts';
import { createCategory, getCategory, listCategories, presentCategory, updateCategory } from './service.ts';


const ListQuery = Type.Object(
  {
    is_active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    ...PageQuery,
  },
  { additionalProperties: false },
);
/**
 * `/api/v2/expense_categories`: list and read for every full-access caller (they
 * pick a category for each expense); create and update for owners,
 * administrators and managers with Edit clients and tasks. Never for a personal
 * sync key (not on its allowlist).
 */
export async function expenseCategoriesRoutes(app: TypedApp) {
  app.get(
    '/api/v2/expense_categories',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['expenses'],
        summary: 'List expense categories',
        description: 'The workspace\'s expense categories by name then id. Every workspace starts with one named "LLM usage", for LLM cost expenses.',
        querystring: ListQuery,
        response: { 200: Type.Object({ expense_categories: Type.Array(ExpenseCategorySchema), ...EnvelopeSchema }), ...ErrorResponses },
      },
    },
    async (request) => {
      const query = request.query;
      const page = pageParams(query);
      const { rows, total } = await listCategories(
        app.db,
        principalOf(request).companyId,
        { isActive: query.is_active === undefined ? undefined : query.is_active === 'true' },
        page,
      );
      return { expense_categories: rows.map(presentCategory), ...pageEnvelope(request, page, total) };
    },
  );

  app.get(
    '/api/v2/expense_categories/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['expenses'],
        summary: 'Get an expense category',
        description: 'With an `ETag`. Unknown and other-workspace ids are 404.',
        params: IdParams,
        querystring: NoQuery,
        response: { 200: { ...ExpenseCategorySchema, headers: EtagHeader }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const body = presentCategory(await getCategory(app.db, principalOf(request).companyId, id));
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.post(
    '/api/v2/expense_categories',
    {
      config: { access: 'edit_clients_and_tasks', idempotent: true },
      preValidation: rejectReadOnly({ readOnly: CATEGORY_READ_ONLY }),
      schema: {
        tags: ['expenses'],
        summary: 'Create an expense category',
        description:
          'Owners, administrators and managers with Edit clients and tasks. `unit_name` and `unit_price` go together. A duplicate name (ignoring case) is 409. Accepts an `Idempotency-Key`; returns 201 with `Location` and `ETag`.',
        body: CreateBody,
        response: { 201: { ...ExpenseCategorySchema, headers: { ...EtagHeader, Location: { type: 'string' } } }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      const row = await createCategory(requestDb(request), p.companyId, p, request.body, app.config.clock());
      const body = presentCategory(row);
      return reply.code(201).header('Location', `/api/v2/expense_categories/${row.id}`).header('ETag', etagOf(body)).send(body);
    },
  );

  app.patch(
    '/api/v2/expense_categories/:id',
    {
      config: { access: 'edit_clients_and_tasks', idempotent: true },
      preValidation: rejectReadOnly({ readOnly: CATEGORY_READ_ONLY, requireOneOf: CATEGORY_WRITABLE }),
      schema: {
        tags: ['expenses'],
        summary: 'Update, archive or restore an expense category',
        description:
          'At least one writable property. A new unit price applies to expenses entered from then on; recorded expenses keep their total. Accepts an `Idempotency-Key`.',
        params: IdParams,
        body: PatchBody,
        response: { 200: { ...ExpenseCategorySchema, headers: EtagHeader }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      const { id } = request.params;
      const body = presentCategory(await updateCategory(requestDb(request), p.companyId, p, id, request.body, app.config.clock()));
      reply.header('ETag', etagOf(body));
      return body;
    },
  );
}
