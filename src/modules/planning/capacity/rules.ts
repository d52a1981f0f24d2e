import { Decimal } from 'decimal.js';
import { dayAt, DAY_MS, isoWeekdayAt, msOf } from '../../../time/calendar-days.ts';

/**
 * Working capacity, pure (test/unit/capacity-rules.test.ts): the hours a person is
 * expected to work on each day, from their working pattern (or the workspace's single
 * weekly number, spread over Monday to Friday, when they have none), less their time off
 * and the workspace's holidays; and the break rules' check of a day's time.
 */

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const TIME_OFF_KINDS = ['vacation', 'sick', 'public_holiday', 'unpaid', 'other'] as const;
export type TimeOffKind = (typeof TIME_OFF_KINDS)[number];

export type Pattern = { effective_from: string } & Record<Weekday, string>;

export interface TimeOff {
  /** null: a workspace holiday. */
  user_id: string | null;
  starts_on: string;
  ends_on: string;
  /** Hours off on each day; null: whole days. */
  hours: string | null;
}

export interface BreakRule {
  /** More than this many hours tracked on a day … */
  after_hours: string;
  /** … needs at least this many minutes of breaks. */
  break_minutes: number;
}

/** The longest span a capacity is worked out for at once (the approvals' own bound). */
export const MAX_SPAN_DAYS = 366;


/** The pattern in effect on `date`: the latest that starts on or before it (patterns sorted by effective_from). */
export function patternOn(patterns: readonly Pattern[], date: string): Pattern | null {
  let found: Pattern | null = null;
  for (const p of patterns) if (p.effective_from <= date) found = p;
  return found;
}

/** The hours of one day before time off: the pattern's weekday, else weekly / 5 on Monday to Friday. */
export function baseHours(patterns: readonly Pattern[], fallbackWeekly: string | null, date: string): Decimal | null {
  const weekday = isoWeekdayAt(msOf(date));
  const pattern = patternOn(patterns, date);
  if (pattern) return new Decimal(pattern[WEEKDAYS[weekday - 1]!]);
  if (fallbackWeekly === null) return null;
  return weekday <= 5 ? new Decimal(fallbackWeekly).div(5) : new Decimal(0);
}

export interface DayCapacity {
  date: string;
  /** Hours the pattern gives the day. */
  base: Decimal;
  /** Hours off (time off and holidays), at most `base`. */
  off: Decimal;
  /** What is expected: base less off. */
  hours: Decimal;
  /** The whole day is off (a holiday, or whole-day time off). */
  whole_day_off: boolean;
}

/**
 * Each day's capacity in the inclusive period; null when the person has neither a pattern
 * nor expected weekly hours (nothing is expected of them, as before patterns existed).
 */
export function capacityByDay(
  source: { patterns: readonly Pattern[]; fallbackWeekly: string | null; timeOff: readonly TimeOff[] },
  from: string,
  to: string,
): DayCapacity[] | null {
  if (source.patterns.length === 0 && source.fallbackWeekly === null) return null;
  const sorted = [...source.patterns].sort((a, b) => a.effective_from.localeCompare(b.effective_from));
  // Each pattern's hours per weekday, and the fallback's, as decimals once (not once per day).
  const hoursOf = new Map(sorted.map((p) => [p, WEEKDAYS.map((d) => new Decimal(p[d]))]));
  const zero = new Decimal(0);
  const fallback = source.fallbackWeekly === null ? zero : new Decimal(source.fallbackWeekly).div(5);
  const days: DayCapacity[] = [];
  for (let ms = msOf(from), end = msOf(to); ms <= end; ms += DAY_MS) {
    const date = dayAt(ms);
    const weekday = isoWeekdayAt(ms);
    const pattern = patternOn(sorted, date);
    const base = pattern ? hoursOf.get(pattern)![weekday - 1]! : weekday <= 5 ? fallback : zero;
    let off = zero;
    let wholeDay = false;
    for (const t of source.timeOff) {
      if (t.starts_on > date || t.ends_on < date) continue;
      if (t.hours === null) wholeDay = true;
      else off = off.plus(t.hours);
    }
    if (wholeDay) off = base;
    off = Decimal.min(off, base);
    days.push({ date, base, off, hours: base.minus(off), whole_day_off: wholeDay });
  }
  return days;
}

/** The capacity's total over its days. */
export const totalHours = (days: readonly DayCapacity[]) => days.reduce((sum, d) => sum.plus(d.hours), new Decimal(0));

/** Two date ranges share a day. */
export const overlaps = (a: { starts_on: string; ends_on: string }, b: { starts_on: string; ends_on: string }) => a.starts_on <= b.ends_on && b.starts_on <= a.ends_on;

export interface TimedSpan {
  /** HH:MM */
  started_time?: string | null;
  ended_time?: string | null;
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * The breaks of one day: the gaps between its entries' times, merged where they overlap.
 * Null when an entry of the day has no times (how long its breaks were is unknown).
 */
export function breakMinutes(entries: readonly TimedSpan[]): number | null {
  if (entries.some((e) => !e.started_time || !e.ended_time)) return null;
  const spans = entries.map((e) => [minutes(e.started_time!), minutes(e.ended_time!)] as const).sort((a, b) => a[0] - b[0]);
  let gaps = 0;
  let end = spans[0]?.[1] ?? 0;
  for (const [s, e] of spans.slice(1)) {
    if (s > end) gaps += s - end;
    end = Math.max(end, e);
  }
  return gaps;
}

/**
 * The break a day of `trackedHours` needs under the rules (the largest rule it passes), or 0.
 * German working-time law as rules: [{after_hours 6, 30 min}, {after_hours 9, 45 min}].
 */
export function requiredBreak(rules: readonly BreakRule[], trackedHours: Decimal): number {
  let need = 0;
  for (const r of rules) if (trackedHours.gt(r.after_hours)) need = Math.max(need, r.break_minutes);
  return need;
}

/** The rules as stored: each once, by after_hours, at most 10. A bad list is the caller's 400. */
export function breakRulesProblem(rules: readonly BreakRule[]): string | null {
  if (rules.length > 10) return 'break_rules holds at most 10 rules.';
  const seen = new Set<string>();
  for (const r of rules) {
    const h = new Decimal(r.after_hours);
    if (h.lte(0) || h.gte(24)) return 'after_hours must be more than 0 and less than 24.';
    if (seen.has(h.toString())) return `after_hours ${h} appears twice.`;
    seen.add(h.toString());
  }
  return null;
}

/** Holidays read from an iCalendar file: each all-day event's dates (a multi-day one, each day). */
export interface HolidayInput {
  name: string;
  starts_on: string;
  ends_on: string;
}

/** The days a range spans. */
export const spanDays = (from: string, to: string) => Math.round((msOf(to) - msOf(from)) / DAY_MS) + 1;
