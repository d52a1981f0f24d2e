import { UsageError } from '../output.ts';

/**
 * Dates as a person types them: YYYY-MM-DD, "today", "yesterday", and weeks
 * (current, last, or the ISO week 2026-W07). A command checks what was typed
 * in its parse (no network) and resolves it in its run against the calendar
 * the server counts in (calendar.ts): "today" is the workspace's date in its
 * time zone and a week starts on the workspace's first day, so `sheaf log`
 * dates an entry as the web app would and `sheaf submit --week` submits one
 * of the workspace's weeks, never parts of two.
 */

export type WeekStart = 'monday' | 'sunday' | 'saturday';

/** The server's calendar: the workspace's date today and the first day of its week. */
export interface Calendar {
  today: string;
  weekStart: WeekStart;
}

/** Reads the calendar on first need (calendar.ts): explicit dates cost no request. */
export type CalendarSource = () => Promise<Calendar>;

const pad = (n: number) => String(n).padStart(2, '0');
/** A UTC midnight as YYYY-MM-DD. */
const isoDate = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const midnight = (date: string) => new Date(`${date}T00:00:00Z`);
const addDays = (d: Date, days: number) => new Date(d.getTime() + days * 86_400_000);
const shift = (date: string, days: number) => isoDate(addDays(midnight(date), days));

/** The date in a time zone (undefined: this machine's own). */
export function dateIn(timeZone: string | undefined, now = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** This machine's date and ISO weeks: for a key that may not read its workspace (a personal sync key). */
export function machineCalendar(now = new Date()): Calendar {
  return { today: dateIn(undefined, now), weekStart: 'monday' };
}

function isRealDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = midnight(text);
  return !Number.isNaN(d.getTime()) && isoDate(d) === text;
}

const RELATIVE = new Set(['today', 'yesterday']);

/** A --date value as typed and checked: YYYY-MM-DD, today or yesterday (resolved by `dateOn`). */
export function parseDate(value: string | undefined, option: string): string | undefined {
  if (value === undefined || RELATIVE.has(value)) return value;
  if (!isRealDate(value)) throw new UsageError(`${option} must be a date YYYY-MM-DD (or today, yesterday), not '${value}'.`);
  return value;
}

/** A checked date (parseDate's) as YYYY-MM-DD, reading the calendar only for today or yesterday. */
export async function dateOn<T extends string | undefined>(word: T, calendar: CalendarSource): Promise<T> {
  if (word === 'today') return (await calendar()).today as T;
  if (word === 'yesterday') return shift((await calendar()).today, -1) as T;
  return word;
}

/** The Monday of ISO week `week` of `year`: week 1 is the week with January 4th in it. */
function isoMonday(year: number, week: number): string {
  const jan4 = new Date(Date.UTC(year, 0, 4));
  return isoDate(addDays(jan4, -((jan4.getUTCDay() + 6) % 7) + (week - 1) * 7));
}

/** 52 or 53: the ISO week of the Monday before December 28th, which is always in the year's last week. */
function weeksIn(year: number): number {
  const dec28 = new Date(Date.UTC(year, 11, 28));
  const monday = addDays(dec28, -((dec28.getUTCDay() + 6) % 7));
  return Math.round((monday.getTime() - midnight(isoMonday(year, 1)).getTime()) / (7 * 86_400_000)) + 1;
}

/** A --week value as typed and checked: current, last, or an ISO week such as 2026-W07. */
function parseWeek(value: string): string {
  if (value === '' || value === 'current' || value === 'last') return value;
  const m = /^(\d{4})-?W(\d{2})$/i.exec(value);
  if (!m) throw new UsageError(`--week must be an ISO week such as 2026-W07 (or current, last), not '${value}'.`);
  const [year, week] = [Number(m[1]), Number(m[2])];
  // Dates are four-digit years from 1000 on (Date.UTC reads 0 to 99 as 1900 to 1999), and the week's days must end by 9999.
  if (year < 1000 || year > 9998) throw new UsageError(`--week must be a week of the years 1000 to 9998, not '${value}'.`);
  const weeks = weeksIn(year);
  if (week < 1 || week > weeks) throw new UsageError(`--week: ${year} has weeks 1 to ${weeks}, not ${week}.`);
  return `${m[1]}-W${m[2]}`;
}

/** How many days a workspace's week starts before its Monday, and the weekday (0 Sunday) it starts on. */
const WEEK_START: Record<WeekStart, { beforeMonday: number; weekday: number }> = {
  monday: { beforeMonday: 0, weekday: 1 },
  sunday: { beforeMonday: 1, weekday: 0 },
  saturday: { beforeMonday: 2, weekday: 6 },
};

/**
 * The workspace's week of a checked --week: current and last from its today;
 * an ISO week is the workspace's week that holds that week's Monday (2026-W45,
 * 2 to 8 November, is 1 to 7 November where weeks start on Sunday).
 */
function weekOn(week: string, cal: Calendar): { from: string; to: string } {
  const start = WEEK_START[cal.weekStart];
  let from: string;
  const m = /^(\d{4})-W(\d{2})$/.exec(week);
  if (m) from = shift(isoMonday(Number(m[1]), Number(m[2])), -start.beforeMonday);
  else {
    // parseWeek's other values: current ('' too) and last.
    from = shift(cal.today, -((midnight(cal.today).getUTCDay() - start.weekday + 7) % 7));
    if (week === 'last') from = shift(from, -7);
  }
  return { from, to: shift(from, 6) };
}

/** A range as typed and checked: a --week, dates (--from/--to, or --date for one day), or nothing. */
export interface RangeInput {
  week?: string;
  from?: string;
  to?: string;
}

/** Checks --week, or --from/--to (and --date for one day); `fallback` 'week' means this week when none is given. */
export function dateRange(values: Record<string, string | undefined>, fallback: 'week' | 'none'): RangeInput {
  const from = parseDate(values.from, '--from');
  const to = parseDate(values.to, '--to');
  const date = parseDate(values.date, '--date');
  // Named from what was given: not every command takes --date.
  const given = [values.week !== undefined && '--week', Boolean(from || to) && '--from/--to', Boolean(date) && '--date'].filter(Boolean);
  if (given.length > 1) throw new UsageError(`${given.join(' and ')} cannot be combined: give one of them.`);
  if (date) return { from: date, to: date };
  if (from || to) {
    if (from && to && !RELATIVE.has(from) && !RELATIVE.has(to)) inOrder(from, to);
    return { from, to };
  }
  if (values.week !== undefined) return { week: parseWeek(values.week) };
  return fallback === 'week' ? { week: 'current' } : {};
}

function inOrder(from: string, to: string) {
  if (from > to) throw new UsageError(`--from (${from}) is after --to (${to}).`);
}

/** A checked range (dateRange's) as dates, open on a side that was not given. */
export async function rangeOn(range: RangeInput, calendar: CalendarSource): Promise<{ from?: string; to?: string }> {
  if (range.week !== undefined) return weekOn(range.week, await calendar());
  const [from, to] = [await dateOn(range.from, calendar), await dateOn(range.to, calendar)];
  if (from && to) inOrder(from, to);
  return { from, to };
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
 * given: this week (dateRange's 'week') or the 365 days up to today ('none').
 */
export async function reportRangeOn(range: RangeInput, calendar: CalendarSource): Promise<{ from: string; to: string }> {
  const given = await rangeOn(range, calendar);
  const to = given.to ?? (await laterOfToday(given.from, calendar));
  return { from: given.from ?? shift(to, -364), to };
}

/** `date` when it is after today, else today. */
async function laterOfToday(date: string | undefined, calendar: CalendarSource): Promise<string> {
  const today = (await calendar()).today;
  return date && date > today ? date : today;
}
