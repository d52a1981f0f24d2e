/**
 * The time off pages' pure rules (rules.test.ts): which year a page shows, which kinds a
 * person may choose, the list in date order, the body a time off or holiday form sends, and
 * the break rules' rows as typed and as the API takes them.
 */
import { HttpError } from '../../api/call.ts';
import { isDate } from '../../ui/dates.ts';
import { parseDuration, secondsToHours } from '../../ui/duration.ts';
import type { BreakRule, StoredBreakRule, TimeOff, TimeOffKind } from './api.ts';

export const KINDS: readonly TimeOffKind[] = ['vacation', 'sick', 'public_holiday', 'unpaid', 'other'];

/** The kinds a person may record as their own: public holidays are the administrators' (the server's rule too). */
export const kindsFor = (administrator: boolean): TimeOffKind[] => KINDS.filter((k) => administrator || k !== 'public_holiday');

/** The year in the URL (?year=2026), else today's (YYYY-MM-DD); the server takes 1900 to 2999. */
export function yearOf(search: URLSearchParams, today: string): number {
  const typed = search.get('year');
  if (typed && /^\d{4}$/.test(typed)) {
    const year = Number(typed);
    if (year >= 1900 && year <= 2999) return year;
  }
  return Number(today.slice(0, 4));
}

/** Holidays are the workspace's (user_id null), shown beside a person's own time off. */
export const isHoliday = (t: Pick<TimeOff, 'user_id'>) => t.user_id === null;

/** By first day, then last day; on the same days the holiday first. */
export const inDateOrder = <T extends Pick<TimeOff, 'starts_on' | 'ends_on' | 'user_id'>>(items: readonly T[]): T[] =>
  [...items].sort((a, b) => a.starts_on.localeCompare(b.starts_on) || a.ends_on.localeCompare(b.ends_on) || Number(!isHoliday(a)) - Number(!isHoliday(b)));

/** The calendar days a range spans (both ends included). */
export const daysIn = (t: Pick<TimeOff, 'starts_on' | 'ends_on'>) => Math.round((Date.parse(`${t.ends_on}T00:00:00Z`) - Date.parse(`${t.starts_on}T00:00:00Z`)) / 86_400_000) + 1;

export interface TimeOffDraft {
  kind: TimeOffKind;
  starts_on: string | null;
  ends_on: string | null;
  /** Whole days, or `hours` off on each day. */
  whole: boolean;
  hours: string;
  name: string;
}

export interface TimeOffValues {
  kind: TimeOffKind;
  starts_on: string;
  ends_on: string;
  hours: number | null;
  name: string | null;
}

/** Hours off per day as typed (`4`, `3:30`, `2,5`): more than nothing, at most a day. */
export function hoursPerDay(typed: string): { hours: number } | { error: 'format' | 'empty' } {
  const parsed = parseDuration(typed);
  if ('error' in parsed) return { error: 'format' };
  if (parsed.seconds <= 0) return { error: 'empty' };
  return { hours: secondsToHours(parsed.seconds) };
}

/**
 * What the form sends: the last day defaults to the first; whole days send `hours: null`;
 * an empty note is none. Null when the form is incomplete (its fields say why).
 */
export function timeOffValues(draft: TimeOffDraft): TimeOffValues | null {
  if (!draft.starts_on) return null;
  let hours: number | null = null;
  if (!draft.whole) {
    const h = hoursPerDay(draft.hours);
    if ('error' in h) return null;
    hours = h.hours;
  }
  return { kind: draft.kind, starts_on: draft.starts_on, ends_on: draft.ends_on ?? draft.starts_on, hours, name: draft.name.trim() || null };
}

/**
 * Hours off per day of a holiday as typed: empty is the whole day (`null`), else the time off
 * form's rule and format (`4`, `3:30`, `3,5`; more than nothing, at most a day).
 */
export function holidayHours(typed: string): { hours: number | null } | { error: 'format' | 'empty' } {
  return typed.trim() === '' ? { hours: null } : hoursPerDay(typed);
}

export interface HolidayDraft {
  name: string;
  starts_on: string | null;
  ends_on: string | null;
  /** As typed; empty: the whole day. */
  hours: string;
}

export interface HolidayValues {
  name: string;
  starts_on: string;
  ends_on: string;
  hours: number | null;
}

/**
 * What the holiday form sends: the last day defaults to the first; no hours are whole days
 * (`hours: null`). Null when the form is incomplete or its hours do not read (its fields say why).
 * `kept`: the hours stored and the text the form showed for them, so an untouched field sends
 * them back as stored, not as rounded for the field (2.666667 shown as 2.67).
 */
export function holidayValues(draft: HolidayDraft, kept?: { text: string; hours: number | null }): HolidayValues | null {
  if (!draft.starts_on) return null;
  const h = kept && draft.hours === kept.text ? { hours: kept.hours } : holidayHours(draft.hours);
  if ('error' in h) return null;
  return { name: draft.name.trim(), starts_on: draft.starts_on, ends_on: draft.ends_on ?? draft.starts_on, hours: h.hours };
}

/**
 * The days of the time off (or holiday) a save overlaps, when that was the refusal: the server's
 * 400 names starts_on and carries `overlapping_id` with that one's days. Null for any other failure,
 * and for an overlap without its days (then the server's own message is shown).
 */
export function overlapOf(error: unknown): { starts_on: string; ends_on: string } | null {
  if (!(error instanceof HttpError) || error.code !== 'invalid_request' || typeof error.body?.overlapping_id !== 'string') return null;
  const { overlapping_starts_on: starts_on, overlapping_ends_on: ends_on } = error.body;
  return isDate(starts_on) && isDate(ends_on) ? { starts_on, ends_on } : null;
}

// ---- break rules ----

/** A break rule as typed: the two numbers, and a key for the list. */
export interface RuleRow {
  key: number;
  after_hours: number;
  break_minutes: number;
}

/** German working-time law (Arbeitszeitgesetz § 4): more than 6 hours, 30 minutes; more than 9 hours, 45 minutes. */
export const GERMAN_LAW: readonly BreakRule[] = [
  { after_hours: 6, break_minutes: 30 },
  { after_hours: 9, break_minutes: 45 },
];

let nextKey = 1;
export const ruleRow = (rule: { after_hours: number | string; break_minutes: number }): RuleRow => ({ key: nextKey++, after_hours: Number(rule.after_hours), break_minutes: rule.break_minutes });

/** The stored rules (after_hours comes back as a string) as rows. */
export const ruleRows = (stored: readonly StoredBreakRule[]): RuleRow[] => stored.map(ruleRow);

export type RuleProblem = 'hours' | 'minutes' | 'twice';

/**
 * The rows as the API takes them, in order of hours; or the first row at fault and why
 * (an empty or out-of-range number, the same hours twice). The server checks the same.
 */
export function breakRulesOf(rows: readonly RuleRow[]): { rules: BreakRule[] } | { problem: RuleProblem; index: number } {
  const seen = new Set<number>();
  for (const [index, r] of rows.entries()) {
    if (!Number.isFinite(r.after_hours) || r.after_hours <= 0 || r.after_hours >= 24) return { problem: 'hours', index };
    if (!Number.isInteger(r.break_minutes) || r.break_minutes < 1 || r.break_minutes > 600) return { problem: 'minutes', index };
    if (seen.has(r.after_hours)) return { problem: 'twice', index };
    seen.add(r.after_hours);
  }
  const rules = rows.map((r) => ({ after_hours: r.after_hours, break_minutes: r.break_minutes })).sort((a, b) => a.after_hours - b.after_hours);
  return { rules };
}

/** Whether the rows say the same as the stored rules (nothing to save). */
export const sameRules = (rows: readonly RuleRow[], stored: readonly StoredBreakRule[]) => {
  const made = breakRulesOf(rows);
  if (!('rules' in made) || made.rules.length !== stored.length) return false;
  return made.rules.every((r, i) => r.after_hours === Number(stored[i].after_hours) && r.break_minutes === stored[i].break_minutes);
};
