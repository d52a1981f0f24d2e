import { UsageError } from '../output.ts';

/**
 * Dates as a person types them: YYYY-MM-DD, "today", "yesterday", and ISO
 * weeks (2026-W07, Monday to Sunday). "Today" is this machine's date: the
 * person at the terminal logs the day they see on their clock.
 */

const pad = (n: number) => String(n).padStart(2, '0');
/** A UTC midnight as YYYY-MM-DD. */
export const isoDate = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

/** This machine's calendar date, as a UTC midnight (all arithmetic below is on UTC midnights). */
export function today(now = new Date()): Date {
  return new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()));
}

export const addDays = (d: Date, days: number) => new Date(d.getTime() + days * 86_400_000);

function isRealDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && isoDate(d) === text;
}

/** A --date value: YYYY-MM-DD, today or yesterday. */
export function parseDate(value: string | undefined, option: string, now = new Date()): string | undefined {
  if (value === undefined) return undefined;
  if (value === 'today') return isoDate(today(now));
  if (value === 'yesterday') return isoDate(addDays(today(now), -1));
  if (!isRealDate(value)) throw new UsageError(`${option} must be a date YYYY-MM-DD (or today, yesterday), not '${value}'.`);
  return value;
}

/** Monday to Sunday of an ISO week: "2026-W07", or "" / undefined for this week. */
export function isoWeek(value: string | undefined, now = new Date()): { from: string; to: string; week: string } {
  let monday: Date;
  if (!value || value === 'current') {
    const t = today(now);
    monday = addDays(t, -((t.getUTCDay() + 6) % 7));
  } else if (value === 'last') {
    const t = addDays(today(now), -7);
    monday = addDays(t, -((t.getUTCDay() + 6) % 7));
  } else {
    const m = /^(\d{4})-?W(\d{2})$/i.exec(value);
    if (!m) throw new UsageError(`--week must be an ISO week such as 2026-W07 (or current, last), not '${value}'.`);
    const year = Number(m[1]);
    const week = Number(m[2]);
    // Week 1 is the week with January 4th in it.
    const jan4 = new Date(Date.UTC(year, 0, 4));
    const week1 = addDays(jan4, -((jan4.getUTCDay() + 6) % 7));
    monday = addDays(week1, (week - 1) * 7);
    const weeks = weeksIn(year);
    if (week < 1 || week > weeks) throw new UsageError(`--week: ${year} has weeks 1 to ${weeks}, not ${week}.`);
  }
  return { from: isoDate(monday), to: isoDate(addDays(monday, 6)), week: weekName(monday) };
}

/** The ISO week a Monday is in, e.g. 2026-W07. */
function weekName(monday: Date): string {
  const thursday = addDays(monday, 3);
  const year = thursday.getUTCFullYear();
  const jan4 = new Date(Date.UTC(year, 0, 4));
  const week1 = addDays(jan4, -((jan4.getUTCDay() + 6) % 7));
  return `${year}-W${pad(Math.round((monday.getTime() - week1.getTime()) / (7 * 86_400_000)) + 1)}`;
}

/** 52 or 53: a year has 53 ISO weeks when December 28th is in week 53. */
function weeksIn(year: number): number {
  const dec28 = new Date(Date.UTC(year, 11, 28));
  return Number(weekName(addDays(dec28, -((dec28.getUTCDay() + 6) % 7))).slice(-2));
}

/** A range from --week, or --from/--to (and --date for one day); `fallback` when none is given. */
export function dateRange(
  values: Record<string, string | undefined>,
  fallback: 'week' | 'none',
  now = new Date(),
): { from?: string; to?: string } {
  const from = parseDate(values.from, '--from', now);
  const to = parseDate(values.to, '--to', now);
  const date = parseDate(values.date, '--date', now);
  // Named from what was given: not every command takes --date.
  const given = [values.week !== undefined && '--week', Boolean(from || to) && '--from/--to', Boolean(date) && '--date'].filter(Boolean);
  if (given.length > 1) throw new UsageError(`${given.join(' and ')} cannot be combined: give one of them.`);
  if (date) return { from: date, to: date };
  if (from || to) {
    if (from && to && from > to) throw new UsageError(`--from (${from}) is after --to (${to}).`);
    return { from, to };
  }
  if (values.week !== undefined || fallback === 'week') {
    const w = isoWeek(values.week, now);
    return { from: w.from, to: w.to };
  }
  return {};
}

/** A wall-clock time HH:mm (9:05 is accepted as 09:05). */
export function parseClock(value: string | undefined, option: string): string | undefined {
  if (value === undefined) return undefined;
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!m) throw new UsageError(`${option} must be a time HH:MM (24-hour, in the workspace's time zone), not '${value}'.`);
  return `${m[1].padStart(2, '0')}:${m[2]}`;
}

/**
 * The range of a report, which needs both ends. One rule for a range with one
 * end, as `entries` reads it (open on the other side): a lone --from runs up to
 * today (or is that one day when it is later), a lone --to starts 364 days
 * before it (365 days, the longest span the uninvoiced report takes). Nothing
 * given: this ISO week ('week') or the 365 days up to today ('year').
 */
export function reportRange(values: Record<string, string | undefined>, fallback: 'week' | 'year', now = new Date()): { from: string; to: string } {
  const range = dateRange(values, fallback === 'week' ? 'week' : 'none', now);
  const todayIso = isoDate(today(now));
  const to = range.to ?? (range.from && range.from > todayIso ? range.from : todayIso);
  return { from: range.from ?? isoDate(addDays(new Date(`${to}T00:00:00Z`), -364)), to };
}
