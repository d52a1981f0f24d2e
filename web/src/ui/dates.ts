import { parseDate, type CalendarDate } from '@internationalized/date';

/**
 * The web app's calendar-date arithmetic, in one place (issue 23 item 5). A calendar day is a
 * `YYYY-MM-DD` string, as the API gives it (`spent_date`, a week's `from`), and is never put
 * through a time zone: sums are done on UTC dates or with `@internationalized/date`'s
 * `CalendarDate`, so no zone (the browser's, a DST switch) can move it to the day before.
 * Showing a day goes through `format.ts` (the person's pattern and language); which day is
 * today comes from the server's clock in the workspace's zone (`Format.dayOf`).
 */

const DATE = /^\d{4}-\d\d-\d\d$/;

/** Whether `value` is shaped as a calendar day (`YYYY-MM-DD`; the shape only, as URLs and error bodies are read). */
export const isDate = (value: unknown): value is string => typeof value === 'string' && DATE.test(value);

/** A calendar day as a UTC Date: for a weekday or for Intl, never shown in a zone. */
export function utcDay(date: string): Date {
  const d = parseDate(date);
  return new Date(Date.UTC(d.year, d.month - 1, d.day));
}

/** `date` moved by `days` calendar days (UTC arithmetic on a calendar date: no zone can move it). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
export const spanDays = (range: { from: string; to: string }) =>
  Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / 86_400_000) + 1;

const pad = (n: number) => String(n).padStart(2, '0');
/** The days of a month (`month` 1-12). */
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** `months` whole months from the first of `month` (1-12) of `year`, as inclusive bounds (within one year). */
export function monthRange(year: number, month: number, months = 1): { from: string; to: string } {
  const last = month + months - 1;
  return { from: `${year}-${pad(month)}-01`, to: `${year}-${pad(last)}-${pad(daysIn(year, last))}` };
}

/** The whole year of `year`. */
export const yearRange = (year: number) => ({ from: `${year}-01-01`, to: `${year}-12-31` });

/** The seven calendar days of the week starting on `start` (calendar arithmetic: a DST week still has 7 days). */
export function weekDays(start: string): string[] {
  const first = parseDate(start);
  return Array.from({ length: 7 }, (_, i) => first.add({ days: i }).toString());
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** The first day of the week holding `date`, for a week starting on `weekStart` (`monday`…`sunday`). */
export function weekStartOf(date: string, weekStart: string): string {
  const d: CalendarDate = parseDate(date);
  const index = WEEKDAYS.indexOf(weekStart as (typeof WEEKDAYS)[number]);
  // Date.getUTCDay: 0 = Sunday; WEEKDAYS: 0 = Monday.
  const dow = (utcDay(date).getUTCDay() + 6) % 7;
  return d.subtract({ days: (dow - (index < 0 ? 0 : index) + 7) % 7 }).toString();
}

/** A date picker's value for a stored day (`null` for none). */
export const pickerDate = (value: string | null | undefined): CalendarDate | null => (value ? parseDate(value) : null);

/** A date picker's value for a day typed into a URL: `null` when absent or not a real day. */
export function pickerDateOrNull(value: string | null | undefined): CalendarDate | null {
  try {
    return pickerDate(value);
  } catch {
    return null;
  }
}
