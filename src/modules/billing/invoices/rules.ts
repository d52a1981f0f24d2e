import { Decimal } from 'decimal.js';
import { DateTime } from 'luxon';
import type { InvoiceState, PaymentTerms } from '../../../db/types.ts';
import { badRequest, conflict, type ErrorExtras } from '../../../errors.ts';
import { PAYMENT_TERMS } from '../../catalog/clients/index.ts';
import { isCurrencyCode } from '../../../money.ts';
import { translator } from '../../../i18n/index.ts';
import { DEFAULT_KIND, IMPORTED_EXPENSE_KIND, PRODUCT_KIND, RETAINER_KIND, kindLabel } from './kinds.ts';

/**
 * Pure invoice rules (no I/O): field values, payment terms and due dates, date
 * ranges, line defaults. Arithmetic lives in totals.ts; the import's grouping in
 * import.ts. Every failure is a 400 naming the field, but a state's refusal (wrongState, 409).
 */

export const INVOICE_STATES = ['draft', 'open', 'paid', 'closed', 'voided'] as const satisfies readonly InvoiceState[];

/** The 409 of an action the invoice's state does not allow: it names the state, and the rule as `invoice_state`. */
export const wrongState = (message: string, state: InvoiceState, extras?: ErrorExtras) => conflict(message, { ...extras, state, refusal: 'invoice_state' });
export { PAYMENT_TERMS };
export const TIME_SUMMARY_TYPES = ['project', 'task', 'people', 'detailed'] as const;
export const EXPENSE_SUMMARY_TYPES = ['project', 'category', 'people', 'detailed'] as const;
export type TimeSummaryType = (typeof TIME_SUMMARY_TYPES)[number];
export type ExpenseSummaryType = (typeof EXPENSE_SUMMARY_TYPES)[number];
export const LINE_EFFECTS = ['charge', 'credit'] as const;
export type LineEffect = (typeof LINE_EFFECTS)[number];
export const MESSAGE_EVENTS = ['send', 'reminder', 'thank_you'] as const;
export type MessageEvent = (typeof MESSAGE_EVENTS)[number];
/** How a payment was made (the web app's payment dialog and list); optional on a payment. */
export const PAYMENT_METHODS = ['bank_transfer', 'card', 'cash', 'check', 'paypal', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const NUMBER_MAX = 64;
export const SUBJECT_MAX = 1000;
export const PURCHASE_ORDER_MAX = 255;
export const NOTES_MAX = 10_000;
export const KIND_MAX = 64;
export const DESCRIPTION_MAX = 10_000;
/** A typed line's quantity and unit price take four places (unit_price is NUMERIC(14, 4); quantity NUMERIC(18, 6), for imported time's six, 0109). */
export const QUANTITY_DECIMALS = 4;
export const UNIT_PRICE_DECIMALS = 4;
export const MAX_QUANTITY = new Decimal('9999999999.9999');
export const MAX_UNIT_PRICE = new Decimal('9999999999.9999');
export const PERCENT_DECIMALS = 4;
/** The default due date when neither a payment term nor a due date says otherwise. */
export const DEFAULT_DUE_DAYS = 30;
/** Kind of the lines an import generates (the spec shows imported service lines upper-cased), and the default: kinds.ts. */
export { DEFAULT_KIND, IMPORTED_EXPENSE_KIND, IMPORTED_TIME_KIND } from './kinds.ts';

/** A JSON number as an exact decimal (400 naming `field` unless finite, in range and not too precise). */
export function decimalValue(
  field: string,
  value: unknown,
  { decimals, max, hint = '' }: { decimals: number; max: Decimal; hint?: string },
): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest(`${field} must be a number.`, { field });
  let d = new Decimal(value);
  if (d.isZero()) d = new Decimal(0);
  if (d.isNegative()) throw badRequest(`${field} must not be negative.${hint}`, { field });
  if (d.decimalPlaces() > decimals) throw badRequest(`${field} takes at most ${decimals} decimal places.`, { field });
  if (d.gt(max)) throw badRequest(`${field} must be at most ${max.toFixed()}.`, { field });
  return d.toFixed();
}

/** What a negative quantity or unit price is told on an invoice: a credit is a line of its own. */
export const CREDIT_HINT = " Credits are lines with effect 'credit' and positive numbers.";

export const quantityValue = (field: string, value: unknown, hint = CREDIT_HINT) =>
  decimalValue(field, value, { decimals: QUANTITY_DECIMALS, max: MAX_QUANTITY, hint });
export const unitPriceValue = (field: string, value: unknown, hint = CREDIT_HINT) =>
  decimalValue(field, value, { decimals: UNIT_PRICE_DECIMALS, max: MAX_UNIT_PRICE, hint });

/** tax, tax2, discount: a percentage 0..100 with at most four decimal places. */
export function percentValue(field: string, value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest(`${field} must be a number from 0 to 100.`, { field });
  const d = new Decimal(value);
  if (d.isNegative() || d.gt(100)) throw badRequest(`${field} must be a percentage from 0 to 100.`, { field });
  if (d.decimalPlaces() > PERCENT_DECIMALS) throw badRequest(`${field} takes at most ${PERCENT_DECIMALS} decimal places.`, { field });
  return d.toFixed();
}

/** PostgreSQL cannot store the NUL character in text (or jsonb): a 400 naming the field, never a 500. */
export function assertNoNul(field: string, value: string | null | undefined) {
  if (value && value.includes('\u0000')) throw badRequest(`${field} cannot contain the NUL character.`, { field });
}

/** Optional text: trimmed; blank is null; longer than `max` or with a NUL character is a 400. */
export function optionalText(field: string, value: string | null | undefined, max: number): string | null {
  if (value === undefined || value === null) return null;
  assertNoNul(field, value);
  const text = value.trim();
  if (!text) return null;
  if (text.length > max) throw badRequest(`${field} must be at most ${max} characters.`, { field });
  return text;
}

/**
 * Dates an invoice stores or filters on: 0001-01-01 to 9999-12-31. The schemas
 * check the YYYY-MM-DD form and the calendar; PostgreSQL has no year 0, and a
 * computed date past year 9999 no longer has the four-digit form.
 */
export const MIN_DATE = '0001-01-01';
export const MAX_DATE = '9999-12-31';

export function assertDate(field: string, value: string | null | undefined) {
  if (value === undefined || value === null) return;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value < MIN_DATE || value > MAX_DATE) {
    throw badRequest(`${field} must be a date from ${MIN_DATE} to ${MAX_DATE}.`, { field });
  }
}

/** Checks the named date fields of a body (assertDate). */
export function assertDates(body: object, fields: readonly string[], prefix = '') {
  for (const field of fields) assertDate(`${prefix}${field}`, (body as Record<string, string | null | undefined>)[field]);
}

export const INVOICE_DATE_FIELDS = ['issue_date', 'due_date', 'period_start', 'period_end', 'service_period_start', 'service_period_end'] as const;

/** An invoice number: trimmed, 1..64 characters, unique in the workspace (checked by the service). */
export function invoiceNumber(value: string): string {
  const number = value.trim();
  if (!number) throw badRequest('number must not be blank.', { field: 'number' });
  if (number.length > NUMBER_MAX) throw badRequest(`number must be at most ${NUMBER_MAX} characters.`, { field: 'number' });
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(number)) throw badRequest('number must not contain control characters.', { field: 'number' });
  return number;
}

/**
 * The placeholder an invoice carries inside its creating transaction until
 * numbering.ts assigns its number (a control character no real number contains).
 */
export const PENDING_NUMBER_PREFIX = '\u0001';

export function currencyValue(value: string): string {
  if (!isCurrencyCode(value)) throw badRequest('currency must be an ISO 4217 code such as EUR.', { field: 'currency' });
  return value;
}

/** YYYY-MM-DD `days` after a date. */
export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate()!;
}

export function daysBetween(from: string, to: string): number {
  return Math.round(DateTime.fromISO(to, { zone: 'UTC' }).diff(DateTime.fromISO(from, { zone: 'UTC' }), 'days').days);
}

/** Days until due of a non-custom term. */
export function termDays(term: Exclude<PaymentTerms, 'custom'>): number {
  return term === 'upon_receipt' ? 0 : Number(term.slice(4));
}

export interface DueInput {
  issueDate: string;
  paymentTerm?: PaymentTerms;
  dueDate?: string;
}

export interface ClientTerms {
  payment_terms: PaymentTerms | null;
  payment_days: number | null;
}

/**
 * The due date and payment term of a new invoice. The term gives the default due
 * date only (issue 13): an explicit `due_date` is stored as given, with any term.
 * - a `due_date`: kept; the term is the one given, else `custom`;
 * - a non-custom `payment_term` alone: issue + 0/15/30/45/60 days;
 * - `custom` alone: the client's custom days when it has them, else the spec's default of
 *   issue + 30 days (the spec makes due_date optional with that default for any term);
 * - neither: the client's default terms (custom: its payment_days), else issue + 30
 *   days with no term.
 */
export function resolveDue(input: DueInput, client: ClientTerms): { due_date: string; payment_term: PaymentTerms | null } {
  const due = resolveDueUnchecked(input, client);
  assertComputedDue(due.due_date);
  return due;
}

/** A due date computed from a term must still be a date PostgreSQL and the API can hold. */
function assertComputedDue(due: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(due) || due > MAX_DATE) {
    throw badRequest(`The due date would fall after ${MAX_DATE}; choose an earlier issue date or a due date.`, { field: 'due_date' });
  }
}

function resolveDueUnchecked(input: DueInput, client: ClientTerms): { due_date: string; payment_term: PaymentTerms | null } {
  const { issueDate, paymentTerm, dueDate } = input;
  if (paymentTerm === 'custom') {
    const days = client.payment_terms === 'custom' && client.payment_days !== null ? client.payment_days : DEFAULT_DUE_DAYS;
    return { due_date: dueDate ?? addDays(issueDate, days), payment_term: 'custom' };
  }
  if (dueDate) return { due_date: dueDate, payment_term: paymentTerm ?? 'custom' };
  if (paymentTerm) return { due_date: addDays(issueDate, termDays(paymentTerm)), payment_term: paymentTerm };
  if (client.payment_terms === 'custom' && client.payment_days !== null) {
    return { due_date: addDays(issueDate, client.payment_days), payment_term: 'custom' };
  }
  if (client.payment_terms && client.payment_terms !== 'custom') {
    return { due_date: addDays(issueDate, termDays(client.payment_terms)), payment_term: client.payment_terms };
  }
  return { due_date: addDays(issueDate, DEFAULT_DUE_DAYS), payment_term: null };
}

/**
 * The due date after a PATCH of `issue_date` and/or `due_date` (the term itself
 * is not writable): a new `due_date` is stored as given and the term is kept (the
 * term gives the default only, as on create); a new issue date alone moves the
 * due date along a fixed term when the due date is the term's default, and leaves
 * a due date that was set apart from the term where it is.
 */
export function patchDue(
  current: { issue_date: string; due_date: string; payment_term: PaymentTerms | null },
  patch: { issue_date?: string; due_date?: string },
): { due_date: string; payment_term: PaymentTerms | null } {
  const due = patchDueUnchecked(current, patch);
  assertComputedDue(due.due_date);
  return due;
}

function patchDueUnchecked(
  current: { issue_date: string; due_date: string; payment_term: PaymentTerms | null },
  patch: { issue_date?: string; due_date?: string },
): { due_date: string; payment_term: PaymentTerms | null } {
  const term = current.payment_term;
  if (patch.due_date !== undefined) return { due_date: patch.due_date, payment_term: term };
  if (patch.issue_date !== undefined && followsTerm(term, current.issue_date, current.due_date)) {
    return { due_date: addDays(patch.issue_date, termDays(term as Exclude<PaymentTerms, 'custom'>)), payment_term: term };
  }
  return { due_date: current.due_date, payment_term: term };
}

/** Date pairs that must be in order; the field named is `end` (or the one the request changed). */
export function assertRange(start: string | null, end: string | null, startField: string, endField: string, blame?: string) {
  if (start && end && end < start) {
    const field = blame ?? endField;
    throw badRequest(`${endField} must be on or after ${startField}.`, { field });
  }
}

/** Whether the due date is the one a fixed term gives for the issue date (its default). */
export function followsTerm(term: PaymentTerms | null, issueDate: string, dueDate: string): boolean {
  return !!term && term !== 'custom' && addDays(issueDate, termDays(term)) === dueDate;
}

/**
 * A human label of a term for documents ("Net 30", "Due upon receipt", "Due in 12
 * days"): a fixed term's name when the due date is the term's, else the real delay.
 */
export function termLabel(term: PaymentTerms | null, issueDate: string, dueDate: string, language?: string): string {
  const t = translator(language);
  if (term === 'upon_receipt' && followsTerm(term, issueDate, dueDate)) return t('invoice.terms.uponReceipt');
  if (term && followsTerm(term, issueDate, dueDate)) return t('invoice.terms.net', { days: termDays(term as Exclude<PaymentTerms, 'custom'>) });
  const days = daysBetween(issueDate, dueDate);
  return days === 0 ? t('invoice.terms.uponReceipt') : t('invoice.terms.dueIn', { count: days });
}

/** A line's kind as the document prints it: the kinds Sheaf itself writes (and the built-in Product) in the client's language (kinds.ts reads SERVICE as Service), any other as typed. */
export function translatedKind(kind: string, language?: string): string {
  const label = kindLabel(kind);
  const t = translator(language);
  if (label === DEFAULT_KIND) return t('invoice.kinds.service');
  if (label === IMPORTED_EXPENSE_KIND) return t('invoice.kinds.expense');
  if (label === PRODUCT_KIND) return t('invoice.kinds.product');
  if (label === RETAINER_KIND) return t('invoice.kinds.retainer');
  return label;
}

/** A simple e-mail address check (RFC 5322 in full is not the point): one @, no spaces, a dot in the domain. */
export function isEmail(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /^[^\s@<>(),;:"\u0000-\u001f\u007f]+@[^\s@<>(),;:"\u0000-\u001f\u007f]+\.[^\s@<>(),;:"\u0000-\u001f\u007f]+$/.test(value) && value.length <= 320;
}

/** What a PATCH may change: the invoice's own fields and edits of its existing lines. */
export const UPDATABLE_FIELDS = [
  'number',
  'subject',
  'issue_date',
  'due_date',
  'purchase_order',
  'tax',
  'tax2',
  'discount',
  'notes',
  'period_start',
  'period_end',
  'service_period_start',
  'service_period_end',
  'line_items',
] as const;
