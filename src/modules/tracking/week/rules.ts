import { Decimal } from 'decimal.js';
import { DateTime } from 'luxon';
import type { Rounding } from '../../../db/types.ts';
import { badRequest, type ErrorCode } from '../../../errors.ts';
import { WORK_DATE_MAX, WORK_DATE_MIN, isWorkDate } from '../../../time/workspace-time.ts';
// The workspace week's days are core (src/time): planning, below tracking, counts its weeks too.
export { weekEndOf, weekStartOf } from '../../../time/calendar-days.ts';

/**
 * Pure rules of the week that time entries, expenses, approvals, the home page and
 * invoicing share: dates and weeks, wall-clock HH:mm in the workspace zone, decimal
 * hours and seconds, and the workspace rounding rule. No I/O; unit-tested on their
 * own. Hours are decimals (decimal.js), never binary floats.
 */

export const HOURS_DECIMALS = 6;

/** Decimal hours of a number of seconds, to HOURS_DECIMALS places (half up). */
export function secondsToHours(seconds: number): Decimal {
  return new Decimal(seconds).div(3600).toDecimalPlaces(HOURS_DECIMALS, Decimal.ROUND_HALF_UP);
}

/**
 * Decimal hours of a number of seconds as a JSON number, equal to
 * `Number(secondsToHours(seconds))` without decimal.js (the list renders
 * thousands): seconds / 3600 = seconds * 2500 / 9 millionths, an integer over 9
 * that is never exactly half, so rounding it and dividing by 10^6 gives the
 * nearest double to the six-decimal value.
 */
export function secondsToHoursNumber(seconds: number): number {
  return Math.round((seconds * 2500) / 9) / 1e6;
}

/** Whole seconds of decimal hours (half up). */
export function hoursToSeconds(hours: Decimal.Value): number {
  return new Decimal(hours).mul(3600).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

export interface RoundingRule {
  rounding: Rounding;
  rounding_minutes: number;
}

/** Seconds after the workspace rounding rule (up, down or nearest to a multiple of rounding_minutes). */
export function roundSeconds(seconds: number, rule: RoundingRule): number {
  if (rule.rounding === 'none') return seconds;
  const step = rule.rounding_minutes * 60;
  const units = new Decimal(seconds).div(step);
  const rounded =
    rule.rounding === 'up'
      ? units.ceil()
      : rule.rounding === 'down'
        ? units.floor()
        : units.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  return rounded.mul(step).toNumber();
}

/**
 * A finished entry's `rounded_hours` exactly as the time entries API shows it: its hours (as
 * entered, else from its seconds) after the workspace rounding rule, to six decimal places.
 * Invoice imports sum these into a line's quantity, and the approvals review prices them.
 */
export function entryRoundedHours(e: { hours_entered: string | null; duration_seconds: number }, rule: RoundingRule): Decimal {
  const hours = e.hours_entered !== null ? new Decimal(e.hours_entered) : secondsToHours(e.duration_seconds);
  return roundHours(hours, rule);
}

/**
 * The instant of a wall-clock time on a date in a zone. Times that do not exist
 * (skipped by a DST change) move forward like the clock did; ambiguous ones
 * (repeated in autumn) take the first occurrence.
 */
export function wallClockInstant(date: string, hhmm: string, zone: string): Date {
  const [hour, minute] = hhmm.split(':').map(Number);
  return DateTime.fromISO(date, { zone }).set({ hour, minute, second: 0, millisecond: 0 }).toJSDate();
}

/** Seconds between two wall-clock times on one date, across any DST change that day; an end before the start is an error. */
export function wallClockSeconds(date: string, started: string, ended: string, zone: string): number {
  const start = wallClockInstant(date, started, zone).getTime();
  const end = wallClockInstant(date, ended, zone).getTime();
  return Math.round((end - start) / 1000);
}

/** The wall-clock HH:mm and calendar date of an instant in a zone. */
export function wallClockOf(instant: Date, zone: string): { date: string; time: string } {
  const dt = DateTime.fromJSDate(instant, { zone });
  return { date: dt.toISODate()!, time: dt.toFormat('HH:mm') };
}

/**
 * Whole micro-hours after the workspace rounding rule: the one rule that the entries' `rounded_hours`,
 * invoices, the export and the reports share (rounding-sql.ts is its SQL twin). Exact integer
 * arithmetic in thirds of a micro-hour, where one step of m minutes (m/60 hours) is m × 50,000
 * thirds; k steps are taken back to whole micro-hours half up (a remainder of 2 thirds rounds up).
 *
 * Six places cannot hold most step boundaries: 10 minutes is 0.1666… hours, written 0.166667,
 * which is 1 third past the boundary. So a value within one third of a boundary (or of a
 * half-way point, for `nearest`) is taken as that point: a 10-minute timer rounded up to 10
 * minutes stays 10 minutes, as its seconds do (roundSeconds), where it used to become 20; and 5
 * minutes (0.083333) rounded down to 5 minutes stays 5, not 0. No other six-place value is that
 * close to a boundary, and a whole number of seconds never is unless it is on it.
 */
export function roundMicroHours(micro: number, rule: RoundingRule): number {
  if (rule.rounding === 'none') return micro;
  const thirds = micro * 3;
  const step = rule.rounding_minutes * 50_000;
  const steps =
    rule.rounding === 'up'
      ? Math.floor((thirds + step - 2) / step)
      : rule.rounding === 'down'
        ? Math.floor((thirds + 1) / step)
        : Math.floor((2 * thirds + 2 + step) / (2 * step));
  return Math.floor((steps * step + 1) / 3);
}

/**
 * `rounded_hours`: decimal hours after the workspace rounding rule (roundMicroHours), computed on
 * the hours (so 1.1 hours rounded up to 6 minutes stays 1.1); with rounding `none` it is the
 * hours themselves.
 */
export function roundHours(hours: Decimal.Value, rule: RoundingRule): Decimal {
  const h = new Decimal(hours);
  if (rule.rounding === 'none') return h;
  const micro = h.mul(1e6).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
  return new Decimal(roundMicroHours(micro, rule)).div(1e6);
}

/**
 * roundHours of a JSON number of hours (at most HOURS_DECIMALS places), equal to
 * `roundHours(hours, rule).toNumber()` without decimal.js, which cost the list
 * 1.5 µs per entry. Dividing the integer micro-hours by 10⁶ gives the nearest
 * double to the six-decimal value, as Decimal's toNumber does.
 */
export function roundHoursNumber(hours: number, rule: RoundingRule): number {
  if (rule.rounding === 'none') return hours;
  return roundMicroHours(Math.round(hours * 1e6), rule) / 1e6;
}

// ---- values of a time entry or an expense ----

/** A rule's refusal of a value, naming the field (the service turns it into a 400). */
export type RuleError = { field: string; message: string; code?: ErrorCode };

export const isRuleError = (value: unknown): value is RuleError =>
  typeof value === 'object' && value !== null && 'field' in value && 'message' in value && !(value instanceof Decimal);

/** `spent_date` of a time entry or expense: a real date in the work-date range (src/time/workspace-time.ts). */
export function checkSpentDate(value: string): string | RuleError {
  if (isWorkDate(value)) return value;
  return { field: 'spent_date', message: `spent_date must be a date YYYY-MM-DD from ${WORK_DATE_MIN} to ${WORK_DATE_MAX}.` };
}

/** The day a week screen shows (`date`, default today): a date from 1900 to 2999, else 400 naming it. */
export function checkWeekDate(date: string | undefined): void {
  if (date !== undefined && !isWorkDate(date)) throw badRequest('date must be a date between 1900 and 2999.', { field: 'date' });
}

/** Whether two JSON values are equal, ignoring the order of object keys (jsonb reorders them): an unchanged metadata is no change. */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
