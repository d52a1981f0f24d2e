/**
 * Which rows a report's chart draws when there are more than it can hold: the largest
 * by `rankBy` (hours, in every report chart), largest first, ties by name; the table
 * beside it lists every row in its own order. Only ordering: no values are added up
 * (a chart of money would otherwise mix currencies in an "Other" bar).
 */
export function largestRows<T extends Record<string, string | number | null>>(rows: readonly T[], rankBy: string, limit: number): T[] {
  const value = (row: T) => {
    const v = row[rankBy];
    return typeof v === 'number' ? v : Number(v ?? 0) || 0;
  };
  return [...rows]
    .sort((a, b) => value(b) - value(a) || String(a.name ?? '').localeCompare(String(b.name ?? '')))
    .slice(0, limit);
}
