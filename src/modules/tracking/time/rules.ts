import { Decimal } from 'decimal.js';
import { DateTime } from 'luxon';
import type { Rounding } from '../../../db/types.ts';
import type { ErrorCode } from '../../../errors.ts';
import { WORK_DATE_MAX, WORK_DATE_MIN, isWorkDate } from '../../../time/workspace-time.ts';

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

const DAY_MS = 86_400_000;
/** YYYY-MM-DD of a UTC instant. */
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first day of the week containing `date` (YYYY-MM-DD) for a week start day. */
export function weekStartOf(date: string, weekStart: 'monday' | 'sunday' | 'saturday'): string {
  // Calendar arithmetic on UTC midnight (no zone, no DST), without luxon: every
  // create and change of time runs it, and it is a hot path's measurable share.
  const ms = Date.parse(`${date}T00:00:00Z`);
  const startDay = weekStart === 'monday' ? 1 : weekStart === 'sunday' ? 0 : 6; // Date#getUTCDay numbering
  const back = (new Date(ms).getUTCDay() - startDay + 7) % 7;
  return isoDate(ms - back * DAY_MS);
}

// ---- entry values (create and update) ----

/** The sources a time entry may come from; immutable after creation. */
export const TIME_SOURCES = ['web', 'cli', 'api', 'agent', 'calendar', 'desktop'] as const;
export const DEFAULT_SOURCE = 'api';
export const NOTES_MAX = 10_000;
/** `metadata`: a JSON object of at most 4 KB, serialized as UTF-8. */
export const METADATA_MAX_BYTES = 4096;
/** How far a timer's given start may lie from the current minute and still count as now (clock skew, minute resolution). */
export const TIMER_START_TOLERANCE_MS = 60_000;

export type RuleError = { field: string; message: string; code?: ErrorCode };

/** Hours as sent: a JSON number 0..24 with at most six decimal places, as an exact decimal. */
export function parseHours(value: unknown): Decimal | RuleError {
  const field = 'hours';
  if (typeof value !== 'number' || !Number.isFinite(value)) return { field, message: 'hours must be a number.' };
  const d = new Decimal(value);
  if (d.isNegative() && !d.isZero()) return { field, message: 'hours must be at least 0.' };
  if (d.gt(24)) return { field, message: 'hours must be at most 24.' };
  if (d.decimalPlaces() > HOURS_DECIMALS) return { field, message: `hours takes at most ${HOURS_DECIMALS} decimal places.` };
  return d.abs();
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

/** Whole seconds a timer has run from its start to `now` (never negative). */
export function elapsedSeconds(startedAt: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - startedAt.getTime()) / 1000));
}

/** An entry's seconds including a running timer's current run, at most 24 hours (the longest entry). */
export function currentSeconds(entry: { duration_seconds: number; timer_started_at: Date | null }, now: Date): number {
  const running = entry.timer_started_at ? elapsedSeconds(entry.timer_started_at, now) : 0;
  return Math.min(MAX_ENTRY_SECONDS, entry.duration_seconds + running);
}

/**
 * The duration of a completed entry from what the body says: `hours`, or
 * `started_time` + `ended_time` (wall clock on `date` in `zone`, DST-safe), or
 * both when they agree (the hours within one minute of the span, the times'
 * resolution; the entered hours are kept). Null when neither is given.
 */
export function completedDuration(
  input: { hours?: Decimal; started?: string | null; ended?: string | null },
  date: string,
  zone: string,
): { seconds: number; hours: Decimal | null } | RuleError | null {
  const { hours, started, ended } = input;
  if ((started == null) !== (ended == null)) {
    return {
      field: started == null ? 'started_time' : 'ended_time',
      message: 'started_time and ended_time go together: send both (or only hours).',
    };
  }
  if (started != null && ended != null) {
    const span = wallClockSeconds(date, started, ended, zone);
    if (span <= 0) return { field: 'ended_time', message: 'ended_time must be after started_time.' };
    if (hours !== undefined && Math.abs(hoursToSeconds(hours) - span) >= 60) {
      return {
        field: 'hours',
        message: `hours (${hours.toString()}) disagrees with started_time..ended_time (${secondsToHours(span).toString()} hours); send one or the other.`,
      };
    }
    return { seconds: hours !== undefined ? hoursToSeconds(hours) : span, hours: hours ?? null };
  }
  if (hours !== undefined) return { seconds: hoursToSeconds(hours), hours };
  return null;
}

export type TimerStart = { spentDate: string; startedTime: string | null; startedAt: Date };

/**
 * Where a new running timer starts. `spentDate` defaults to today and
 * `startedTime` to now, both in the workspace zone. A start in the future (a
 * later date, or a time after the next minute) is refused; a start in the past
 * (an earlier date, or a time before the previous minute) needs the workspace
 * setting `allow_past_timer_starts`, however far back. A past date without a
 * time starts counting now.
 */
export function timerStart(opts: {
  now: Date;
  zone: string;
  spentDate?: string;
  startedTime?: string;
  allowPast: boolean;
}): TimerStart | RuleError {
  const { now, zone, allowPast } = opts;
  const today = wallClockOf(now, zone).date;
  const spentDate = opts.spentDate ?? today;
  if (spentDate > today) return { field: 'spent_date', message: 'A timer cannot start on a future date.' };
  const pastRefused = (field: string): RuleError => ({
    field,
    message: 'This workspace does not allow timers that started in the past (allow_past_timer_starts is off); record a completed entry instead.',
  });
  if (opts.startedTime === undefined) {
    if (spentDate < today) {
      if (!allowPast) return pastRefused('spent_date');
      return { spentDate, startedTime: null, startedAt: now };
    }
    return { spentDate, startedTime: wallClockOf(now, zone).time, startedAt: now };
  }
  // HH:mm has minute resolution: measure from the start of the current minute.
  const instant = wallClockInstant(spentDate, opts.startedTime, zone).getTime();
  const minute = Math.floor(now.getTime() / 60_000) * 60_000;
  if (instant > minute + TIMER_START_TOLERANCE_MS) return { field: 'started_time', message: 'A timer cannot start in the future.' };
  // No bound on how far back (the spec bounds only the future): a run longer than
  // the longest entry counts as MAX_ENTRY_SECONDS (currentSeconds), so its stop keeps
  // 24 hours on the start's date.
  if ((spentDate < today || instant < minute - TIMER_START_TOLERANCE_MS) && !allowPast) {
    return pastRefused(spentDate < today ? 'spent_date' : 'started_time');
  }
  return { spentDate, startedTime: opts.startedTime, startedAt: instant > now.getTime() ? now : new Date(instant) };
}

/** The week of `date` (its first day) for the workspace's week start. Re-exported name for the lock rule. */
export const weekOf = weekStartOf;

/** The last day of the week that starts on `weekStart` (YYYY-MM-DD). */
export function weekEndOf(weekStart: string): string {
  return isoDate(Date.parse(`${weekStart}T00:00:00Z`) + 6 * DAY_MS);
}

// ---- metadata and external references ----

const hasNul = (value: unknown) => JSON.stringify(value).includes('\\u0000');

/** `metadata`: a JSON object of at most 4 KB (UTF-8 of its JSON). */
export function checkMetadata(value: unknown): RuleError | null {
  const field = 'metadata';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { field, message: 'metadata must be an object.' };
  const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (bytes > METADATA_MAX_BYTES) return { field, message: `metadata must be at most ${METADATA_MAX_BYTES} bytes as JSON (it is ${bytes}).` };
  if (hasNul(value)) return { field, message: 'metadata cannot contain the NUL character.' };
  return null;
}

/** Text fields of an external reference and their maximum lengths (`id` is required). */
export const EXTERNAL_REFERENCE_FIELDS: Record<string, number> = {
  id: 255,
  permalink: 2048,
  service: 255,
  service_name: 255,
  group_id: 255,
  account_id: 255,
  display_name: 1024,
  group_name: 1024,
  parent_id: 255,
};

/**
 * Service identifiers reserved for built-in third-party integrations (docs/decisions.md):
 * `github.com` and `atlassian.net`, with their subdomains, ignoring case. They need
 * their integration enabled, and Sheaf has none yet, so they are refused.
 */
export const RESERVED_SERVICES = ['github.com', 'atlassian.net'] as const;

export function reservedService(service: string): string | null {
  const s = service.trim().toLowerCase();
  return RESERVED_SERVICES.find((r) => s === r || s.endsWith(`.${r}`)) ?? null;
}

/** The error code of a reserved service identifier whose integration is not enabled (400). */
export const INTEGRATION_NOT_ENABLED = 'integration_not_enabled';

export const EXTERNAL_REFERENCE_NOT_OBJECT = 'external_reference must be an object';

/**
 * Checks an external reference and returns what is stored: the given text fields
 * (null optional fields are dropped). `id` is required; `permalink` is a full
 * http(s) URL; unknown fields are refused.
 */
export function checkExternalReference(value: unknown): Record<string, string> | RuleError {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { field: 'external_reference', message: EXTERNAL_REFERENCE_NOT_OBJECT };
  }
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    const field = `external_reference.${key}`;
    const max = EXTERNAL_REFERENCE_FIELDS[key];
    if (max === undefined) return { field, message: `Unknown field '${field}'.`, code: 'unknown_field' };
    if (v === null && key !== 'id') continue;
    if (typeof v !== 'string') return { field, message: `${field} must be a string.` };
    if (v.trim() === '') return { field, message: `${field} cannot be blank.` };
    if (v.length > max) return { field, message: `${field} must be at most ${max} characters.` };
    if (v.includes('\u0000')) return { field, message: `${field} cannot contain the NUL character.` };
    out[key] = v;
  }
  if (out.id === undefined) return { field: 'external_reference.id', message: 'external_reference.id is required.' };
  if (out.permalink !== undefined && !isHttpUrl(out.permalink)) {
    return { field: 'external_reference.permalink', message: 'external_reference.permalink must be a full http:// or https:// URL.' };
  }
  const reserved = out.service === undefined ? null : reservedService(out.service);
  if (reserved) {
    return {
      field: 'external_reference.service',
      code: INTEGRATION_NOT_ENABLED,
      message: `The service '${out.service}' is reserved for the built-in ${reserved} integration, which is not enabled in this workspace; use another service identifier.`,
    };
  }
  return out;
}

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** `spent_date` of a time entry or expense: a real date in the work-date range (src/time/workspace-time.ts). */
export function checkSpentDate(value: string): string | RuleError {
  if (isWorkDate(value)) return value;
  return { field: 'spent_date', message: `spent_date must be a date YYYY-MM-DD from ${WORK_DATE_MIN} to ${WORK_DATE_MAX}.` };
}

/** `notes`: at most 10,000 characters kept as written; blank is null. */
export function checkNotes(value: string | null): string | null | RuleError {
  if (value === null || value.trim() === '') return null;
  if (value.length > NOTES_MAX) return { field: 'notes', message: `notes must be at most ${NOTES_MAX} characters.` };
  if (value.includes('\u0000')) return { field: 'notes', message: 'notes cannot contain the NUL character.' };
  return value;
}

export const isRuleError = (value: unknown): value is RuleError =>
  typeof value === 'object' && value !== null && 'field' in value && 'message' in value && !(value instanceof Decimal);
