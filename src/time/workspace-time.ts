import { DateTime } from 'luxon';

/** Today's calendar date (YYYY-MM-DD) in a workspace's IANA time zone. */
export function todayIn(timezone: string, now: Date): string {
  return DateTime.fromJSDate(now, { zone: timezone }).toISODate()!;
}

/**
 * The instant that stands for something dated a calendar day (an invoice paid by a payment of
 * that day): now when the day is today in the workspace zone, else the day's first instant
 * there, so the instant falls on the day it stands for wherever it is shown in that zone.
 */
export function instantOn(date: string, timezone: string, now: Date): Date {
  if (date === todayIn(timezone, now)) return now;
  return DateTime.fromISO(date, { zone: timezone }).startOf('day').toJSDate();
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A real calendar date in YYYY-MM-DD form (2026-02-30 is not), from 0001-01-01
 * on: PostgreSQL has no year 0000, so such a date would fail in the database.
 */
export function isIsoDate(value: unknown): value is string {
  return typeof value === 'string' && ISO_DATE.test(value) && value >= '0001-01-01' && DateTime.fromISO(value, { zone: 'UTC' }).isValid;
}

/**
 * The dates a piece of work (a time entry, an expense) may carry: a mistyped
 * century is a 400, not a record far away, and every week around such a date
 * (the week lock) is a date PostgreSQL and Luxon can hold.
 */
export const WORK_DATE_MIN = '1900-01-01';
export const WORK_DATE_MAX = '2999-12-31';

export function isWorkDate(value: unknown): value is string {
  return isIsoDate(value) && value >= WORK_DATE_MIN && value <= WORK_DATE_MAX;
}

const INSTANT_MIN = Date.parse('0001-01-02T00:00:00Z');
const INSTANT_MAX = Date.parse('9999-12-30T00:00:00Z');

/**
 * An instant PostgreSQL's timestamptz and JavaScript's Date both hold, with a
 * day's margin so that no time-zone offset moves it into year 0000 or 10000.
 */
export function isStorableInstant(at: Date): boolean {
  const t = at.getTime();
  return t >= INSTANT_MIN && t <= INSTANT_MAX;
}

/**
 * A timestamp a client filters by (`updated_since`), read as the spec names it, "an ISO 8601
 * timestamp", in any of ISO 8601's forms, extended or basic: a date alone is its midnight, a time
 * without an offset is UTC (2026-12-07, 2026-12-07T09:30, 20261207T093000Z, 2026-12-07T09:30+01:00),
 * and RFC 3339's lower-case letters and space before the time too. Null when it is none of them
 * or outside what the database stores.
 */
export function parseIsoInstant(value: string): Date | null {
  const text = value.toUpperCase().replace(/^(\d{4}-\d{2}-\d{2}) (?=\d)/, '$1T');
  const parsed = DateTime.fromISO(text, { zone: 'UTC' });
  if (!parsed.isValid) return null;
  const at = parsed.toJSDate();
  return isStorableInstant(at) ? at : null;
}
