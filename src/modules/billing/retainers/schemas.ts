import { Type, type Static } from '@sinclair/typebox';
import { Enum, Nullable } from '../../../http/schemas.ts';
import { IsoDate } from '../invoices/index.ts';
import { DESCRIPTION_MAX, NAME_MAX } from './rules.ts';

/** The retainers' schemas (web routes only; the API has no retainers). */

const Money = (description: string) => Type.Number({ description });
const Timestamp = Nullable(Type.String({ format: 'date-time' }));
const INVOICE_STATES = ['draft', 'open', 'paid', 'closed', 'voided'] as const;

export const RetainerCreateBody = Type.Object(
  {
    client_id: Type.String({ description: 'An active client (404 when unknown or of another workspace; archived: 400).' }),
    name: Type.String({ maxLength: NAME_MAX }),
    description: Type.Optional(Nullable(Type.String({ maxLength: DESCRIPTION_MAX }))),
    currency: Type.Optional(Type.String({ description: "ISO 4217; default: the client's currency, else the workspace's. Fixed once created." })),
  },
  { additionalProperties: false },
);

export const RetainerPatchBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: NAME_MAX })),
    description: Type.Optional(Nullable(Type.String({ maxLength: DESCRIPTION_MAX }))),
    archived: Type.Optional(Type.Boolean({ description: 'true archives (only at a balance of 0, with no funding awaiting payment); false restores.' })),
  },
  { additionalProperties: false },
);

export const FundBody = Type.Object(
  {
    amount: Money('The funds to add, in the retainer\'s currency: more than 0, at most its minor-unit digits.'),
    issue_date: Type.Optional(IsoDate('Of the retainer invoice; default: today in the workspace time zone.')),
  },
  { additionalProperties: false },
);

export const CreditBody = Type.Object(
  {
    invoice_id: Type.String({ description: 'A draft invoice of the same client and currency (404 when out of reach).' }),
    amount: Money('At most the balance and at most the invoice\'s amount due (400 naming amount otherwise).'),
  },
  { additionalProperties: false },
);

export const CreditParams = Type.Object({ id: Type.String(), lineId: Type.String() }, { additionalProperties: false });

export const RetainerListQuery = Type.Object(
  {
    client_id: Type.Optional(Type.String()),
    archived: Type.Optional(Type.Boolean({ description: 'true: only archived; false: only active; omitted: both.' })),
  },
  { additionalProperties: false },
);

export const RetainerSchema = Type.Object(
  {
    id: Type.String(),
    client: Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }),
    name: Type.String(),
    description: Nullable(Type.String()),
    currency: Type.String(),
    balance: Money('Funds of paid retainer invoices minus credits on invoices that are not voided; never below 0.'),
    pending: Money('Funding on retainer invoices not yet paid (draft or open).'),
    archived_at: Timestamp,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const EntrySchema = Type.Object(
  {
    id: Type.String({ description: 'The invoice line.' }),
    kind: Enum(['funding', 'credit'] as const),
    description: Nullable(Type.String()),
    amount: Money('Positive; a credit draws it.'),
    counts: Type.Boolean({ description: 'Whether it is in the balance now: funding once paid, a credit unless its invoice is voided.' }),
    pending: Type.Boolean({ description: 'Funding whose invoice is not paid yet (draft or open).' }),
    invoice: Type.Object(
      { id: Type.String(), number: Type.String(), state: Enum(INVOICE_STATES), issue_date: Type.String({ format: 'date' }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const RetainerDetailSchema = Type.Object({ ...RetainerSchema.properties, entries: Type.Array(EntrySchema) }, { additionalProperties: false });

export const RetainerListSchema = Type.Object({ retainers: Type.Array(RetainerSchema) }, { additionalProperties: false });

export const FundedSchema = Type.Object(
  { retainer: RetainerDetailSchema, invoice: Type.Object({ id: Type.String(), number: Type.String() }, { additionalProperties: false }) },
  { additionalProperties: false },
);

export const CreditedSchema = Type.Object(
  { retainer: RetainerDetailSchema, invoice_id: Type.String(), line_id: Type.String() },
  { additionalProperties: false },
);

/** What an invoice page needs: the credits on it, and the retainers it may draw on now. */
export const InvoiceRetainersSchema = Type.Object(
  {
    credits: Type.Array(
      Type.Object({ line_id: Type.String(), retainer_id: Type.String(), name: Type.String(), amount: Type.Number() }, { additionalProperties: false }),
    ),
    available: Type.Array(RetainerSchema, { description: "Active retainers of the invoice's client and currency with a balance above 0; empty unless the invoice is a draft." }),
    printed: Type.Object(
      {
        subtotal: Type.Number({ description: 'The lines other than credits drawing on a retainer (the API subtotal sums every line).' }),
        retainer_credit: Type.Number({ description: 'The credits drawing on a retainer, positive; 0: none.' }),
      },
      { additionalProperties: false, description: 'The totals as the PDF prints them: this subtotal, the discount and taxes, then the retainer credit.' },
    ),
  },
  { additionalProperties: false },
);

export type RetainerCreateInput = Static<typeof RetainerCreateBody>;
export type RetainerPatchInput = Static<typeof RetainerPatchBody>;
export type FundInput = Static<typeof FundBody>;
export type CreditInput = Static<typeof CreditBody>;
