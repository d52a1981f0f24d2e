import type { ApiAnswer, ApiCaller, ApiMethod, QueryValue } from './api-caller.ts';
import type { WeekStartDay } from './rules.ts';

/**
 * What the tools share on top of the API caller: a refusal as an error that keeps the
 * API's answer, the caller's own id and workspace calendar, and reading every page of a list.
 */

/** The API answered 4xx or 5xx: the tool's result is an MCP error carrying the API's message. */
export class ApiRefusal extends Error {
  constructor(readonly answer: ApiAnswer) {
    super(refusalText(answer));
  }
}

/** A refusal the MCP server itself makes (nothing to call the API with). */
export class ToolRefusal extends Error {}

const STANDARD = new Set(['error', 'error_description', 'message', 'field']);

/** `HTTP 400 invalid_request: hours must be … (field: hours)`, plus the error's other details (e.g. running_entry). */
export function refusalText({ status, body }: ApiAnswer): string {
  if (!body || typeof body !== 'object') {
    return `HTTP ${status}: ${typeof body === 'string' && body ? body.slice(0, 500) : 'no error body'} (not an answer of Sheaf's API: check SHEAF_URL).`;
  }
  const b = body as Record<string, unknown>;
  const lines = [`HTTP ${status} ${String(b.error ?? 'error')}: ${String(b.message ?? b.error_description ?? '')}${typeof b.field === 'string' ? ` (field: ${b.field})` : ''}`];
  const extras = Object.fromEntries(Object.entries(b).filter(([k]) => !STANDARD.has(k)));
  if (Object.keys(extras).length) lines.push(`Details: ${JSON.stringify(extras)}`);
  return lines.join('\n');
}

/** Calls the API and returns the body of a 2xx answer; anything else throws ApiRefusal. */
export async function ok<T = any>(api: ApiCaller, method: ApiMethod, path: string, options?: { query?: Record<string, QueryValue>; body?: unknown }): Promise<T> {
  const answer = await api.call(method, path, options);
  if (answer.status >= 400) throw new ApiRefusal(answer);
  return answer.body as T;
}

/** The caller's own user id (GET /users/me). */
export async function myUserId(api: ApiCaller): Promise<string> {
  return (await ok<{ id: string }>(api, 'GET', '/users/me')).id;
}

/**
 * The workspace's time zone and first day of the week (GET /company), in which the
 * server dates entries and counts weeks. A key that may not read them (403) or a server
 * without the route (404) gets undefined: this process's zone and Monday weeks.
 */
export async function workspaceCalendar(api: ApiCaller): Promise<{ timeZone?: string; weekStart?: WeekStartDay }> {
  const answer = await api.call('GET', '/company');
  if (answer.status === 403 || answer.status === 404) return {};
  if (answer.status >= 400) throw new ApiRefusal(answer);
  const company = answer.body as { timezone: string; week_start_day: string };
  return { timeZone: company.timezone, weekStart: company.week_start_day.toLowerCase() as WeekStartDay };
}

/** At most this many pages of 2,000 records are read for one answer (a week, the projects resource). */
const MAX_PAGES = 25;

/** Every record of a list (`key` names its array), following total_pages. */
export async function allPages<T>(api: ApiCaller, path: string, key: string, query: Record<string, QueryValue> = {}): Promise<T[]> {
  const records: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const body = await ok<Record<string, unknown> & { total_pages: number }>(api, 'GET', path, { query: { ...query, page, per_page: 2000 } });
    records.push(...(body[key] as T[]));
    if (page >= body.total_pages) break;
  }
  return records;
}

/** A boolean argument as the API's query strings take it. */
export const flag = (value: boolean | undefined) => (value === undefined ? undefined : String(value));
