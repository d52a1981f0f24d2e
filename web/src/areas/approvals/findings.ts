import type { BLOCKER_CODES, WARNING_CODES } from '../../../../src/modules/tracking/approvals/codes.ts';
import { isDate } from '../../ui/dates.ts';
import type { Format } from '../../ui/format.ts';
import type { useApprovalTexts } from './texts.ts';

/**
 * A preflight blocker or warning as the approver reads it: written from its code and its
 * numbers in the person's language (hours and dates through their formatter), not the
 * server's English `message`. A code this app does not know yet (a newer server) shows
 * the server's message; so does a known code whose details are not there as expected.
 */

/** A blocker or warning as the preflight sends it (src/modules/tracking/approvals/preflight.ts). */
export interface Finding {
  code: string;
  message: string;
  [detail: string]: unknown;
}

type Texts = ReturnType<typeof useApprovalTexts>;
type Code = (typeof BLOCKER_CODES)[number] | (typeof WARNING_CODES)[number];
type Sentence = (f: Finding, t: Texts, format: Format) => string | null;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const list = (v: unknown): unknown[] | null => (Array.isArray(v) ? v : null);
const days = (v: unknown): string[] | null => {
  const all = list(v);
  return all && all.length > 0 && all.every(isDate) ? all : null;
};
/** Decimal hours as a plain number of the locale ("19,5" in German), beside the unit "h". */
const hours = (format: Format, h: number) => format.number(h, 2);
const dayList = (format: Format, dates: string[]) => format.list(dates.map((d) => format.weekday(d)));

/** Every code the server can send (the test checks this against the server's list), with its sentence. */
export const FINDING_SENTENCES: Record<Code, Sentence> = {
  running_timer: (_f, t) => t('findings.running_timer'),
  unsubmitted_time: (f, t) => {
    const entries = list(f.time_entry_ids);
    const expenses = list(f.expense_ids);
    return entries && expenses ? t('findings.unsubmitted_time', { count: entries.length + expenses.length }) : null;
  },
  hours_below_expected: (f, t, format) => {
    const tracked = num(f.tracked_hours);
    const expected = num(f.expected_hours);
    return tracked === null || expected === null ? null : t('findings.hours_below_expected', { tracked: hours(format, tracked), expected: hours(format, expected) });
  },
  outside_working_capacity: (f, t, format) => {
    const tracked = num(f.tracked_hours);
    const capacity = num(f.capacity_hours);
    const dates = days(f.dates);
    if (tracked !== null && capacity !== null) {
      const above = { tracked: hours(format, tracked), capacity: hours(format, capacity) };
      return dates ? t('findings.outside_working_capacity_onDays', { ...above, days: dayList(format, dates) }) : t('findings.outside_working_capacity', above);
    }
    return dates ? t('findings.outside_working_capacity_daysOnly', { days: dayList(format, dates) }) : null;
  },
  overlapping_entries: (_f, t) => t('findings.overlapping_entries'),
  break_missing: (f, t, format) => {
    const short = list(f.days);
    if (!short?.length) return null;
    const parts: string[] = [];
    for (const d of short) {
      const day = d as { date?: unknown; break_minutes?: unknown; required_minutes?: unknown };
      const taken = num(day.break_minutes);
      const required = num(day.required_minutes);
      if (!days([day.date]) || taken === null || required === null) return null;
      parts.push(t('findings.breakDay', { day: format.weekday(day.date as string), taken: format.number(taken, 0), required: format.number(required, 0) }));
    }
    return t('findings.break_missing', { days: format.list(parts) });
  },
};

const isKnown = (code: string): code is Code => Object.hasOwn(FINDING_SENTENCES, code);

/** The sentence of a blocker or warning in the person's language; the server's message for a code (or a shape) the app does not know. */
export function findingText(finding: Finding, t: Texts, format: Format): string {
  const sentence = isKnown(finding.code) ? FINDING_SENTENCES[finding.code](finding, t, format) : null;
  // A sentence that ends in a list of short dates would end twice in German ("Di., 29. Dez..").
  return sentence?.replace(/\.\.$/, '.') ?? finding.message;
}
