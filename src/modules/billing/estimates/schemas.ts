import { Type, type Static } from '@sinclair/typebox';
import { Enum, Nullable } from '../../../http/schemas.ts';
import { IsoDate, LineItemCreate, NOTES_MAX, NUMBER_MAX, RecipientSchema, SUBJECT_MAX, TotalsProperties } from '../invoices/index.ts';
import { ESTIMATE_STATES } from './rules.ts';

/** The estimate's schemas (web routes only; the API has no estimates). */

/** An estimate's line: an invoice's explicit line without `effect` (estimates have no credit lines). */
const { effect: _effect, ...lineProperties } = LineItemCreate.properties;
export const EstimateLineInput = Type.Object(lineProperties, { additionalProperties: false });

const Percent = (what: string) => Type.Number({ description: `${what}: a percentage from 0 to 100, at most 4 decimal places.` });

const fields = {
  number: Type.Optional(Type.String({ maxLength: NUMBER_MAX, description: "Unique among the workspace's estimates; default: the next free integer." })),
  subject: Type.Optional(Nullable(Type.String({ maxLength: SUBJECT_MAX }))),
  issue_date: Type.Optional(IsoDate('Default: today in the workspace time zone.')),
  valid_until: Type.Optional(
    Nullable(Type.String({ format: 'date', description: 'The last day the client can accept it on its page (not before issue_date); null: no limit.' })),
  ),
  tax: Type.Optional(Percent('First tax')),
  tax2: Type.Optional(Percent('Second tax')),
  discount: Type.Optional(Percent('Discount')),
  notes: Type.Optional(Nullable(Type.String({ maxLength: NOTES_MAX }))),
};
const Lines = Type.Array(EstimateLineInput, { minItems: 1, maxItems: 1000, description: 'All the lines; a change replaces them.' });

export const EstimateCreateBody = Type.Object(
  {
    client_id: Type.String({ description: 'An active client the caller can see (404 otherwise; archived: 400).' }),
    currency: Type.Optional(Type.String({ description: "ISO 4217; default: the client's currency, else the workspace's." })),
    ...fields,
    line_items: Lines,
  },
  { additionalProperties: false },
);

export const EstimatePatchBody = Type.Object({ ...fields, line_items: Type.Optional(Lines) }, { additionalProperties: false });

export const EstimateMessageBody = Type.Object(
  {
    recipients: Type.Array(RecipientSchema, { description: 'At least one.' }),
    cc_recipients: Type.Optional(Type.Array(RecipientSchema)),
    subject: Type.Optional(Nullable(Type.String({ maxLength: 998 }))),
    body: Type.Optional(Nullable(Type.String({ maxLength: 20_000 }))),
    attach_pdf: Type.Optional(Type.Boolean({ description: 'Default true.' })),
    send_me_a_copy: Type.Optional(Type.Boolean({ description: 'A blind copy to the sender.' })),
  },
  { additionalProperties: false },
);

const Named = Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false });
const Timestamp = Nullable(Type.String({ format: 'date-time' }));

const LineSchema = Type.Object(
  {
    id: Type.String(),
    kind: Type.String(),
    description: Nullable(Type.String()),
    quantity: Type.Number(),
    unit_price: Type.Number(),
    amount: Type.Number(),
    taxed: Type.Boolean(),
    taxed2: Type.Boolean(),
    project_id: Nullable(Type.String()),
    sort_order: Type.Integer(),
  },
  { additionalProperties: false },
);

export const EstimateSchema = Type.Object(
  {
    id: Type.String(),
    client: Named,
    number: Type.String(),
    state: Enum(ESTIMATE_STATES),
    subject: Nullable(Type.String()),
    issue_date: Type.String({ format: 'date' }),
    valid_until: Nullable(Type.String({ format: 'date' })),
    currency: Type.String(),
    ...TotalsProperties,
    notes: Nullable(Type.String()),
    sent_at: Timestamp,
    accepted_at: Timestamp,
    declined_at: Timestamp,
    answered_by_client: Nullable(Type.Boolean({ description: 'true: the client answered; false: a user recorded the answer.' })),
    decline_reason: Nullable(Type.String({ description: 'Why the client declined, as typed on its page; null: none given.' })),
    invoice: Nullable(Type.Object({ id: Type.String(), number: Type.String() }, { additionalProperties: false })),
    creator: Nullable(Named),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    line_items: Type.Array(LineSchema),
  },
  { additionalProperties: false },
);

export const EstimateListSchema = Type.Object({ estimates: Type.Array(EstimateSchema) }, { additionalProperties: false });

export type EstimateCreateInput = Static<typeof EstimateCreateBody>;
export type EstimatePatchInput = Static<typeof EstimatePatchBody>;
export type EstimateMessageInput = Static<typeof EstimateMessageBody>;
export type EstimateLine = Static<typeof EstimateLineInput>;

/** The estimate page's view of its client links (never a token: none is stored). */
export const EstimateLinksSchema = Type.Object(
  {
    active_links: Type.Integer({ description: 'Links that work now (each send makes one).' }),
    newest_link_at: Timestamp,
    last_viewed_at: Nullable(Type.String({ format: 'date-time', description: 'When the client last opened one of the links (also revoked ones).' })),
  },
  { additionalProperties: false },
);
