export { formatMoney } from '../../ui/money.ts';

/** A unit price keeps every digit the category has (a per-token price of 0.000015), with at least the currency's. */
export function formatUnitPrice(price: number, currency: string, locale?: string): string {
  const digits = Math.min(20, (String(price).split('.')[1] ?? '').length);
  const min = new Intl.NumberFormat(locale, { style: 'currency', currency }).resolvedOptions().minimumFractionDigits ?? 2;
  return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: Math.max(min, digits), maximumFractionDigits: Math.max(min, digits) }).format(price);
}
