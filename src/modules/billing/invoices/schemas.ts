import { Type, type Static, type TOptional, type TProperties } from '@sinclair/typebox';
import type { preValidationAsyncHookHandler } from 'fastify';
import { ApiError, badRequest } from '../../../errors.ts';
import { Enum, Nullable } from '../../../http/schemas.ts';
import { E_INVOICE_ATTACHMENTS } from './e-invoice-data.ts';
import {
  DESCRIPTION_MAX,
  EXPENSE_SUMMARY_TYPES,
  INVOICE_STATES,
  KIND_MAX,
  LINE_EFFECTS,
  MESSAGE_EVENTS,
  NOTES_MAX,
  NUMBER_MAX,
  PAYMENT_METHODS,
  PAYMENT_TERMS,
  PURCHASE_ORDER_MAX,
  SUBJECT_MAX,
  TIME_SUMMARY_TYPES,
  UPDATABLE_FIELDS,
} from './rules.ts';

/**
 * The invoice's schemas, shared by the API routes, the web routes and the services that take
 * their bodies (`Static` of a body is the service's input).
 */

/** Every property optional, in the same order. */
const optional = <T extends TProperties>(properties: T) =>
  Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, Type.Optional(v)])) as { [K in keyof T]: TOptional<T[K]> };

export const IsoDate = (description: string) => Type.String({ format: 'date', description: `YYYY-MM-DD. ${description}` });
const Percent = (what: string) =>
  Type.Number({ description: `${what}: a percentage from 0 to 100, at most 4 decimal places.` });

/**
 * A document's totals as the web app's estimate and the client's invoice page show them (computeTotals,
 * presentTotals), without the API invoice's descriptions.
 */
export const TotalsProperties = {
  subtotal: Type.Number(),
  discount: Type.Number(),
  discount_amount: Type.Number(),
  tax: Type.Number(),
  tax_amount: Type.Number(),
  tax2: Type.Number(),
  tax2_amount: Type.Number(),
  amount: Type.Number(),
};

// ---------------------------------------------------------------- request bodies

export const LineItemCreate = Type.Object(
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

const ImportPart = <T extends string>(types: readonly T[]) =>
  Type.Object(
    {
      summary_type: Enum(types, 'One line per group of this kind (per project); `detailed`: one line per record.'),
      from: Type.Optional(IsoDate('Earliest work date; default: the earliest uninvoiced record.')),
      to: Type.Optional(IsoDate('Latest work date; default: the latest uninvoiced record.')),
    },
    { additionalProperties: false },
  );

export const LineItemsImport = Type.Object(
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
    payment_term: Type.Optional(Enum(PAYMENT_TERMS, 'Gives the default due date (`custom`: the client’s custom days, else 30 days); an explicit `due_date` is kept with any term.')),
    currency: Type.Optional(Type.String({ description: "ISO 4217; default: the client's currency, else the workspace's." })),
    ...optional(invoiceFields),
  },
  { additionalProperties: false },
);

export const LineItemEdit = Type.Object(
  {
    id: Type.String({ description: 'The id of a line of this invoice.' }),
    description: Type.Optional(Nullable(Type.String({ maxLength: DESCRIPTION_MAX }))),
    unit_price: Type.Optional(Type.Number({ description: 'Not negative; at most 4 decimal places.' })),
    kind: Type.Optional(Type.String({ maxLength: KIND_MAX })),
  },
  { additionalProperties: false },
);

export const InvoicePatchBody = Type.Object(
  {
    ...optional(invoiceFields),
    line_items: Type.Optional(Type.Array(LineItemEdit, { maxItems: 10_000, description: 'Edits of existing lines, by id.' })),
  },
  { additionalProperties: false },
);

/**
 * The web app's change of a draft's line taxes (PATCH /web/api/invoices/:id/line_taxes): lines by
 * id, each with `taxed` and/or `taxed2`. Not part of the API's PATCH, whose line edits are the
 * spec's `description`, `unit_price` and `kind` only.
 */
export const LineTaxesEdit = Type.Object(
  {
    id: Type.String({ description: 'The id of a line of this invoice.' }),
    taxed: Type.Optional(Type.Boolean({ description: 'The first tax applies to the line.' })),
    taxed2: Type.Optional(Type.Boolean({ description: 'The second tax applies to the line.' })),
  },
  { additionalProperties: false },
);

export const LineTaxesBody = Type.Object(
  { line_items: Type.Array(LineTaxesEdit, { minItems: 1, maxItems: 10_000, description: 'Lines of the draft by id, each with at least one of taxed, taxed2.' }) },
  { additionalProperties: false },
);

export const RecipientSchema = Type.Object(
  { email: Type.String({ maxLength: 320 }), name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))) },
  { additionalProperties: false },
);

export const MessageBody = Type.Object(
  {
    event_type: Type.Optional(Enum(MESSAGE_EVENTS, '`send` (default; a draft becomes open), `reminder` (open invoices with an amount due), `thank_you` (paid invoices).')),
    recipients: Type.Array(RecipientSchema, { description: 'At least one.' }),
    cc_recipients: Type.Optional(Type.Array(RecipientSchema, { description: 'Not with thank_you.' })),
    subject: Type.Optional(Nullable(Type.String({ maxLength: 998 }))),
    body: Type.Optional(Nullable(Type.String({ maxLength: 20_000 }))),
    attach_pdf: Type.Optional(Type.Boolean({ description: 'Default true.' })),
    attach_expense_receipts: Type.Optional(Type.Boolean({ description: "Default true: the receipts of the invoice's expenses." })),
    send_me_a_copy: Type.Optional(Type.Boolean({ description: 'A blind copy to the key owner.' })),
    attach_e_invoice: Type.Optional(
      Nullable(
        Enum(E_INVOICE_ATTACHMENTS, 'An e-invoice to attach (default none): `facturx` (PDF/A-3 with the CII XML; it takes the place of the plain PDF that `attach_pdf` attaches), `cii`, `ubl`, `xrechnung-cii` or `xrechnung-ubl`. An invoice lacking data the format requires gives 422 `e_invoice_incomplete`, and nothing is sent.'),
      ),
    ),
    attachment_ids: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: 20,
        description: "Attachments of this invoice to send with the e-mail (default none); each must be one of the invoice's, once (400 naming the element).",
      }),
    ),
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
    due_amount: Type.Number({ description: 'amount − paid_amount; 0 for a voided invoice (cancelled, it asks for nothing).' }),
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

export const MessageSchema = Type.Object(
  {
    id: Type.String(),
    invoice_id: Type.String(),
    event_type: Enum(MESSAGE_EVENTS),
    recipients: Type.Array(Address),
    cc_recipients: Type.Array(Address),
    subject: Nullable(Type.String()),
    body: Nullable(Type.String()),
    attach_pdf: Type.Boolean({ description: 'As asked: when attach_e_invoice is `facturx`, the Factur-X went in the plain PDF\'s place.' }),
    attach_e_invoice: Nullable(Enum(E_INVOICE_ATTACHMENTS, 'The e-invoice attached to the e-mail; null for none (and for messages sent before Sheaf recorded it).')),
    attach_expense_receipts: Type.Boolean(),
    send_me_a_copy: Type.Boolean(),
    attachments: Type.Array(Type.Object({ id: Type.String(), file_name: Type.String() }, { additionalProperties: false }), {
      description: 'The invoice attachments sent with the e-mail, named as they were then.',
    }),
    sent_by: Nullable(Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() }, { additionalProperties: false })),
    delivery_status: Enum(['pending', 'sent', 'failed'], 'The e-mail in the outbox: pending (also while SMTP is not configured, and between retries), sent, or failed after at least three days of retries (until an operator retries it, which also starts delivery_attempts again from 0).'),
    delivery_attempts: Type.Integer(),
    delivered_at: Timestamp,
    delivery_error: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const PaymentBody = Type.Object(
  {
    amount: Type.Number({ description: 'More than 0, at most the amount due, in the minor units of the invoice currency.' }),
    paid_date: Type.String({ format: 'date', description: 'YYYY-MM-DD.' }),
    method: Type.Optional(Nullable(Enum(PAYMENT_METHODS, 'How the client paid; optional.'))),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  },
  { additionalProperties: false },
);

/** A recorded payment as the web app's payment list shows it. */
export const PaymentSchema = Type.Object(
  {
    id: Type.String(),
    invoice_id: Type.String(),
    amount: Type.Number(),
    paid_date: Type.String({ format: 'date' }),
    method: Nullable(Enum(PAYMENT_METHODS)),
    notes: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const PaymentParams = Type.Object({ id: Type.String(), paymentId: Type.String() }, { additionalProperties: false });

export type LineInput = Static<typeof LineItemCreate>;
export type ImportRequest = Static<typeof LineItemsImport>;
export type CreateInput = Static<typeof InvoiceCreateBody>;
export type LineEdit = Static<typeof LineItemEdit>;
export type UpdateInput = Static<typeof InvoicePatchBody>;
export type LineTaxesInput = Static<typeof LineTaxesBody>;
export type Recipient = Static<typeof RecipientSchema>;
export type MessageInput = Static<typeof MessageBody>;
export type PaymentInput = Static<typeof PaymentBody>;

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
