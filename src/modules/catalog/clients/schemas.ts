import { Type, type Static } from '@sinclair/typebox';
import type { PaymentTerms } from '../../../db/types.ts';
import { Nullable, createBody, patchBody } from '../../../http/schemas.ts';
import { LANGUAGES } from '../../../i18n/index.ts';
import { PAYMENT_TERMS } from './rules.ts';

export const PaymentTermsSchema = Type.Unsafe<PaymentTerms>({
  type: 'string',
  enum: [...PAYMENT_TERMS],
  description: '`custom` takes `payment_days`; any other term rejects them.',
});
const Percent = (what: string) =>
  Type.Number({ minimum: 0, maximum: 100, description: `${what}, a percentage from 0 to 100 with at most 4 decimal places.` });

/** The writable properties; POST requires `name`, PATCH requires at least one of them. */
export const writable = {
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
  vat_id: Nullable(Type.String({ maxLength: 50, description: "The client's VAT id, printed on its invoices." })),
  invoice_email: Nullable(Type.String({ maxLength: 320, description: 'The address the client wants its invoices sent to.' })),
  street: Nullable(Type.String({ maxLength: 255, description: "The client's street and number on e-invoices (BT-50)." })),
  postal_code: Nullable(Type.String({ maxLength: 20, description: "The client's post code on e-invoices (BT-53)." })),
  city: Nullable(Type.String({ maxLength: 100, description: "The client's city on e-invoices (BT-52)." })),
  country_code: Nullable(Type.String({ maxLength: 2, description: "The client's country, ISO 3166-1 alpha-2 (BT-55); required for e-invoices." })),
  buyer_reference: Nullable(Type.String({ maxLength: 100, description: "The client's reference for its e-invoices, e.g. a Leitweg-ID (BT-10; XRechnung requires it)." })),
  is_active: Type.Boolean({ description: 'false archives, true restores (owners and administrators only).' }),
};

export const ClientCreateBody = createBody(writable, ['name']);

export const ClientPatchBody = patchBody(writable);

/** A create or update body (create requires `name`). */
export type ClientInput = Static<typeof ClientPatchBody>;
