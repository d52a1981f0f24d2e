import multipart from '@fastify/multipart';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { badRequest } from '../../../errors.ts';
import { checkIfMatch, etagOf } from '../../../http/etag.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { sendStoredFile } from '../../../http/files.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { EtagHeader, IdParams, NoQuery, rejectReadOnly, type TypedApp, UpdatedSince, updatedSinceOf } from '../../../http/route-kit.ts';
import { presentExpense } from './presenter.ts';
import type { ExpenseRow } from './queries.ts';
import { FORM_FIELD_MAX_BYTES, RECEIPT_MAX_BYTES, RECEIPT_TYPES, formToBody, readReceiptForm, type FormFieldType, type ReceiptUpload } from './receipts.ts';
import { EXPENSE_READ_ONLY } from './rules.ts';
import { CreateForm, CreateJson, ExpenseSchema, PatchForm, PatchJson, SourceSchema } from './schemas.ts';
import { PERSON_FIXED, createExpense, deleteExpense, getExpense, getReceipt, listExpenses, updateExpense } from './service.ts';

const bodyOf = (json: TSchema, form: TSchema) => ({
  content: {
    'application/json': { schema: json },
    'multipart/form-data': { schema: form },
  },
});

/** How each form field converts to the JSON type its schema expects. */
const FORM_TYPES: Record<string, FormFieldType> = {
  project_id: 'string',
  expense_category_id: 'string',
  spent_date: 'string',
  user_id: 'string',
  source: 'string',
  notes: 'string',
  total_cost: 'number',
  units: 'number',
  billable: 'boolean',
  delete_receipt: 'boolean',
  metadata: 'json',
};

const ListQuery = Type.Object(
  {
    ...PageQuery,
    source: Type.Optional(SourceSchema),
    project_id: Type.Optional(Type.String({ format: 'uuid' })),
    client_id: Type.Optional(Type.String({ format: 'uuid' })),
    user_id: Type.Optional(Type.String({ format: 'uuid' })),
    from: Type.Optional(Type.String({ format: 'date', description: 'Inclusive spent_date lower bound.' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'Inclusive spent_date upper bound; not before from.' })),
    is_billed: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    updated_since: UpdatedSince('expenses changed at or after it.'),
  },
  { additionalProperties: false },
);

const ReceiptParams = Type.Object({ expense_id: Type.String() }, { additionalProperties: false });

/** The receipts uploaded with requests, from the body's preValidation to the handler. */
const uploads = new WeakMap<FastifyRequest, ReceiptUpload>();

/**
 * Before validation: a multipart body becomes the JSON-shaped body its schema
 * validates (form fields converted, the receipt described and kept aside);
 * server-owned and read-only properties get a 400 naming them.
 */
const refuseReadOnly = rejectReadOnly({ readOnly: EXPENSE_READ_ONLY });

const prepareBody = ({ patch }: { patch: boolean }): preValidationAsyncHookHandler =>
  async function (request, reply) {
    if (request.isMultipart()) {
      const form = await readReceiptForm(request);
      if (Object.hasOwn(form.fields, 'receipt')) throw badRequest('receipt must be a file part.', { field: 'receipt' });
      const body = formToBody(form.fields, FORM_TYPES, form.jsonFields);
      if (form.receipt) {
        const r = form.receipt;
        uploads.set(request, r);
        body.receipt = JSON.stringify({ file_name: r.filename, content_type: r.contentType, byte_size: r.data.length, sha256: r.sha256 });
      }
      request.body = body;
    } else {
      const body = request.body;
      if (body && typeof body === 'object' && !Array.isArray(body) && Object.hasOwn(body, 'receipt')) {
        throw badRequest('A receipt is uploaded as the `receipt` file part of a multipart/form-data body, not in JSON.', { field: 'receipt' });
      }
    }
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return;
    if (Object.hasOwn(body, 'is_billed')) {
      throw badRequest('is_billed is server-owned: invoicing sets it and deleting a draft invoice clears it.', { field: 'is_billed' });
    }
    if (patch && Object.hasOwn(body, 'source')) throw badRequest('source cannot change after an expense is created.', { field: 'source' });
    if (patch && Object.hasOwn(body, 'user_id')) throw badRequest(PERSON_FIXED, { field: 'user_id' });
    await refuseReadOnly.call(this, request, reply);
    if (patch && Object.keys(body).length === 0) {
      throw badRequest(
        'Send at least one field to change: project_id, expense_category_id, spent_date, total_cost, units, notes, billable, metadata or delete_receipt (or a receipt file part).',
      );
    }
  };

/** The service's input: the validated body without the receipt's description. */
function inputOf<T extends { receipt?: string }>(body: T): Omit<T, 'receipt'> {
  const { receipt: _receipt, ...input } = body;
  return input;
}

/** A POST or PATCH body: the form's schema is the JSON one's and the receipt's description. */
type CreateBody = Static<typeof CreateForm>;
type PatchBody = Static<typeof PatchForm>;

/**
 * `/api/v2/expenses`: list, read, create, update, delete, and the receipt's
 * bytes. Every route is for full-access credentials (a personal sync key is
 * refused by its allowlist); who sees and writes which expenses is the
 * service's (the time entries' rule). POST and PATCH take JSON or
 * multipart/form-data with a `receipt` file part.
 */
export async function expensesRoutes(app: TypedApp) {
  // Multipart parsing for this plugin's routes only; every other route still answers 415 to it.
  await app.register(multipart, {
    limits: { fileSize: RECEIPT_MAX_BYTES, files: 1, fieldSize: FORM_FIELD_MAX_BYTES },
  });

  const ifMatch = (request: FastifyRequest) => (row: ExpenseRow) =>
    checkIfMatch(request, etagOf(presentExpense(row)));

  app.get(
    '/api/v2/expenses',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['expenses'],
        summary: 'List expenses',
        description:
          'Expenses the caller sees, newest spent_date first (then newest created, then id). Owners and administrators see everyone\'s; managers their own, their teammates\' and those on projects they manage; others their own. Filters only narrow; invalid, blank or conflicting values are 400.',
        querystring: ListQuery,
        response: { 200: Type.Object({ expenses: Type.Array(ExpenseSchema), ...EnvelopeSchema }), ...ErrorResponses },
      },
    },
    async (request) => {
      const query = request.query;
      const { from, to } = query;
      const page = pageParams(query);
      const { rows, total } = await listExpenses(
        app.db,
        principalOf(request),
        {
          userId: query.user_id,
          projectId: query.project_id,
          clientId: query.client_id,
          from,
          to,
          isBilled: query.is_billed === undefined ? undefined : query.is_billed === 'true',
          source: query.source,
          updatedSince: updatedSinceOf(query.updated_since),
        },
        page,
      );
      return { expenses: rows.map(presentExpense), ...pageEnvelope(request, page, total) };
    },
  );

  app.get(
    '/api/v2/expenses/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['expenses'],
        summary: 'Get an expense',
        description: 'With an `ETag`. Invisible, other-workspace and unknown ids are 404.',
        params: IdParams,
        querystring: NoQuery,
        response: { 200: { ...ExpenseSchema, headers: EtagHeader }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const body = presentExpense(await getExpense(app.db, principalOf(request), id));
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.post(
    '/api/v2/expenses',
    {
      config: { access: 'authenticated', idempotent: true },
      preValidation: prepareBody({ patch: false }),
      schema: {
        tags: ['expenses'],
        summary: 'Create an expense',
        description:
          'JSON, or multipart/form-data with the same fields as form fields (numbers and booleans as text, metadata as JSON text) plus an optional `receipt` file part. Exactly one of total_cost and units. A week of the person\'s with approved time or expenses is 409 `approved_timesheet_week_locked`. Accepts an `Idempotency-Key`; returns 201 with `Location` and `ETag`.',
        body: bodyOf(CreateJson, CreateForm),
        response: { 201: { ...ExpenseSchema, headers: { ...EtagHeader, Location: { type: 'string' } } }, ...ErrorResponses },
      },
    },
    // The body is one of two schemas by content type, which the type provider does not read: the handler names its type.
    async (request: FastifyRequest<{ Body: CreateBody }>, reply) => {
      const row = await createExpense(
        requestDb(request),
        principalOf(request),
        inputOf(request.body),
        uploads.get(request) ?? null,
        app.config.clock(),
      );
      const body = presentExpense(row);
      return reply.code(201).header('Location', `/api/v2/expenses/${row.id}`).header('ETag', etagOf(body)).send(body);
    },
  );

  app.patch(
    '/api/v2/expenses/:id',
    {
      config: { access: 'authenticated', idempotent: true, ifMatch: 'optional' },
      preValidation: prepareBody({ patch: true }),
      schema: {
        tags: ['expenses'],
        summary: 'Update an expense',
        description:
          'The fields given (JSON or multipart/form-data; a `receipt` file part replaces the receipt, `delete_receipt: true` removes it). `source`, `is_billed` and `user_id` are refused (400). Approved expenses and a locked week are 409 `approved_timesheet_week_locked`; billed expenses 409 `expense_locked`. Optional `If-Match` (412 when stale) and `Idempotency-Key`.',
        params: IdParams,
        body: bodyOf(PatchJson, PatchForm),
        response: { 200: { ...ExpenseSchema, headers: EtagHeader }, ...ErrorResponses },
      },
    },
    async (request: FastifyRequest<{ Body: PatchBody; Params: Static<typeof IdParams> }>, reply) => {
      const { id } = request.params;
      const row = await updateExpense(requestDb(request), principalOf(request), id, inputOf(request.body), uploads.get(request) ?? null, {
        now: app.config.clock(),
        precondition: ifMatch(request),
      });
      const body = presentExpense(row);
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.delete(
    '/api/v2/expenses/:id',
    {
      config: { access: 'authenticated', ifMatch: 'optional' },
      schema: {
        tags: ['expenses'],
        summary: 'Delete an expense',
        description:
          'Returns 204. Approved expenses and a locked week are 409 `approved_timesheet_week_locked`; billed expenses 409 `expense_locked`. Optional `If-Match`. The receipt goes with the expense.',
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await deleteExpense(app.db, principalOf(request), id, { precondition: ifMatch(request) });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v2/expenses/:expense_id/receipt',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['expenses'],
        summary: "An expense's receipt file",
        description:
          'The original bytes with their content type (not JSON), as an attachment with the uploaded file name; private and uncached. 404 when the expense has no receipt or is not visible.',
        params: ReceiptParams,
        querystring: NoQuery,
        response: {
          200: {
            description: 'The receipt file.',
            content: Object.fromEntries(RECEIPT_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
          },
          ...ErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { expense_id: id } = request.params;
      const file = await getReceipt(app.db, principalOf(request), id);
      return sendStoredFile(reply, file);
    },
  );
}
