import { dateIn, machineCalendar, type Calendar, type WeekStart } from './dates.ts';
import { ApiRefusal, type ApiClient } from './http.ts';

/**
 * The calendar the server counts in, read once per command from
 * GET /api/v2/company: the workspace's date in its time zone and the first day
 * of its week. A key that may not read it (a personal sync key: 403) or a
 * server without the route (404) gets this machine's date and ISO weeks, as
 * before the route existed; every other refusal is the command's error.
 */
export async function workspaceCalendar(api: ApiClient, now = new Date()): Promise<Calendar & { fallback?: true }> {
  try {
    const company = await api.get<{ timezone: string; week_start_day: string }>('/api/v2/company');
    return { today: dateIn(company.timezone, now), weekStart: company.week_start_day.toLowerCase() as WeekStart };
  } catch (err) {
    if (err instanceof ApiRefusal && (err.status === 403 || err.status === 404)) return { ...machineCalendar(now), fallback: true };
    throw err;
  }
}

/** What the person is told (on stderr) when the dates are this machine's, not the workspace's. */
export const FALLBACK_NOTE = "sheaf: dates counted in this machine's calendar (today here, weeks from Monday): this key may not read the workspace's.";
