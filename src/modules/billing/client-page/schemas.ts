import { Type, type Static } from '@sinclair/typebox';
import { Enum, Nullable } from '../../../http/schemas.ts';
import { E_INVOICE_ATTACHMENTS, TotalsProperties } from '../invoices/index.ts';

/** The public routes' body: the token from the page URL's fragment (never in a URL the server sees). */
export const TokenBody = Type.Object({ token: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

const DateOrNull = Nullable(Type.String({ format: 'date' }));

/**
 * What a client link shows: the invoice as printed (seller, client, lines, totals),
 * its payments and the amount due; no ids, no people of the workspace, nothing else.
 */
export const ClientInvoiceSchema = Type.Object(
  {
    kind: Type.Literal('invoice'),
    language: Enum(['en', 'de'], "The client's language: the page is shown in it."),
    seller: Type.Object(
      {
        name: Type.String(),
        address: Nullable(Type.String()),
        email: Nullable(Type.String()),
        phone: Nullable(Type.String()),
        tax_id: Nullable(Type.String()),
        vat_id: Nullable(Type.String({ description: "The seller's VAT ID (USt-IdNr.) as the PDF prints it; null: none." })),
      },
      { additionalProperties: false },
    ),
    client: Type.Object(
      { name: Type.String(), address: Nullable(Type.String()), vat_id: Nullable(Type.String({ description: "The client's VAT ID as the PDF prints it; null: none." })) },
      { additionalProperties: false },
    ),
    invoice: Type.Object(
      {
        number: Type.String(),
        state: Enum(['open', 'paid', 'closed', 'voided']),
        subject: Nullable(Type.String()),
        purchase_order: Nullable(Type.String()),
        issue_date: Type.String({ format: 'date' }),
        due_date: Type.String({ format: 'date' }),
        currency: Type.String(),
        period_start: DateOrNull,
        period_end: DateOrNull,
        service_period_start: DateOrNull,
        service_period_end: DateOrNull,
        notes: Nullable(Type.String()),
        line_items: Type.Array(
          Type.Object(
            {
              kind: Type.String(),
              description: Nullable(Type.String()),
              quantity: Type.Number(),
              unit_price: Type.Number(),
              amount: Type.Number(),
              effect: Enum(['charge', 'credit']),
            },
            { additionalProperties: false },
          ),
        ),
        ...TotalsProperties,
        subtotal: Type.Number({ description: 'The lines other than credits drawing on a retainer, as the PDF prints it (the API sums every line).' }),
        retainer_credit: Type.Number({ description: 'Credits drawing on a retainer (positive; 0: none), after the taxes, as the PDF prints them.' }),
        paid_amount: Type.Number(),
        due_amount: Type.Number(),
      },
      { additionalProperties: false },
    ),
    payments: Type.Array(Type.Object({ paid_date: Type.String({ format: 'date' }), amount: Type.Number() }, { additionalProperties: false })),
    e_invoices: Type.Array(Enum(E_INVOICE_ATTACHMENTS), {
      description: 'The e-invoices this invoice can be downloaded as (those whose required data the workspace and the client hold); empty: none.',
    }),
  },
  { additionalProperties: false },
);
export type ClientInvoice = Static<typeof ClientInvoiceSchema>;

/** POST /web/api/client-page/e-invoice: the token and which e-invoice. */
export const EInvoiceBody = Type.Object(
  { token: TokenBody.properties.token, format: Enum(E_INVOICE_ATTACHMENTS, 'One of the page\u2019s `e_invoices`.') },
  { additionalProperties: false },
);

/**
 * What a client link to an estimate shows: the estimate as printed (seller, client,
 * lines, totals, validity), its state and answer, and whether the client may answer
 * now; no ids, no people of the workspace, not the invoice it became, nothing else.
 */
export const ClientEstimateSchema = Type.Object(
  {
    kind: Type.Literal('estimate'),
    language: Enum(['en', 'de'], "The client's language: the page is shown in it."),
    seller: ClientInvoiceSchema.properties.seller,
    client: ClientInvoiceSchema.properties.client,
    estimate: Type.Object(
      {
        number: Type.String(),
        state: Enum(['sent', 'accepted', 'declined']),
        subject: Nullable(Type.String()),
        issue_date: Type.String({ format: 'date' }),
        valid_until: DateOrNull,
        expired: Type.Boolean({ description: 'valid_until has passed (in the workspace time zone): it can no longer be accepted.' }),
        can_answer: Type.Boolean({ description: 'Sent and waiting: the page offers Accept (unless expired) and Decline.' }),
        version: Type.String({ description: 'The estimate as the page shows it: an accept names it, and is refused (409) when the estimate changed since.' }),
        currency: Type.String(),
        notes: Nullable(Type.String()),
        line_items: Type.Array(
          Type.Object(
            { kind: Type.String(), description: Nullable(Type.String()), quantity: Type.Number(), unit_price: Type.Number(), amount: Type.Number() },
            { additionalProperties: false },
          ),
        ),
        ...TotalsProperties,
        accepted_at: Nullable(Type.String({ format: 'date-time' })),
        declined_at: Nullable(Type.String({ format: 'date-time' })),
        decline_reason: Nullable(Type.String()),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type ClientEstimate = Static<typeof ClientEstimateSchema>;

/** What the page shows: an invoice or an estimate, told apart by `kind`. */
export const ClientPageSchema = Type.Union([ClientInvoiceSchema, ClientEstimateSchema]);

/** The client's acceptance: the token, and the version of the estimate the page showed. */
export const AcceptBody = Type.Object(
  { token: TokenBody.properties.token, version: Type.String({ maxLength: 64, description: "The page's estimate.version." }) },
  { additionalProperties: false },
);

/** The client's decline: the token, and why if it wants to say. */
export const DeclineBody = Type.Object(
  { token: TokenBody.properties.token, reason: Type.Optional(Nullable(Type.String({ maxLength: 2000, description: 'Optional; at most 2,000 characters.' }))) },
  { additionalProperties: false },
);

/** The invoice page's view of its links: how many work, the newest, the last visit (never a token: none is stored). */
export const LinkSummarySchema = Type.Object(
  {
    active_links: Type.Integer({ description: 'Links that work now (each e-mail carries its own; one made here counts too).' }),
    newest_link_at: Nullable(Type.String({ format: 'date-time' })),
    last_viewed_at: Nullable(Type.String({ format: 'date-time', description: 'When the client last opened one of the links (also revoked ones).' })),
  },
  { additionalProperties: false },
);

export const MadeLinkSchema = Type.Object(
  { ...LinkSummarySchema.properties, url: Type.String({ description: 'The new link: shown this once, it is not stored.' }) },
  { additionalProperties: false },
);
