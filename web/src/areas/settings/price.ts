import type { Format } from '../../ui/format.ts';

/** A unit price as stored: up to six decimals (a per-token price), at least two, in the person's number style. */
export function priceText(format: Format, price: number): string {
  const text = format.number(price, 6);
  const decimals = (String(price).split('.')[1] ?? '').length;
  if (decimals >= 2) return text;
  // The decimal separator of the person's language, from a number that has one.
  const separator = format.number(0.5, 1).charAt(1);
  return decimals === 1 ? `${text}0` : `${text}${separator}00`;
}
