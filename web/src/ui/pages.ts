/**
 * A list shown a page at a time in the browser, where its answer is small but drawing all of it
 * is not (the approver's weeks, a report's rows): the rows of a page (the last page when `page`
 * is past it) and how many pages there are. ui/Pager.tsx draws the pager.
 */
export function pageOfRows<T>(rows: readonly T[], page: number, size: number): { shown: readonly T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(Math.max(1, page), pages);
  return { shown: rows.slice((current - 1) * size, current * size), page: current, pages };
}
