/**
 * The reports' period: from and to (inclusive YYYY-MM-DD) in the URL; without them,
 * this month. Named periods are worked out from today by calendar-date arithmetic on
 * strings (no Date in a zone). Today is the server's clock on the workspace's calendar
 * (its time zone, through the person's Format); this week and last week are the workspace's
 * weeks (its `week_start`, from the session; Monday where not given), as a saved report's
 * are on the server. Their names are in texts.ts (`periods.*`).
 */
import { serverNow } from '../../api/server-clock.ts';
import { addDays, isDate, monthRange, spanDays, weekStartOf, yearRange } from '../../ui/dates.ts';
import type { Format } from '../../ui/format.ts';

export const PERIODS = ['this_week', 'last_week', 'this_month', 'last_month', 'this_quarter', 'last_quarter', 'this_year', 'last_year', 'last_365_days'] as const;
export type Period = (typeof PERIODS)[number];

/** Today as YYYY-MM-DD: the server's clock, in the workspace's time zone (never the browser's). */
export function today(format: Pick<Format, 'dayOf'>, now = serverNow()): string {
  return format.dayOf(now);
}

/** The seven days from a week's first day. */
const weekFrom = (from: string) => ({ from, to: addDays(from, 6) });

export function periodRange(period: Period, day: string, weekStart = 'monday'): { from: string; to: string } {
  const [y, m] = day.split('-').map(Number);
  const q = Math.floor((m - 1) / 3) * 3 + 1;
  switch (period) {
    case 'this_week':
      return weekFrom(weekStartOf(day, weekStart));
    case 'last_week':
      return weekFrom(addDays(weekStartOf(day, weekStart), -7));
    case 'this_month':
      return monthRange(y, m, 1);
    case 'last_month':
      return m === 1 ? monthRange(y - 1, 12, 1) : monthRange(y, m - 1, 1);
    case 'this_quarter':
      return monthRange(y, q, 3);
    case 'last_quarter':
      return q === 1 ? monthRange(y - 1, 10, 3) : monthRange(y, q - 3, 3);
    case 'this_year':
      return yearRange(y);
    case 'last_year':
      return yearRange(y - 1);
    case 'last_365_days':
      return { from: addDays(day, -364), to: day };
  }
}

/** The period of the URL: valid from ≤ to, else this month. */
export function periodOf(params: URLSearchParams, day: string): { from: string; to: string } {
  const from = params.get('from');
  const to = params.get('to');
  if (isDate(from) && isDate(to) && from <= to) return { from, to };
  return periodRange('this_month', day);
}

/** The named period that is exactly from..to, if any (weeks in the workspace's `weekStart`). */
export const presetOf = (range: { from: string; to: string }, day: string, weekStart = 'monday') =>
  PERIODS.find((p) => {
    const r = periodRange(p, day, weekStart);
    return r.from === range.from && r.to === range.to;
  });

/**
 * Whether a range is longer than the team and uninvoiced reports take (the API refuses more than
 * a year: 366 days with a leap day). Their pages say so instead of asking, and their loaders do
 * not prefetch what the API would refuse (a prefetch's 400 showed as a second refusal).
 */
export const beyondReportSpan = (range: { from: string; to: string }) => spanDays(range) > 366;

/**
 * Rows a report's table shows at a time. An agency's two years by project are 2,000 rows and
 * more: all of them at once made pages of 12,000–18,500 elements that took seconds to draw,
 * while the chart shows the largest few and the downloads have every row.
 */
export const TABLE_ROWS = 100;
