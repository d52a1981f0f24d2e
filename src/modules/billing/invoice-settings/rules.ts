import type { Updateable } from 'kysely';
import type { InvoiceSettings, PaymentTerms } from '../../../db/types.ts';
import { badRequest } from '../../../errors.ts';
import { hasYear, NEXT_NUMBER_MAX, numberFormatProblem } from './number-format.ts';
import type { InvoiceSettingsPatch } from './schemas.ts';
import { countryCodeValue } from '../../../i18n/countries.ts';

/**
 * The rules of a workspace's invoice settings: which properties may be written,
 * their limits, and the defaults of a workspace that never saved them (the
 * behaviour from before the settings existed). Pure; the service applies them.
 */

export const LEGAL_NAME_MAX = 255;
export const VAT_ID_MAX = 50;
export const REGISTRATION_NUMBER_MAX = 100;
export const DEFAULT_NOTES_MAX = 10_000;
export const FOOTER_MAX = 2000;
export const PAYMENT_DAYS_MAX = 365;
/** The seller's parts of an e-invoice (0087): one-line texts and their limits. */
export const E_INVOICE_TEXTS = { street: 255, postal_code: 20, city: 100, contact_name: 255, vat_exemption_reason: 255 } as const;
export const PAYMENT_TERMS = ['upon_receipt', 'net_15', 'net_30', 'net_45', 'net_60', 'custom'] as const satisfies readonly PaymentTerms[];

/** The stored settings (a row of invoice_settings without its keys). */
export interface InvoiceSettingsState {
  legal_name: string | null;
  vat_id: string | null;
  registration_number: string | null;
  logo_file_id: string | null;
  default_payment_term: PaymentTerms | null;
  default_payment_days: number | null;
  default_notes: string | null;
  footer: string | null;
  number_format: string | null;
  next_number: number;
  yearly_reset: boolean;
  number_year: number | null;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  country_code: string | null;
  contact_name: string | null;
  /** Why lines without tax are exempt (BT-120). */
  vat_exemption_reason: string | null;
}

/** A workspace without a row: the workspace's name on the PDF, all-digit numbers, no default texts. */
export const DEFAULT_SETTINGS: InvoiceSettingsState = {
  legal_name: null,
  vat_id: null,
  registration_number: null,
  logo_file_id: null,
  default_payment_term: null,
  default_payment_days: null,
  default_notes: null,
  footer: null,
  number_format: null,
  next_number: 1,
  yearly_reset: false,
  number_year: null,
  street: null,
  postal_code: null,
  city: null,
  country_code: null,
  contact_name: null,
  vat_exemption_reason: null,
};

/**
 * The name the business signs with: the legal name of the invoice settings when it is set, else
 * the workspace's name. What the client reads as the sender, alike on the invoice and estimate
 * PDFs and in their e-mails' subjects and signatures.
 */
export function businessName(settings: Pick<InvoiceSettingsState, 'legal_name'>, workspaceName: string): string {
  return settings.legal_name ?? workspaceName;
}

/** A short text setting: null or blank clears it; otherwise at most `max` characters, no NUL. */
function optionalText(field: string, value: unknown, max: number, { trim }: { trim: boolean }): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string or null.`, { field });
  if (value.includes('\u0000')) throw badRequest(`${field} must not contain NUL characters.`, { field });
  const text = trim ? value.trim() : value;
  if (!text.trim()) return null;
  if (text.length > max) throw badRequest(`${field} must be at most ${max} characters.`, { field });
  return text;
}

/**
 * Applies a change to the current settings and returns the columns that change.
 * Throws a 400 naming the field: too long, a bad number format, a next number out
 * of range, a yearly reset without {YYYY} in the format, or the payment-term rule
 * of clients (`custom` requires `default_payment_days`, any other term rejects them).
 */
export function applySettings(current: InvoiceSettingsState, input: InvoiceSettingsPatch): Updateable<InvoiceSettings> {
  const next: InvoiceSettingsState = { ...current };
  const singleLine = { trim: true };
  if (input.legal_name !== undefined) next.legal_name = optionalText('legal_name', input.legal_name, LEGAL_NAME_MAX, singleLine);
  if (input.vat_id !== undefined) next.vat_id = optionalText('vat_id', input.vat_id, VAT_ID_MAX, singleLine);
  if (input.registration_number !== undefined) {
    next.registration_number = optionalText('registration_number', input.registration_number, REGISTRATION_NUMBER_MAX, singleLine);
  }
  for (const [field, max] of Object.entries(E_INVOICE_TEXTS) as Array<[keyof typeof E_INVOICE_TEXTS, number]>) {
    if (input[field] !== undefined) next[field] = optionalText(field, input[field], max, singleLine);
  }
  if (input.country_code !== undefined) next.country_code = countryCodeValue('country_code', input.country_code);
  if (input.default_notes !== undefined) next.default_notes = optionalText('default_notes', input.default_notes, DEFAULT_NOTES_MAX, { trim: false });
  if (input.footer !== undefined) next.footer = optionalText('footer', input.footer, FOOTER_MAX, { trim: false });

  if (input.default_payment_term !== undefined) {
    const term = input.default_payment_term;
    if (term !== null && !PAYMENT_TERMS.includes(term)) {
      throw badRequest(`default_payment_term must be one of ${PAYMENT_TERMS.join(', ')}, or null.`, { field: 'default_payment_term' });
    }
    next.default_payment_term = term;
    if (term !== 'custom') next.default_payment_days = null;
  }
  if (input.default_payment_days !== undefined) {
    const days = input.default_payment_days;
    if (days !== null && next.default_payment_term !== 'custom') {
      throw badRequest("default_payment_days applies only to the 'custom' payment term.", { field: 'default_payment_days' });
    }
    if (days !== null && (!Number.isInteger(days) || days < 0 || days > PAYMENT_DAYS_MAX)) {
      throw badRequest(`default_payment_days must be a whole number from 0 to ${PAYMENT_DAYS_MAX}.`, { field: 'default_payment_days' });
    }
    next.default_payment_days = days;
  }
  if (next.default_payment_term === 'custom' && next.default_payment_days === null) {
    throw badRequest("The 'custom' payment term requires default_payment_days (0 to 365).", { field: 'default_payment_days' });
  }

  if (input.number_format !== undefined) {
    if (input.number_format === null || (typeof input.number_format === 'string' && input.number_format.trim() === '')) {
      next.number_format = null;
      // Without a format there is no year in the numbers to restart.
      if (input.yearly_reset === undefined) next.yearly_reset = false;
    } else {
      const problem = typeof input.number_format === 'string' ? numberFormatProblem(input.number_format) : 'must be a string or null';
      if (problem) throw badRequest(`number_format ${problem}.`, { field: 'number_format' });
      next.number_format = input.number_format;
    }
  }
  if (input.next_number !== undefined) {
    const n = input.next_number;
    if (!Number.isInteger(n) || n < 1 || n > NEXT_NUMBER_MAX) {
      throw badRequest(`next_number must be a whole number from 1 to ${NEXT_NUMBER_MAX}.`, { field: 'next_number' });
    }
    next.next_number = n;
    // A number set by hand is the next one whatever year it is: the yearly reset counts from the next invoice's year.
    next.number_year = null;
  }
  if (input.yearly_reset !== undefined) next.yearly_reset = input.yearly_reset;
  if (next.yearly_reset && (next.number_format === null || !hasYear(next.number_format))) {
    throw badRequest('yearly_reset needs a number_format with {YYYY}, so the numbers of different years differ.', { field: 'yearly_reset' });
  }
  if (next.number_format === null && (input.next_number !== undefined || input.yearly_reset === true)) {
    throw badRequest('next_number and yearly_reset apply to a number_format; without one, invoices get the next all-digit number.', {
      field: input.next_number !== undefined ? 'next_number' : 'yearly_reset',
    });
  }

  const out: Updateable<InvoiceSettings> = {};
  for (const key of Object.keys(next) as Array<keyof InvoiceSettingsState>) {
    if (next[key] !== current[key]) (out as Record<string, unknown>)[key] = next[key];
  }
  return out;
}
