/**
 * Working patterns, pure (patterns.test.ts): hours per weekday as typed (durations, as
 * every hours field of the app: `8`, `7:30`, `7,5`; empty is 0), the body they make and the
 * week's total, summed in whole seconds.
 */
import { parseDuration, secondsToHours } from '../../ui/duration.ts';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export type WeekHours = Record<Weekday, number>;

/** A new pattern's hours to begin with: 8 on Monday to Friday. */
export const STANDARD_WEEK: WeekHours = { monday: 8, tuesday: 8, wednesday: 8, thursday: 8, friday: 8, saturday: 0, sunday: 0 };

/** One weekday's hours as typed: 0 to 24, empty is 0; null when it is not hours. */
export function dayHours(typed: string): number | null {
  const parsed = parseDuration(typed);
  return 'error' in parsed ? null : secondsToHours(parsed.seconds);
}

/** The seven fields as the API takes them, or the weekdays that are not hours. */
export function weekHours(typed: Record<Weekday, string>): { hours: WeekHours } | { invalid: Weekday[] } {
  const invalid = WEEKDAYS.filter((d) => dayHours(typed[d]) === null);
  if (invalid.length > 0) return { invalid };
  return { hours: Object.fromEntries(WEEKDAYS.map((d) => [d, dayHours(typed[d])!])) as WeekHours };
}

/** The week's hours (fields that are not hours count 0), summed in whole seconds. */
export function weeklyTotal(hours: Partial<Record<Weekday, number | null>>): number {
  const seconds = WEEKDAYS.reduce((sum, d) => sum + Math.round((hours[d] ?? 0) * 3600), 0);
  return secondsToHours(seconds);
}

/** The weekday hours of a stored pattern. */
export const hoursOf = (pattern: WeekHours): WeekHours => Object.fromEntries(WEEKDAYS.map((d) => [d, pattern[d]])) as WeekHours;
