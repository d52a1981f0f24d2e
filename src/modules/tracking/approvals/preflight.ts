import { createHash } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { DateTime } from 'luxon';
import { badRequest } from '../../../errors.ts';
import { isIsoDate } from '../../../time/workspace-time.ts';
import type { WeekStart } from '../../../db/types.ts';
import { secondsToHours, weekEndOf, weekStartOf } from '../week/index.ts';
import { breakMinutes, requiredBreak, totalHours, type BreakRule, type DayCapacity } from '../../planning/capacity/index.ts';

/**
 * Pure approval rules: the period, the fingerprint and the preflight's blockers
 * and warnings. No I/O; unit-tested on their own (test/approvals-rules.test.ts).
 */

/** An approval period spans at most this many days, inclusive. */
export const MAX_PERIOD_DAYS = 366;
/** A reject (or withdrawal) reason holds at most this many characters. */
export const REASON_MAX = 2000;

export { BLOCKER_CODES, WARNING_CODES } from './codes.ts';

export interface Period {
  from: string;
  to: string;
}

/** Whether an item is dated in the period. */
export const inPeriod = (i: Pick<PeriodItem, 'spent_date'>, period: Period) => i.spent_date >= period.from && i.spent_date <= period.to;

/**
 * The whole weeks (of the workspace's week start) a period touches: what its approval locks
 * (week/lock.ts locks each week holding approved time), so what its preflight looks at.
 */
export function lockedWeeks(period: Period, weekStart: WeekStart): Period {
  return { from: weekStartOf(period.from, weekStart), to: weekEndOf(weekStartOf(period.to, weekStart)) };
}

/** Days in an inclusive period. */
export function daysIn(from: string, to: string): number {
  return Math.round(DateTime.fromISO(to, { zone: 'UTC' }).diff(DateTime.fromISO(from, { zone: 'UTC' }), 'days').days) + 1;
}

/** 400 naming the field unless `from`..`to` are real dates, in order, at most 366 days inclusive. */
export function checkPeriod(period: Period): void {
  for (const field of ['from', 'to'] as const) {
    if (!isIsoDate(period[field])) throw badRequest(`${field} must be a date as YYYY-MM-DD.`, { field });
  }
  if (period.to < period.from) throw badRequest('to must not be before from.', { field: 'to' });
  if (daysIn(period.from, period.to) > MAX_PERIOD_DAYS) {
    throw badRequest(`A period spans at most ${MAX_PERIOD_DAYS} days (from and to included).`, { field: 'to' });
  }
}

/** A reason as stored: trimmed, blank is null; 400 when too long or holding NUL characters (PostgreSQL cannot store them). */
export function checkReason(reason: string | null | undefined): string | null {
  if (reason === undefined || reason === null) return null;
  if ([...reason].length > REASON_MAX) throw badRequest(`reason must be at most ${REASON_MAX} characters.`, { field: 'reason' });
  if (reason.includes('\u0000')) throw badRequest('reason cannot contain NUL characters.', { field: 'reason' });
  return reason.trim() === '' ? null : reason;
}

/** One time entry or expense of the person in the period, as the preflight and the fingerprint see it. */
export interface PeriodItem {
  kind: 'time' | 'expense';
  id: string;
  project_id: string;
  spent_date: string;
  approval_status: 'unsubmitted' | 'submitted' | 'approved' | 'rejected';
  is_billed: boolean;
  updated_at: Date;
  notes: string | null;
  billable: boolean;
  /** Time entries only. */
  task_id?: string;
  duration_seconds?: number;
  hours_entered?: string | null;
  is_running?: boolean;
  started_time?: string | null;
  ended_time?: string | null;
  /** Expenses only. */
  expense_category_id?: string;
  total_cost?: string;
  units?: string | null;
}

export interface Finding {
  code: string;
  message: string;
  [detail: string]: unknown;
}

export interface Preflight {
  fingerprint: string;
  blockers: Finding[];
  warnings: Finding[];
}

/** Items that enter the approval flow: unbilled ones (billed work left it when it was invoiced). */
export const isOpen = (i: PeriodItem) => (i.approval_status === 'unsubmitted' || i.approval_status === 'rejected') && !i.is_billed;
/** Whether submit picks the item up: completed, unbilled, unsubmitted or rejected. */
export const isSubmittable = (i: PeriodItem) => isOpen(i) && !i.is_running;

/**
 * A hash of every item of the person's period (whatever the approval scope):
 * ids, change times, dates, projects, durations and amounts, states. Any change
 * to the period makes it stale.
 */
export function fingerprintOf(items: readonly PeriodItem[]): string {
  const lines = items
    .map((i) =>
      JSON.stringify([
        i.kind,
        i.id,
        i.updated_at.toISOString(),
        i.project_id,
        i.task_id ?? i.expense_category_id ?? '',
        i.spent_date,
        i.duration_seconds ?? i.total_cost ?? '',
        i.hours_entered ?? i.units ?? '',
        i.started_time ?? '',
        i.ended_time ?? '',
        i.is_running === true,
        i.billable,
        i.is_billed,
        i.approval_status,
        i.notes ?? '',
      ]),
    )
    .sort();
  return createHash('sha256').update(lines.join('\n')).digest('base64url');
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hoursNumber = (d: Decimal) => d.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toNumber();

/** What the preflight measures time against: the person's capacity per day (null: nothing expected) and the break rules. */
export interface PreflightCapacity {
  days: readonly DayCapacity[] | null;
  breakRules: readonly BreakRule[];
}

/**
 * The approval preflight of a person's period.
 *
 * Blockers (cannot be acknowledged), among the items in the approval scope: a
 * running timer (`running_timer`); time or expenses not submitted, or rejected
 * and not yet submitted again (`unsubmitted_time`). Billed items are out of the
 * flow and block nothing.
 *
 * Warnings, over the person's whole period (a timesheet's totals do not depend
 * on who approves which project):
 * - `hours_below_expected`: completed time below the expected hours: the
 *   person's capacity in the period (planning/capacity: their working pattern, or
 *   expected_weekly_hours over Monday to Friday, less time off and holidays);
 * - `outside_working_capacity`: completed time above that capacity, time on a day
 *   that is wholly off (time off, a holiday), or more than 24 hours on one day;
 * - `overlapping_entries`: entries of one day whose started_time..ended_time
 *   spans overlap; listed are the overlapping entries in the scope;
 * - `break_missing`: under the workspace's break rules, a day whose time needs more
 *   break than the gaps between its entries give (days with an entry without
 *   times are not judged: their breaks are unknown).
 */
export function runPreflight(
  weekItems: readonly PeriodItem[],
  inScope: (i: PeriodItem) => boolean,
  period: Period,
  capacity: PreflightCapacity,
): Preflight {
  const blockers: Finding[] = [];
  const warnings: Finding[] = [];
  // The weeks' items beyond the period count for one thing: their being unsubmitted (below).
  const items = weekItems.filter((i) => inPeriod(i, period));
  const scoped = items.filter(inScope);

  const running = scoped.filter((i) => i.kind === 'time' && i.is_running);
  if (running.length) {
    blockers.push({
      code: 'running_timer',
      message: 'A timer is running in the period; it must be stopped and submitted first.',
      time_entry_ids: running.map((i) => i.id).sort(),
    });
  }
  // An approval locks the whole weeks it touches: an unsubmitted item of those weeks, even just
  // outside the period, would be stuck in a locked week, so it blocks as one inside does.
  const open = weekItems.filter((i) => inScope(i) && isOpen(i) && !i.is_running);
  if (open.length) {
    blockers.push({
      code: 'unsubmitted_time',
      message: 'The period, or the rest of the weeks an approval of it locks, holds time or expenses that are not submitted (or were rejected and not submitted again).',
      time_entry_ids: open.filter((i) => i.kind === 'time').map((i) => i.id).sort(),
      expense_ids: open.filter((i) => i.kind === 'expense').map((i) => i.id).sort(),
    });
  }

  const completed = items.filter((i) => i.kind === 'time' && !i.is_running);
  const tracked = secondsToHours(completed.reduce((sum, i) => sum + (i.duration_seconds ?? 0), 0));
  let over: Finding | null = null;
  if (capacity.days !== null) {
    const expected = totalHours(capacity.days);
    if (tracked.lt(expected)) {
      warnings.push({
        code: 'hours_below_expected',
        message: `${tracked.toFixed()} hours tracked, below the ${hoursNumber(expected)} hours expected for the period.`,
        tracked_hours: hoursNumber(tracked),
        expected_hours: hoursNumber(expected),
      });
    } else if (tracked.gt(expected)) {
      over = {
        code: 'outside_working_capacity',
        message: `${tracked.toFixed()} hours tracked, above the working capacity of ${hoursNumber(expected)} hours for the period.`,
        tracked_hours: hoursNumber(tracked),
        capacity_hours: hoursNumber(expected),
        dates: [],
      };
      warnings.push(over);
    }
  }
  const perDay = new Map<string, number>();
  for (const i of completed) perDay.set(i.spent_date, (perDay.get(i.spent_date) ?? 0) + (i.duration_seconds ?? 0));
  // Off: a holiday or whole-day time off, and a day the person's week gives no hours (a part-timer's Friday, a weekend).
  const dayOff = new Set(capacity.days?.filter((d) => d.whole_day_off || d.base.isZero()).map((d) => d.date));
  const outside = [...perDay].filter(([d, s]) => s > 24 * 3600 || (s > 0 && dayOff.has(d))).map(([d]) => d).sort();
  if (outside.length) {
    if (over) (over.dates as string[]).push(...outside);
    else {
      warnings.push({
        code: 'outside_working_capacity',
        message: `Time tracked outside working capacity (a day off, or more than 24 hours) on ${outside.join(', ')}.`,
        tracked_hours: hoursNumber(tracked),
        capacity_hours: null,
        dates: outside,
      });
    }
  }
  if (capacity.breakRules.length) {
    const short: Array<{ date: string; break_minutes: number; required_minutes: number }> = [];
    const entriesByDay = new Map<string, PeriodItem[]>();
    for (const i of completed) entriesByDay.set(i.spent_date, [...(entriesByDay.get(i.spent_date) ?? []), i]);
    for (const [date, entries] of [...entriesByDay].sort(([a], [b]) => a.localeCompare(b))) {
      const need = requiredBreak(capacity.breakRules, secondsToHours(perDay.get(date) ?? 0));
      const taken = need > 0 ? breakMinutes(entries) : null;
      if (taken !== null && taken < need) short.push({ date, break_minutes: taken, required_minutes: need });
    }
    if (short.length) {
      warnings.push({
        code: 'break_missing',
        message: `Less break than the workspace's break rules require on ${short.map((d) => d.date).join(', ')}.`,
        dates: short.map((d) => d.date),
        days: short,
      });
    }
  }

  const byDay = new Map<string, PeriodItem[]>();
  for (const i of completed) {
    if (!i.started_time || !i.ended_time) continue;
    const day = byDay.get(i.spent_date) ?? [];
    day.push(i);
    byDay.set(i.spent_date, day);
  }
  const overlapping = new Set<string>();
  for (const day of byDay.values()) {
    for (let a = 0; a < day.length; a++) {
      for (let b = a + 1; b < day.length; b++) {
        const x = day[a];
        const y = day[b];
        if (minutes(x.started_time!) < minutes(y.ended_time!) && minutes(y.started_time!) < minutes(x.ended_time!)) {
          if (inScope(x) || inScope(y)) overlapping.add(x.id).add(y.id);
        }
      }
    }
  }
  const scopedIds = new Set(scoped.map((i) => i.id));
  const visibleOverlaps = [...overlapping].filter((id) => scopedIds.has(id)).sort();
  if (overlapping.size) {
    warnings.push({ code: 'overlapping_entries', message: 'Time entries of one day overlap in time.', time_entry_ids: visibleOverlaps });
  }
  return { fingerprint: fingerprintOf(weekItems), blockers, warnings };
}
