import { DateTime } from 'luxon';

/** Today's calendar date (YYYY-MM-DD) in a workspace's IANA time zone. */
export function todayIn(timezone: string, now: Date): string {
  return DateTime.fromJSDate(now, { zone: timezone }).toISODate()!;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date in YYYY-MM-DD form (2026-02-30 is not). */
export function isIsoDate(value: unknown): value is string {
  return typeof value === 'string' && ISO_DATE.test(value) && DateTime.fromISO(value, { zone: 'UTC' }).isValid;
}
