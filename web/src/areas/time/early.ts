/**
 * The week, day and calendar pages' data by their address, for the requests a cold load
 * sends before the app's code has run (web/src/early.ts, api/early.ts). The URL is the
 * one sheetQuery (api.ts) asks for with the route loader's parameters (routes.tsx), so the
 * client takes the answer instead of asking again; early.test.ts holds the two together.
 * No imports: this runs before the app's code is loaded.
 */
const PARAM: Record<string, 'start' | 'date'> = { '/time/week': 'start', '/time/calendar': 'start', '/time/day': 'date' };

export function timePageCalls(pathname: string, search: string): string[] {
  const param = PARAM[pathname.replace(/\/$/, '')];
  if (!param) return [];
  const params = new URLSearchParams(search);
  const date = params.get(param);
  const user = params.get('user');
  const query = [date ? `date=${encodeURIComponent(date)}` : '', user ? `user_id=${encodeURIComponent(user)}` : ''].filter(Boolean).join('&');
  return [`/web/api/timesheet${query ? `?${query}` : ''}`];
}
