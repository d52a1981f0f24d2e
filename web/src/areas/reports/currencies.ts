/** The currencies that appear in rows' per-currency amounts, by code (one column each): amounts of different currencies are never added. */
export function currenciesOf(rows: Array<{ billable_amounts?: Array<{ currency: string }> }>): string[] {
  return [...new Set(rows.flatMap((r) => (r.billable_amounts ?? []).map((a) => a.currency)))].sort();
}
