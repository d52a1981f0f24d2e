import multipart from '@fastify/multipart';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { ApiError, badRequest } from '../../../errors.ts';
import { checkIfMatch, etagOf } from '../../../http/etag.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { sendStoredFile } from '../../../http/files.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { presentExpense, type ExpenseRow } from './presenter.ts';
import { FORM_FIELD_MAX_BYTES, RECEIPT_MAX_BYTES, RECEIPT_TYPES, formToBody, readReceiptForm, type FormFieldType, type ReceiptUpload } from './receipts.ts';
import { EXPENSE_READ_ONLY, EXPENSE_SOURCES } from './rules.ts';
import {
  PERSON_FIXED,
  createExpense,
  deleteExpense,
  getExpense,
  getReceipt,
  listExpenses,
  updateExpense,
  type CreateExpenseInput,
  type ExpenseInput,
} from './service.ts';


const SourceSchema = Type.Unsafe<(typeof EXPENSE_SOURCES)[number]>({ type: 'string', enum: [...EXPENSE_SOURCES] });

/** The expense's writable fields (POST requires project_id, expense_category_id, spent_date and one of total_cost/units). */
const fields = {
  project_id: Type.String({ minLength: 1, description: 'An active project the person is assigned to (owners and administrators: any active project).' }),
  expense_category_id: Type.String({ minLength: 1, description: 'An active expense category of the workspace.' }),
  spent_date: Type.String({ format: 'date', description: 'YYYY-MM-DD, from 1900-01-01 to 2999-12-31.' }),
  total_cost: Type.Number({
    minimum: 0,
    description: 'The amount, in the project client\'s currency (else the workspace\'s), at most its minor unit (two decimals at most). Exactly one of total_cost and units.',
  }),
  units: Type.Number({
    exclusiveMinimum: 0,
    description: 'Quantity, at most 4 decimals; needs a category with a unit price: total_cost = units × unit_price, rounded half up to the currency\'s minor unit.',
  }),
  notes: Nullable(Type.String({ maxLength: 10000 })),
  billable: Type.Boolean({ description: "Default: the project's is_billable (on a move to another project without billable: the new project's)." }),
  metadata: Nullable(Type.Object({}, { additionalProperties: true, description: 'A JSON object of at most 4 KB.' })),
  user_id: Type.String({
    minLength: 1,
    description: 'Whose expense (default: the caller). Owners and administrators: anyone; managers: their teammates, and anyone on projects they manage; others: only themselves.',
  }),
};

const CreateFields = {
  project_id: fields.project_id,
  expense_category_id: fields.expense_category_id,
  spent_date: fields.spent_date,
  total_cost: Type.Optional(fields.total_cost),
  units: Type.Optional(fields.units),
  notes: Type.Optional(fields.notes),
  billable: Type.Optional(fields.billable),
  source: Type.Optional(Type.Unsafe<(typeof EXPENSE_SOURCES)[number]>({ ...SourceSchema, description: 'Default api; cannot change later.' })),
  metadata: Type.Optional(fields.metadata),
  user_id: Type.Optional(fields.user_id),
};

const PatchFields = {
  project_id: Type.Optional(fields.project_id),
  expense_category_id: Type.Optional(fields.expense_category_id),
  spent_date: Type.Optional(fields.spent_date),
  total_cost: Type.Optional(fields.total_cost),
  units: Type.Optional(fields.units),
  notes: Type.Optional(fields.notes),
  billable: Type.Optional(fields.billable),
  metadata: Type.Optional(fields.metadata),
  delete_receipt: Type.Optional(Type.Boolean({ description: 'true removes the receipt.' })),
};

/**
 * The `receipt` file part of a multipart body. The server reads the part and
 * puts a description of it here (its hash, so an Idempotency-Key replay must
 * carry the same file); a JSON body cannot carry it.
 */
const ReceiptPart = Type.String({
  contentMediaType: 'application/octet-stream',
  description: `The receipt file: ${RECEIPT_TYPES.join(', ')}; at most ${RECEIPT_MAX_BYTES / 1024 / 1024} MiB (413 above; 415 for other types).`,
});

const CreateJson = Type.Object(CreateFields, { additionalProperties: false });
const CreateForm = Type.Object({ ...CreateFields, receipt: Type.Optional(ReceiptPart) }, { additionalProperties: false });
const PatchJson = Type.Object(PatchFields, { additionalProperties: false, minProperties: 1 });
const PatchForm = Type.Object({ ...PatchFields, receipt: Type.Optional(ReceiptPart) }, { additionalProperties: false, minProperties: 1 });

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

const CategoryRef = Type.Object(
  { id: Type.String(), name: Type.String(), unit_name: Nullable(Type.String()), unit_price: Nullable(Type.Number()) },
  { additionalProperties: false },
);

/** Response: keys in the presenter's order, so the ETag hashes the exact bytes sent. */
export const ExpenseSchema = Type.Object(
  {
    id: Type.String(),
    user_id: Type.String(),
    project_id: Type.String(),
    expense_category_id: Type.String(),
    expense_category: CategoryRef,
    spent_date: Type.String({ format: 'date' }),
    units: Nullable(Type.Number()),
    total_cost: Type.Number(),
    notes: Nullable(Type.String()),
    billable: Type.Boolean(),
    is_billed: Type.Boolean({ description: 'On an invoice (server-owned).' }),
    is_locked: Type.Boolean({ description: 'Approved or billed: cannot be changed or deleted.' }),
    is_closed: Type.Boolean({ description: 'Approved.' }),
    approval_status: Type.Unsafe<string>({ type: 'string', enum: ['unsubmitted', 'submitted', 'approved', 'rejected'] }),
    source: SourceSchema,
    metadata: Nullable(Type.Object({}, { additionalProperties: true })),
    receipt: Nullable(
      Type.Object({ file_name: Type.String(), content_type: Type.String(), byte_size: Type.Integer() }, { additionalProperties: false }),
    ),
    receipt_download_url: Nullable(Type.String({ description: '/api/v2/expenses/{id}/receipt when there is a receipt.' })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

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
    updated_since: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601 date-time; expenses changed at or after it.' })),
  },
  { additionalProperties: false },
);

const IdParams = Type.Object({ id: Type.String() }, { additionalProperties: false });
const ReceiptParams = Type.Object({ expense_id: Type.String() }, { additionalProperties: false });
const NoQuery = Type.Object({}, { additionalProperties: false });
const EtagHeader = { ETag: { type: 'string', description: 'Strong ETag of this body.' } };

/** The receipts uploaded with requests, from the body's preValidation to the handler. */
const uploads = new WeakMap<FastifyRequest, ReceiptUpload>();

/**
 * Before validation: a multipart body becomes the JSON-shaped body its schema
 * validates (form fields converted, the receipt described and kept aside);
 * server-owned and read-only properties get a 400 naming them.
 */
const prepareBody =
  ({ patch }: { patch: boolean }): preValidationAsyncHookHandler =>
  async (request) => {
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
    for (const field of EXPENSE_READ_ONLY) {
      if (Object.hasOwn(body, field)) throw new ApiError('unknown_field', `'${field}' is read-only and cannot be set.`, { field });
    }
    if (patch && Object.keys(body).length === 0) {
      throw badRequest(
        'Send at least one field to change: project_id, expense_category_id, spent_date, total_cost, units, notes, billable, metadata or delete_receipt (or a receipt file part).',
      );
    }
  };

/** The service's input: the validated body without the receipt's description. */
function inputOf(request: FastifyRequest): ExpenseInput {
  const { receipt: _receipt, ...input } = request.body as Record<string, unknown>;
  return input as ExpenseInput;
}

/**
 * `/api/v2/expenses`: list, read, create, update, delete, and the receipt's
 * bytes. Every route is for full-access credentials (a personal sync key is
 * refused by its allowlist); who sees and writes which expenses is the
 * service's (the time entries' rule). POST and PATCH take JSON or
 * multipart/form-data with a `receipt` file part.
 */
export async function expensesRoutes(app: FastifyInstance) {
  // Multipart parsing for this plugin's routes only; every other route still answers 415 to it.
  await app.register(multipart, {
    limits: { fileSize: RECEIPT_MAX_BYTES, files: 1, fieldSize: FORM_FIELD_MAX_BYTES },
  });

  const ifMatch = (request: FastifyRequest, required: boolean) => (row: ExpenseRow) =>
    checkIfMatch(request, etagOf(presentExpense(row)), { required });

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
      const query = request.query as Static<typeof ListQuery>;
      const { from, to } = query;
      if (from && to && from > to) throw badRequest('to must not be before from.', { field: 'to' });
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
          updatedSince: query.updated_since === undefined ? undefined : new Date(query.updated_since),
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
      const { id } = request.params as Static<typeof IdParams>;
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
    async (request, reply) => {
      const row = await createExpense(
        requestDb(request),
        principalOf(request),
        inputOf(request) as CreateExpenseInput,
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
      config: { access: 'authenticated', idempotent: true },
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
    async (request, reply) => {
      const { id } = request.params as Static<typeof IdParams>;
      const row = await updateExpense(requestDb(request), principalOf(request), id, inputOf(request), uploads.get(request) ?? null, {
        now: app.config.clock(),
        precondition: ifMatch(request, false),
      });
      const body = presentExpense(row);
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.delete(
    '/api/v2/expenses/:id',
    {
      config: { access: 'authenticated' },
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
      const { id } = request.params as Static<typeof IdParams>;
      await deleteExpense(app.db, principalOf(request), id, { precondition: ifMatch(request, false) });
      return reply.code(204).send();
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
      const { expense_id: id } = request.params as Static<typeof ReceiptParams>;
      const file = await getReceipt(app.db, principalOf(request), id);
      return sendStoredFile(reply, file);
    },
  );
}
