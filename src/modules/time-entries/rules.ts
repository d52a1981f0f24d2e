import { Decimal } from 'decimal.js';
import { DateTime } from 'luxon';
import type { Rounding } from '../../db/types.ts';

/**
 * Pure rules for time: durations, decimal hours, the workspace rounding rule and
 * wall-clock HH:mm in the workspace zone. No I/O; unit-tested on their own.
 * Hours are decimals (decimal.js), never binary floats.
 */

export const HOURS_DECIMALS = 6;
export const MAX_ENTRY_SECONDS = 24 * 3600;

/** Decimal hours of a number of seconds, to HOURS_DECIMALS places (half up). */
export function secondsToHours(seconds: number): Decimal {
  return new Decimal(seconds).div(3600).toDecimalPlaces(HOURS_DECIMALS, Decimal.ROUND_HALF_UP);
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

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isWallClock(value: unknown): value is string {
  return typeof value === 'string' && HH_MM.test(value);
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

/** The first day of the week containing `date` (YYYY-MM-DD) for a week start day. */
export function weekStartOf(date: string, weekStart: 'monday' | 'sunday' | 'saturday'): string {
  const dt = DateTime.fromISO(date, { zone: 'UTC' });
  const startWeekday = weekStart === 'monday' ? 1 : weekStart === 'sunday' ? 7 : 6;
  const back = (dt.weekday - startWeekday + 7) % 7;
  return dt.minus({ days: back }).toISODate()!;
}
