/**
 * Numbers as people read them: hours with up to two decimals, amounts in their own
 * currency (Intl: JPY without decimals, EUR with two). Nothing here adds amounts:
 * totals come from the server, and currencies are never summed.
 */
const formats = new Map<string, Intl.NumberFormat>();
const formatOf = (key: string, make: () => Intl.NumberFormat) => {
  let format = formats.get(key);
  if (!format) formats.set(key, (format = make()));
  return format;
};

export const formatHours = (hours: number, locale?: string) =>
  formatOf(`h|${locale ?? ''}`, () => new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })).format(hours);

export { formatMoney } from '../../ui/money.ts';

export const formatNumber = (value: number, locale?: string) =>
  formatOf(`n|${locale ?? ''}`, () => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 })).format(value);

const DAY = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
/** A YYYY-MM-DD as people read it; in UTC so no browser zone moves the day. */
export const dateLabel = (date: string) => DAY.format(new Date(`${date}T00:00:00Z`));

/** The currencies that appear in rows' per-currency amounts, by code (one column each). */
export function currenciesOf(rows: Array<{ billable_amounts?: Array<{ currency: string }> }>): string[] {
  return [...new Set(rows.flatMap((r) => (r.billable_amounts ?? []).map((a) => a.currency)))].sort();
}
