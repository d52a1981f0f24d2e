import { Decimal } from 'decimal.js';
import { DateTime } from 'luxon';
import type { Rounding, WeekStart } from '../../../db/types.ts';
import { badRequest, type ErrorCode } from '../../../errors.ts';
import { WORK_DATE_MAX, WORK_DATE_MIN, isWorkDate } from '../../../time/workspace-time.ts';

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

/** `rounded_hours` of an entry: its duration after the rounding rule, in decimal hours. */
export function roundedHours(seconds: number, rule: RoundingRule): Decimal {
  return secondsToHours(roundSeconds(seconds, rule));
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

const DAY_MS = 86_400_000;
/** YYYY-MM-DD of a UTC instant. */
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first day of the week containing `date` (YYYY-MM-DD) for a week start day. */
export function weekStartOf(date: string, weekStart: WeekStart): string {
  // Calendar arithmetic on UTC midnight (no zone, no DST), without luxon: every
  // create and change of time runs it, and it is a hot path's measurable share.
  const ms = Date.parse(`${date}T00:00:00Z`);
  const startDay = weekStart === 'monday' ? 1 : weekStart === 'sunday' ? 0 : 6; // Date#getUTCDay numbering
  const back = (new Date(ms).getUTCDay() - startDay + 7) % 7;
  return isoDate(ms - back * DAY_MS);
}

/**
 * `rounded_hours`: decimal hours after the workspace rounding rule, computed on
 * the exact hours (so 1.1 hours rounded up to 6 minutes stays 1.1); with rounding
 * `none` it is the hours themselves.
 */
export function roundHours(hours: Decimal.Value, rule: RoundingRule): Decimal {
  const h = new Decimal(hours);
  if (rule.rounding === 'none') return h;
  const units = h.mul(60).div(rule.rounding_minutes);
  const rounded =
    rule.rounding === 'up' ? units.ceil() : rule.rounding === 'down' ? units.floor() : units.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  return rounded.mul(rule.rounding_minutes).div(60).toDecimalPlaces(HOURS_DECIMALS, Decimal.ROUND_HALF_UP);
}

/**
 * roundHours of a JSON number of hours (at most HOURS_DECIMALS places), equal to
 * `roundHours(hours, rule).toNumber()` without decimal.js, which cost the list
 * 1.5 µs per entry. Exact integer arithmetic in thirds of a micro-hour, where one
 * step of m minutes (m/60 hours, m × 10⁶/60 micro-hours) is m × 50,000 thirds; the
 * result, k steps, is k × m × 50,000 thirds, taken to whole micro-hours half up (a
 * remainder of 2 thirds rounds up, 1 down). Dividing the integer micro-hours by 10⁶
 * gives the nearest double to the six-decimal value, as Decimal's toNumber does.
 */
export function roundHoursNumber(hours: number, rule: RoundingRule): number {
  if (rule.rounding === 'none') return hours;
  const thirds = Math.round(hours * 1e6) * 3;
  const step = rule.rounding_minutes * 50_000;
  const whole = Math.floor(thirds / step);
  const rest = thirds - whole * step;
  const steps =
    rule.rounding === 'up' ? whole + (rest > 0 ? 1 : 0) : rule.rounding === 'down' ? whole : whole + (2 * rest >= step ? 1 : 0);
  const rounded = steps * step;
  return (Math.floor(rounded / 3) + (rounded % 3 === 2 ? 1 : 0)) / 1e6;
}

/** The last day of the week that starts on `weekStart` (YYYY-MM-DD). */
export function weekEndOf(weekStart: string): string {
  return isoDate(Date.parse(`${weekStart}T00:00:00Z`) + 6 * DAY_MS);
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
