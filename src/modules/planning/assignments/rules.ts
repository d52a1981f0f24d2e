import { Decimal } from 'decimal.js';
import type { Refusal } from '../../../errors.ts';
import type { WeekStart } from '../../../db/types.ts';
import { dayAt, DAY_MS, isoWeekdayAt, msOf, weekStartOf } from '../../../time/calendar-days.ts';

/**
 * Planning arithmetic, pure (test/unit/planning-rules.test.ts): an assignment's hours on
 * each day of its range, either hours per working day or a total spread evenly over the
 * working days (the person's pattern has hours that weekday; a placeholder works Monday to
 * Friday), and the weeks of the planner (the workspace's weeks).
 */

export interface Plan {
  starts_on: string;
  ends_on: string;
  hours_per_day: string | null;
  total_hours: string | null;
}


export function datesIn(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let ms = msOf(from), end = msOf(to); ms <= end; ms += DAY_MS) dates.push(dayAt(ms));
  return dates;
}

/** Monday to Friday: a placeholder's working days. */
export const isWeekday = (date: string) => isoWeekdayAt(msOf(date)) <= 5;

/**
 * The assignment's hours on each of its working days inside [from, to] (all of them without
 * a window). A total is spread over every working day of the whole range, then cut to the
 * window, so a week of the planner shows its share. No working day in the range: nothing.
 */
export function plannedByDay(plan: Plan, isWorkingDay: (date: string) => boolean, window?: { from: string; to: string }): Map<string, Decimal> {
  const working = datesIn(plan.starts_on, plan.ends_on).filter(isWorkingDay);
  const perDay = plan.hours_per_day !== null ? new Decimal(plan.hours_per_day) : working.length ? new Decimal(plan.total_hours!).div(working.length) : new Decimal(0);
  const out = new Map<string, Decimal>();
  for (const date of working) if (!window || (date >= window.from && date <= window.to)) out.set(date, perDay);
  return out;
}

/** The plan's hours in the window: the sum of plannedByDay. */
export function plannedHours(plan: Plan, isWorkingDay: (date: string) => boolean, window: { from: string; to: string }): Decimal {
  let sum = new Decimal(0);
  for (const hours of plannedByDay(plan, isWorkingDay, window).values()) sum = sum.plus(hours);
  return sum;
}

/** Planned hours as the planner shows them: a JSON number with two places. */
export const hoursNumber = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber();

/** Why the plan cannot be, naming the field, or null. */
export function planProblem(plan: Plan, isWorkingDay: (date: string) => boolean): { field: string; message: string; refusal?: Refusal; working_days?: number } | null {
  if (plan.ends_on < plan.starts_on) return { field: 'ends_on', message: 'ends_on must not be before starts_on.' };
  if (datesIn(plan.starts_on, plan.ends_on).length > 366 * 2) return { field: 'ends_on', message: 'An assignment spans at most two years.' };
  // Stored with two decimals: a smaller amount would be stored as none (the column refuses 0).
  if (plan.hours_per_day !== null && new Decimal(plan.hours_per_day).lt(0.01)) return { field: 'hours_per_day', message: 'hours_per_day must be at least 0.01.' };
  if (plan.total_hours !== null && new Decimal(plan.total_hours).lt(0.01)) return { field: 'total_hours', message: 'total_hours must be at least 0.01.' };
  const working = datesIn(plan.starts_on, plan.ends_on).filter(isWorkingDay).length;
  // A plan on no working day plans nothing, per day or in total.
  if (working === 0) {
    return { field: 'ends_on', refusal: 'no_working_day', message: 'The range has no working day of this person or role (their working pattern, else Monday to Friday, less holidays and whole days off); choose another range.' };
  }
  if (plan.total_hours !== null && new Decimal(plan.total_hours).div(working).gt(24)) {
    return { field: 'total_hours', refusal: 'more_than_a_day', working_days: working, message: `total_hours over ${working} working days is more than 24 hours a day.` };
  }
  return null;
}

/**
 * The first days of `weeks` workspace weeks (`week_start`) from the week holding `from`: the
 * planner's columns, so its cells, "this week" and the home page's plan count the same days as
 * the timesheet and approvals. Monday unless told (the ISO week).
 */
export function weekStarts(from: string, weeks: number, weekStart: WeekStart = 'monday'): string[] {
  const first = msOf(weekStartOf(from, weekStart));
  return Array.from({ length: weeks }, (_, i) => dayAt(first + i * 7 * DAY_MS));
}

/** The planner's column of `date`: whole weeks since `firstWeek`, the first day of the first column. */
export const weekIndex = (firstWeek: string, date: string) => Math.floor((msOf(date) - msOf(firstWeek)) / (7 * DAY_MS));
