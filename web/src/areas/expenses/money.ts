import type { Format } from '../../ui/format.ts';

/**
 * A unit price keeps every digit the category has (a per-token price of 0.000015), with at
 * least the currency's. Format.money shows the currency's digits only, so a price with more
 * is written as the person's locale writes the currency (its symbol and where it goes, from
 * `money(1)`) around the number with all its digits (from `number`).
 */
export function unitPrice(format: Format, price: number, currency: string): string {
  const digits = Math.min(20, (String(price).split('.')[1] ?? '').length);
  const one = format.money(1, currency);
  const currencyDigits = /\d([^\d\s\u00a0\u202f]+)(\d+)/.exec(one)?.[2]?.length ?? 0;
  if (digits <= currencyDigits) return format.money(price, currency);
  const number = format.number(price, digits);
  return one.replace(/\d(?:[^\d\s\u00a0\u202f]+\d+)?/, number);
}
