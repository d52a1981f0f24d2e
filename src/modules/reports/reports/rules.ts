import { DateTime } from 'luxon';
import { badRequest } from '../../../errors.ts';
import { isIsoDate } from '../../../time/workspace-time.ts';

/** The uninvoiced report spans at most this many days after `from`. */
export const MAX_REPORT_SPAN_DAYS = 365;

/** A report date: `YYYYMMDD` or `YYYY-MM-DD`, returned as `YYYY-MM-DD`; anything else is a 400 naming the field. */
export function parseReportDate(value: string, field: string): string {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value);
  const iso = m ? `${m[1]}-${m[2]}-${m[3]}` : '';
  if (!m || (value.length === 10) !== value.includes('-') || !isIsoDate(iso)) {
    throw badRequest(`${field} must be a date as YYYYMMDD or YYYY-MM-DD.`, { field });
  }
  return iso;
}

/** Checks from ≤ to and, when given, the maximum span. */
export function checkRange(from: string, to: string, maxSpanDays?: number) {
  const a = DateTime.fromISO(from, { zone: 'UTC' });
  const b = DateTime.fromISO(to, { zone: 'UTC' });
  if (b < a) throw badRequest('to must not be before from.', { field: 'to' });
  if (maxSpanDays !== undefined && b.diff(a, 'days').days > maxSpanDays) {
    throw badRequest(`The range may span at most ${maxSpanDays} days.`, { field: 'to' });
  }
}

/** First and last day of the month containing `date`. */
export function monthOf(date: string): { start: string; end: string } {
  const d = DateTime.fromISO(date, { zone: 'UTC' });
  return { start: d.startOf('month').toISODate()!, end: d.endOf('month').toISODate()! };
}
