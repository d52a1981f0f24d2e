import type { ClientAccess } from './access.ts';
import type { Client, ClientChanges, ClientCreate } from './api.ts';
import type { PaymentTerms } from './terms.ts';

/** The client form's values and the bodies made from them (pure, so the rules have vitest cases). */
const numberOrNull = (n: number) => (Number.isNaN(n) ? null : n);
const text = (s: string) => (s.trim() === '' ? null : s.trim());

export interface Values {
  name: string;
  address: string;
  currency: string;
  payment_terms: PaymentTerms | null;
  payment_days: number;
  tax: number;
  tax2: number;
  discount: number;
  /** The language of the client's invoices and invoice e-mails. */
  language: InvoiceLanguage;
  vat_id: string;
  /** Where the client wants its invoices sent. */
  invoice_email: string;
  /** The e-invoice address parts and reference (EN 16931 BT-50, -53, -52, -55, BT-10). */
  street: string;
  postal_code: string;
  city: string;
  country_code: string | null;
  buyer_reference: string;
  is_active: boolean;
}

export type InvoiceLanguage = 'en' | 'de';
/** The languages a client's invoices can be in (src/i18n on the server); their names are in texts.ts. */
export const INVOICE_LANGUAGES: InvoiceLanguage[] = ['en', 'de'];

export function valuesOf(client?: Client): Values {
  return {
    name: client?.name ?? '',
    address: client?.address ?? '',
    currency: client?.currency ?? '',
    payment_terms: (client?.payment_terms as PaymentTerms | null | undefined) ?? null,
    payment_days: client?.payment_days ?? NaN,
    tax: client?.tax ?? NaN,
    tax2: client?.tax2 ?? NaN,
    discount: client?.discount ?? NaN,
    language: (client?.language as InvoiceLanguage | undefined) ?? 'en',
    vat_id: client?.vat_id ?? '',
    invoice_email: client?.invoice_email ?? '',
    street: client?.street ?? '',
    postal_code: client?.postal_code ?? '',
    city: client?.city ?? '',
    country_code: client?.country_code ?? null,
    buyer_reference: client?.buyer_reference ?? '',
    is_active: client?.is_active ?? true,
  };
}

/** The values as the API takes them: empty text and numbers are null, days only with custom terms. */
function bodyOf(v: Values) {
  return {
    name: v.name,
    address: v.address.trim() === '' ? null : v.address,
    currency: v.currency.trim() === '' ? null : v.currency.trim().toUpperCase(),
    payment_terms: v.payment_terms,
    payment_days: v.payment_terms === 'custom' ? numberOrNull(v.payment_days) : null,
    tax: numberOrNull(v.tax),
    tax2: numberOrNull(v.tax2),
    discount: numberOrNull(v.discount),
    language: v.language,
    vat_id: v.vat_id.trim() === '' ? null : v.vat_id.trim(),
    invoice_email: v.invoice_email.trim() === '' ? null : v.invoice_email.trim(),
    street: text(v.street),
    postal_code: text(v.postal_code),
    city: text(v.city),
    country_code: v.country_code,
    buyer_reference: text(v.buyer_reference),
    is_active: v.is_active,
  };
}

/** Only what changed since the version loaded (a PATCH of unchanged fields would still move updated_at). */
export function changesOf(before: Client, v: Values, access: ClientAccess): ClientChanges {
  const next = bodyOf(v);
  const was = bodyOf(valuesOf(before));
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(next) as (keyof typeof next)[]) {
    if (key === 'is_active' && !access.archives) continue;
    if (next[key] !== was[key]) changes[key] = next[key];
  }
  // Custom days travel with the terms they belong to.
  if (changes.payment_terms === 'custom' && !('payment_days' in changes)) changes.payment_days = next.payment_days;
  if ('payment_terms' in changes && next.payment_terms !== 'custom') delete changes.payment_days;
  return changes as ClientChanges;
}

/** A create body: what was filled in (the API's defaults for the rest). */
export function createOf(v: Values, access: ClientAccess): ClientCreate {
  const body = bodyOf(v);
  const out: Record<string, unknown> = { name: body.name };
  for (const [key, value] of Object.entries(body)) {
    if (key === 'name' || value === null) continue;
    if (key === 'is_active' && (value === true || !access.archives)) continue;
    if (key === 'language' && value === 'en') continue; // the API's default
    out[key] = value;
  }
  return out as ClientCreate;
}

