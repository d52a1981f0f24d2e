/**
 * The URL parameters the planner's row filters own (filters.ts), apart from the filters
 * themselves: the route (routes.tsx, in the first load) needs only these names to skip its
 * loader when nothing but a filter changed.
 */
export const FILTER_PARAMS = ['search', 'project', 'show', 'over'] as const;

/** Whether only filter parameters differ between two URLs' queries (the schedule need not be loaded again). */
export function onlyFiltersChanged(a: URLSearchParams, b: URLSearchParams): boolean {
  const rest = (p: URLSearchParams) => {
    const copy = new URLSearchParams(p);
    for (const name of FILTER_PARAMS) copy.delete(name);
    copy.sort();
    return copy.toString();
  };
  return rest(a) === rest(b);
}
