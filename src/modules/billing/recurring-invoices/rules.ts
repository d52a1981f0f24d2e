import { DateTime } from 'luxon';

/**
 * The calendar of a recurring invoice: pure rules over `YYYY-MM-DD` dates,
 * unit-tested without a database (test/recurring-invoices.test.ts).
 *
 * - weekly: every week on the anchor weekday (ISO: 1 Monday .. 7 Sunday);
 * - monthly, quarterly, yearly: every 1, 3 or 12 months on the anchor day of
 *   the month, counted from the start date's month (quarterly from March runs
 *   March, June, September, December; yearly in the start date's month). An
 *   anchor day the month does not have (29, 30, 31) is that month's last day;
 *   the next month goes back to the anchor day (31 Jan, 28 Feb, 31 Mar).
 *
 * The first occurrence is the first such date on or after the start date; the
 * last one is on or before the end date (when there is one).
 */

export const FREQUENCIES = ['weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export const SOURCES = ['lines', 'uninvoiced'] as const;
export type Source = (typeof SOURCES)[number];

export const ACTIONS = ['draft', 'send'] as const;
export type Action = (typeof ACTIONS)[number];

/** Months between two occurrences of the month-based frequencies. */
const MONTHS: Record<Exclude<Frequency, 'weekly'>, number> = { monthly: 1, quarterly: 3, yearly: 12 };

export interface Calendar {
  frequency: Frequency;
  anchor_day: number;
  start_date: string;
  end_date: string | null;
}

const day = (iso: string) => DateTime.fromISO(iso, { zone: 'UTC' });
const iso = (d: DateTime) => d.toISODate()!;

/** The anchor day's date in the month of `month` (clamped to the month's last day). */
function inMonth(month: DateTime, anchorDay: number): DateTime {
  const first = month.startOf('month');
  return first.set({ day: Math.min(anchorDay, first.daysInMonth!) });
}

/** Whether `anchorDay` fits the frequency: a weekday 1..7 for weekly, a day of the month 1..31 otherwise. */
export function anchorDayFits(frequency: Frequency, anchorDay: number): boolean {
  return Number.isInteger(anchorDay) && anchorDay >= 1 && anchorDay <= (frequency === 'weekly' ? 7 : 31);
}

/** The first occurrence on or after `from` (which is on or after the start date), ignoring the end date. */
function firstOnOrAfter(c: Calendar, from: string): string {
  const at = day(from);
  if (c.frequency === 'weekly') return iso(at.plus({ days: (c.anchor_day - at.weekday + 7) % 7 }));
  const step = MONTHS[c.frequency];
  const start = day(c.start_date).startOf('month');
  // Whole steps from the start date's month to `from`'s month, then the next step when the date there is too early.
  const monthsSince = (at.year - start.year) * 12 + (at.month - start.month);
  let k = Math.max(0, Math.floor(monthsSince / step));
  let candidate = inMonth(start.plus({ months: k * step }), c.anchor_day);
  while (candidate < at) {
    k += 1;
    candidate = inMonth(start.plus({ months: k * step }), c.anchor_day);
  }
  return iso(candidate);
}

const withinEnd = (c: Calendar, date: string): string | null => (c.end_date !== null && date > c.end_date ? null : date);

/** The first occurrence of the calendar, or null when none falls between start and end. */
export function firstOccurrence(c: Calendar): string | null {
  return withinEnd(c, firstOnOrAfter(c, c.start_date));
}

/** The occurrence after `date` (an occurrence of the calendar), or null when it would fall after the end date. */
export function nextOccurrence(c: Calendar, date: string): string | null {
  return withinEnd(c, firstOnOrAfter(c, iso(day(date).plus({ days: 1 }))));
}

/** The first occurrence on or after `date` (and the start date), or null past the end. */
export function occurrenceOnOrAfter(c: Calendar, date: string): string | null {
  return withinEnd(c, firstOnOrAfter(c, date > c.start_date ? date : c.start_date));
}

/** The occurrence before `date` by the rule, even when it falls before the start date (it bounds a period). */
function previousByRule(c: Calendar, date: string): string {
  const at = day(date);
  if (c.frequency === 'weekly') return iso(at.minus({ days: 7 }));
  return iso(inMonth(at.startOf('month').minus({ months: MONTHS[c.frequency] }), c.anchor_day));
}

/** The occurrence after `date` by the rule, even when it falls after the end date (it bounds a period). */
function nextByRule(c: Calendar, date: string): string {
  const at = day(date);
  if (c.frequency === 'weekly') return iso(at.plus({ days: 7 }));
  return iso(inMonth(at.startOf('month').plus({ months: MONTHS[c.frequency] }), c.anchor_day));
}

const dayBefore = (date: string) => iso(day(date).minus({ days: 1 }));

/**
 * The period an occurrence invoices. Template lines bill the period the
 * occurrence opens, in advance (a monthly fee on 1 March is March's:
 * 1 March – 31 March); uninvoiced work bills the period that just ended, in
 * arrears (on 1 March: 1 February – 28 February), so the work is done when it
 * is invoiced.
 */
export function periodOf(c: Calendar, source: Source, date: string): { start: string; end: string } {
  if (source === 'lines') return { start: date, end: dayBefore(nextByRule(c, date)) };
  return { start: previousByRule(c, date), end: dayBefore(date) };
}
