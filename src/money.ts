import { Decimal } from 'decimal.js';

/**
 * Money facts shared by every area that stores or shows an amount (expenses,
 * invoices, reports, the CLI). Amounts themselves are decimal.js values or
 * decimal strings, never binary floats.
 */

const minorDigits = new Map<string, number>();

/** Digits after the decimal point of a currency (JPY 0, EUR 2, BHD 3); remembered, since a formatter costs tens of microseconds and exports ask per row. */
export function minorUnitDigits(currency: string): number {
  let digits = minorDigits.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    minorDigits.set(currency, digits);
  }
  return digits;
}

/**
 * The most digits an entry's amount (its rounded hours × its rate) is rounded to: the reports
 * keep amounts in integer cents, so a currency of three or four digits counts entries to the
 * cent, while one of none or one counts them to its minor unit, as invoices do (docs/decisions.md,
 * "Review of 2026-12-07").
 */
export const ENTRY_AMOUNT_MAX_DIGITS = 2;

/** The digits an entry's amount is rounded to in the currency: its minor unit, at most cents. */
export const entryAmountDigits = (currency: string) => Math.min(minorUnitDigits(currency), ENTRY_AMOUNT_MAX_DIGITS);

/**
 * An amount as people read it: at least the currency's minor-unit digits
 * (4812.4 EUR → "4812.40", 1200 JPY → "1200", 1.5 BHD → "1.500"). Digits
 * beyond them (a rate of 12.50 in JPY, a per-token unit price) are kept, never
 * rounded away. Exact: decimal.js all the way (a JS number is read through its
 * shortest text, which is how the presenters made it from a decimal string).
 */
export function formatMoney(amount: Decimal.Value, currency: string): string {
  const d = new Decimal(amount);
  return d.toFixed(Math.max(minorUnitDigits(currency), d.decimalPlaces()));
}

/**
 * A NUMERIC column as the API renders it: the database sends an exact decimal string, the JSON body
 * carries a number (the spec's examples are numbers); null stays null.
 */
export function decimalNumber(value: string): number;
export function decimalNumber(value: string | null): number | null;
export function decimalNumber(value: string | null): number | null {
  return value === null ? null : Number(value);
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 code this runtime knows (the workspace's, a client's, an invoice's currency). */
export function isCurrencyCode(code: unknown): code is string {
  return typeof code === 'string' && /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code);
}

/** Two NUMERIC values (decimal strings) are the same amount: '12.50' is '12.5'; null only equals null. */
export function sameDecimal(a: string | null, b: string | null) {
  if (a === null || b === null) return a === b;
  return new Decimal(a).eq(b);
}
