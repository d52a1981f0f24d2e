import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../http/schemas.ts';
import { RECEIPT_MAX_BYTES, RECEIPT_TYPES } from './receipts.ts';
import { EXPENSE_SOURCES } from './rules.ts';

/** The schemas of expenses: the API's bodies and answer, shared by routes.ts, web-routes.ts and the service's inputs. */

export const SourceSchema = Type.Unsafe<(typeof EXPENSE_SOURCES)[number]>({ type: 'string', enum: [...EXPENSE_SOURCES] });

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

export const CreateJson = Type.Object(CreateFields, { additionalProperties: false });
export const CreateForm = Type.Object({ ...CreateFields, receipt: Type.Optional(ReceiptPart) }, { additionalProperties: false });
export const PatchJson = Type.Object(PatchFields, { additionalProperties: false, minProperties: 1 });
export const PatchForm = Type.Object({ ...PatchFields, receipt: Type.Optional(ReceiptPart) }, { additionalProperties: false, minProperties: 1 });

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

/** A create's fields as the service takes them (a multipart body's receipt description left out). */
export type CreateExpenseInput = Static<typeof CreateJson>;
/** An update's fields as the service takes them. */
export type ExpenseInput = Static<typeof PatchJson>;
