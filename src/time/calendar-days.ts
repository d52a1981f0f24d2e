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
