/**
 * Amounts as people read them (WEB-STYLE 3): Intl.NumberFormat in the amount's own
 * currency, so JPY shows no decimals and EUR two. The API's amounts are decimal
 * numbers; this only formats them, it never adds amounts (different currencies must
 * never be summed, and totals come from the server). One formatter per locale and
 * currency, made once.
 */
const formats = new Map<string, Intl.NumberFormat>();

export function formatMoney(amount: number, currency: string, locale?: string): string {
  const key = `${locale ?? ''}|${currency}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(locale, { style: 'currency', currency })));
  return format.format(amount);
}
