import { DateTime } from 'luxon';
import type { WeekStart } from '../../../db/types.ts';
import { addDays, weekEndOf, weekStartOf } from '../../../time/calendar-days.ts';

/**
 * Saved reports' pure rules: which definitions a report takes, a relative period
 * resolved against a day, and when a schedule sends next. Days are calendar dates
 * (`YYYY-MM-DD`) in the workspace's time zone; the caller works out "today".
 */

export const REPORTS = ['time', 'team', 'project_budget', 'uninvoiced', 'planned_vs_tracked'] as const;
export type ReportKind = (typeof REPORTS)[number];

/** The named periods, as the web app's period picker names them (web/src/areas/reports/period.ts), and fixed dates. */
export const PERIODS = ['this_week', 'last_week', 'this_month', 'last_month', 'this_quarter', 'last_quarter', 'this_year', 'last_year', 'last_365_days', 'custom'] as const;
export type Period = (typeof PERIODS)[number];

export const SCHEDULES = ['none', 'weekly', 'monthly'] as const;
export type Schedule = (typeof SCHEDULES)[number];

export interface DateRange {
  from: string;
  to: string;
}

/** The reports whose routes refuse a range longer than MAX_REPORT_SPAN_DAYS (reports/service.ts: team and uninvoiced). */
export const spanLimited = (report: ReportKind) => report === 'team' || report === 'uninvoiced';

/** Whether the report runs over a period (every report but the project budget, which is "to date"). */
export const hasPeriod = (report: ReportKind) => report !== 'project_budget';

const day = (date: string) => DateTime.fromISO(date, { zone: 'UTC' });
const iso = (d: DateTime) => d.toISODate()!;
const span = (start: DateTime, unit: 'month' | 'quarter' | 'year'): DateRange => ({ from: iso(start.startOf(unit)), to: iso(start.endOf(unit)) });

/** The week from its first day. */
const weekFrom = (start: string): DateRange => ({ from: start, to: weekEndOf(start) });

/**
 * A named period's dates as seen on `today` (custom: the stored dates). The weeks are the
 * workspace's (`weekStart`), as the timesheet and the weekly schedule count them; Monday
 * unless told (the ISO week).
 */
export function resolvePeriod(period: Exclude<Period, 'custom'>, today: string, weekStart: WeekStart = 'monday'): DateRange {
  const d = day(today);
  switch (period) {
    case 'this_week':
      return weekFrom(weekStartOf(today, weekStart));
    case 'last_week':
      return weekFrom(addDays(weekStartOf(today, weekStart), -7));
    case 'this_month':
      return span(d, 'month');
    case 'last_month':
      return span(d.minus({ months: 1 }), 'month');
    case 'this_quarter':
      return span(d, 'quarter');
    case 'last_quarter':
      return span(d.minus({ quarters: 1 }), 'quarter');
    case 'this_year':
      return span(d, 'year');
    case 'last_year':
      return span(d.minus({ years: 1 }), 'year');
    case 'last_365_days':
      return { from: iso(d.minus({ days: 364 })), to: today };
  }
}

/** The range a definition covers on `today` in a workspace whose weeks start on `weekStart`; null for a report without a period. */
export function rangeOf(def: { period: Period | null; from_date: string | null; to_date: string | null }, today: string, weekStart: WeekStart): DateRange | null {
  if (def.period === null) return null;
  if (def.period === 'custom') return { from: def.from_date!, to: def.to_date! };
  return resolvePeriod(def.period, today, weekStart);
}

/** The first day of the schedule's period (week or month) that contains `date`. */
export function periodStartOf(schedule: Exclude<Schedule, 'none'>, date: string, weekStart: WeekStart): string {
  return schedule === 'weekly' ? weekStartOf(date, weekStart) : iso(day(date).startOf('month'));
}

/**
 * The first day of the next schedule period after `today`: a schedule set (or changed)
 * today sends first when the next week or month begins, never at once, so saving it is
 * not an e-mail, and it sends once per period from then on.
 */
export function nextSendDate(schedule: Exclude<Schedule, 'none'>, today: string, weekStart: WeekStart): string {
  const start = day(periodStartOf(schedule, today, weekStart));
  return iso(schedule === 'weekly' ? start.plus({ days: 7 }) : start.plus({ months: 1 }));
}
