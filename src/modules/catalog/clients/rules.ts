import { Decimal } from 'decimal.js';
import type { PaymentTerms } from '../../../db/types.ts';
import { changedColumns as changedOf } from '../../../db/rows.ts';
import { badRequest } from '../../../errors.ts';
import { isCurrencyCode, sameDecimal } from '../../../money.ts';
import { countryCodeValue } from '../../../i18n/countries.ts';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '../../../i18n/index.ts';
import type { ClientInput } from './schemas.ts';
import { isEmailAddress } from '../../../email-address.ts';

/**
 * Pure rules for clients: which properties may be written, what values they
 * take, the payment-terms rule and archive/restore. No I/O; the service applies
 * them inside its transaction, so a rule lives here and nowhere else.
 */

export const PAYMENT_TERMS = ['upon_receipt', 'net_15', 'net_30', 'net_45', 'net_60', 'custom'] as const satisfies readonly PaymentTerms[];

export const CLIENT_WRITABLE = [
  'name',
  'address',
  'currency',
  'payment_terms',
  'payment_days',
  'tax',
  'tax2',
  'discount',
  'language',
  'vat_id',
  'invoice_email',
  'street',
  'postal_code',
  'city',
  'country_code',
  'buyer_reference',
  'is_active',
] as const;

/** Response properties a request body may not set (a 400 naming the property). */
export const CLIENT_READ_ONLY = ['id', 'created_at', 'updated_at'] as const;

export const NAME_MAX = 255;
export const ADDRESS_MAX = 2000;
export const PAYMENT_DAYS_MAX = 365;
/** tax, tax2 and discount are stored as NUMERIC(7, 4): at most four decimal places. */
export const PERCENT_DECIMALS = 4;

/** The stored form of a client's writable state (percentages as exact decimal strings). */
export interface ClientState {
  name: string;
  address: string | null;
  currency: string | null;
  payment_terms: PaymentTerms | null;
  payment_days: number | null;
  tax: string | null;
  tax2: string | null;
  discount: string | null;
  /** The language of the client's invoices and their e-mails. */
  language: Language;
  /** Printed on the client's invoices. */
  vat_id: string | null;
  /** Where the client wants its invoices sent. */
  invoice_email: string | null;
  /** The address in parts and the buyer's reference, for e-invoices (0087). */
  street: string | null;
  postal_code: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  country_code: string | null;
  /** BT-10, e.g. a Leitweg-ID. */
  buyer_reference: string | null;
  is_active: boolean;
}

export const EMPTY_CLIENT: Omit<ClientState, 'name'> = {
  address: null,
  currency: null,
  payment_terms: null,
  payment_days: null,
  tax: null,
  tax2: null,
  discount: null,
  language: DEFAULT_LANGUAGE,
  vat_id: null,
  invoice_email: null,
  street: null,
  postal_code: null,
  city: null,
  country_code: null,
  buyer_reference: null,
  is_active: true,
};

/** The e-invoice parts of a client (0087): one-line texts and their limits. */
export const E_INVOICE_TEXTS = { street: 255, postal_code: 20, city: 100, buyer_reference: 100 } as const;

export const VAT_ID_MAX = 50;
export const EMAIL_MAX = 320;

/** A one-line text: trimmed; null or blank clears it. */
function shortText(field: string, value: string | null, max: number): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string or null.`, { field });
  const text = value.trim();
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) throw badRequest(`${field} must not contain control characters.`, { field });
  if (text.length > max) throw badRequest(`${field} must be at most ${max} characters.`, { field });
  return text || null;
}

/** A percentage 0..100 with at most four decimal places, as an exact decimal string (never float arithmetic). */
export function percentage(field: string, value: number | null): string | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest(`${field} must be a number from 0 to 100.`, { field });
  const d = new Decimal(value);
  if (d.isNegative() || d.gt(100)) throw badRequest(`${field} must be a percentage from 0 to 100.`, { field });
  if (d.decimalPlaces() > PERCENT_DECIMALS) {
    throw badRequest(`${field} takes at most ${PERCENT_DECIMALS} decimal places.`, { field });
  }
  return d.toFixed();
}

/**
 * Applies a create or update body to the current state (EMPTY_CLIENT plus a name
 * on create) and returns the complete next state. Throws a 400 naming the field
 * for a blank name, an unknown currency, a bad percentage or a payment-terms
 * violation: `custom` requires `payment_days` (0..365), any other term (or none)
 * rejects them. Changing away from `custom` clears the stored days.
 */
export function applyClientInput(current: ClientState, input: ClientInput): ClientState {
  const next: ClientState = { ...current };
  if (input.name !== undefined) {
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name || name.length > NAME_MAX) throw badRequest(`name must be 1 to ${NAME_MAX} characters, not blank.`, { field: 'name' });
    next.name = name;
  }
  if (input.address !== undefined) {
    if (input.address !== null && (typeof input.address !== 'string' || input.address.length > ADDRESS_MAX)) {
      throw badRequest(`address must be at most ${ADDRESS_MAX} characters.`, { field: 'address' });
    }
    next.address = input.address === null || input.address.trim() === '' ? null : input.address;
  }
  if (input.currency !== undefined) {
    if (input.currency !== null && !isCurrencyCode(input.currency)) {
      throw badRequest('currency must be an ISO 4217 code such as EUR, or null for the workspace currency.', { field: 'currency' });
    }
    next.currency = input.currency;
  }
  for (const field of ['tax', 'tax2', 'discount'] as const) {
    if (input[field] !== undefined) next[field] = percentage(field, input[field]);
  }
  if (input.language !== undefined) {
    if (!isLanguage(input.language)) throw badRequest(`language must be one of ${LANGUAGES.join(', ')}.`, { field: 'language' });
    next.language = input.language;
  }
  if (input.vat_id !== undefined) next.vat_id = shortText('vat_id', input.vat_id, VAT_ID_MAX);
  if (input.invoice_email !== undefined) {
    const email = shortText('invoice_email', input.invoice_email, EMAIL_MAX);
    if (email !== null && !isEmailAddress(email)) throw badRequest('invoice_email must be an e-mail address such as billing@example.com.', { field: 'invoice_email' });
    next.invoice_email = email;
  }
  for (const [field, max] of Object.entries(E_INVOICE_TEXTS) as Array<[keyof typeof E_INVOICE_TEXTS, number]>) {
    if (input[field] !== undefined) next[field] = shortText(field, input[field], max);
  }
  if (input.country_code !== undefined) next.country_code = countryCodeValue('country_code', input.country_code);
  if (input.is_active !== undefined) next.is_active = input.is_active;

  if (input.payment_terms !== undefined) {
    if (input.payment_terms !== null && !PAYMENT_TERMS.includes(input.payment_terms)) {
      throw badRequest(`payment_terms must be one of ${PAYMENT_TERMS.join(', ')}.`, { field: 'payment_terms' });
    }
    next.payment_terms = input.payment_terms;
    if (input.payment_terms !== 'custom') next.payment_days = null;
  }
  if (input.payment_days !== undefined) {
    if (next.payment_terms !== 'custom' && input.payment_days !== null) {
      throw badRequest("payment_days applies only to the 'custom' payment term.", { field: 'payment_days' });
    }
    const days = input.payment_days;
    if (days !== null && (!Number.isInteger(days) || days < 0 || days > PAYMENT_DAYS_MAX)) {
      throw badRequest(`payment_days must be a whole number from 0 to ${PAYMENT_DAYS_MAX}.`, { field: 'payment_days' });
    }
    next.payment_days = days;
  }
  if (next.payment_terms === 'custom' && next.payment_days === null) {
    throw badRequest("The 'custom' payment term requires payment_days (0 to 365).", { field: 'payment_days' });
  }
  return next;
}

/** The columns whose value differs between two states (an unchanged PATCH writes nothing). */
export const changedColumns = (before: ClientState, after: ClientState) =>
  changedOf(before, after, { tax: sameDecimal, tax2: sameDecimal, discount: sameDecimal });

/** What an `is_active` change means: archive, restore, or nothing. */
export function archiveTransition(wasActive: boolean, willBeActive: boolean): 'archive' | 'restore' | null {
  if (wasActive === willBeActive) return null;
  return willBeActive ? 'restore' : 'archive';
}
