/**
 * Amounts as people read them (WEB-STYLE 3): Intl.NumberFormat in the expense's own
 * currency, so JPY shows no decimals and EUR two. The API's amounts are decimal
 * numbers; this only formats them, it never adds amounts (different currencies
 * must never be summed, and totals come from the server).
 */
const formats = new Map<string, Intl.NumberFormat>();

export function formatMoney(amount: number, currency: string, locale?: string): string {
  const key = `${locale ?? ''}|${currency}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    formats.set(key, format);
  }
  return format.format(amount);
}

/** A unit price keeps every digit the category has (a per-token price of 0.000015), with at least the currency's. */
export function formatUnitPrice(price: number, currency: string, locale?: string): string {
  const digits = Math.min(20, (String(price).split('.')[1] ?? '').length);
  const min = new Intl.NumberFormat(locale, { style: 'currency', currency }).resolvedOptions().minimumFractionDigits ?? 2;
  return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: Math.max(min, digits), maximumFractionDigits: Math.max(min, digits) }).format(price);
}
