/**
 * Money facts shared by every area that stores or shows an amount (expenses,
 * invoices, reports, the CLI). Amounts themselves are decimal.js values or
 * decimal strings, never binary floats.
 */

/** Digits after the decimal point of a currency (JPY 0, EUR 2, BHD 3). */
export function minorUnitDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}
