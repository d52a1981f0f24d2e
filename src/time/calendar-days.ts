import type { WeekStart } from '../db/types.ts';

/**
 * Calendar days (YYYY-MM-DD) as UTC midnights, with plain Date arithmetic: the planner and
 * capacity work out thousands of days per request, where luxon's parsing per day cost a
 * second for 200 people × 26 weeks (docs/decisions.md, "Planning").
 */

export const DAY_MS = 86_400_000;

/** The UTC midnight of a day, in milliseconds. */
export const msOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The day of a UTC midnight. */
export const dayAt = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The day `days` after `day` (before, when negative). */
export const addDays = (day: string, days: number) => dayAt(msOf(day) + days * DAY_MS);

/** 1 = Monday … 7 = Sunday (ISO), of a UTC midnight. */
export const isoWeekdayAt = (ms: number) => ((new Date(ms).getUTCDay() + 6) % 7) + 1;

/**
 * The first day of the workspace week (`week_start`) holding `day`. Every create and change of
 * time runs it (the week lock), and the planner once per column, so it is plain arithmetic on
 * the UTC midnight (docs/decisions.md: "weekStartOf / weekEndOf without luxon").
 */
export function weekStartOf(day: string, weekStart: WeekStart): string {
  const ms = msOf(day);
  const startDay = weekStart === 'monday' ? 1 : weekStart === 'sunday' ? 0 : 6; // Date#getUTCDay numbering
  const back = (new Date(ms).getUTCDay() - startDay + 7) % 7;
  return dayAt(ms - back * DAY_MS);
}

/** The last day of the week that starts on `weekStart`. */
export const weekEndOf = (weekStart: string) => addDays(weekStart, 6);
