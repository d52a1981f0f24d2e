import { Decimal } from 'decimal.js';
import { isCurrencyCode } from '../../../money.ts';
import { isWorkDate } from '../../../time/workspace-time.ts';
import { isEmailAddress } from '../../../email-address.ts';
import { RowProblem } from './problems.ts';

/**
 * The common shape every tracker's row maps to, and the field readers the per-tracker
 * modules (formats/*.ts) share. Pure: no I/O. A field that cannot be read throws a
 * RowProblem naming the column; the parser adds the line.
 */

export const TRACKERS = ['toggl', 'clockify', 'harvest', 'solidtime', 'kimai'] as const;
export type Tracker = (typeof TRACKERS)[number];

export const TRACKER_NAMES: Record<Tracker, string> = {
  toggl: 'Toggl Track',
  clockify: 'Clockify',
  harvest: 'Harvest',
  solidtime: 'solidtime',
  kimai: 'Kimai',
};

/** One time entry of an export, as Sheaf reads it. Names are trimmed; empty ones are null. */
export interface ImportRow {
  /** The line of the file the record starts on (1 is the header). */
  line: number;
  client: string | null;
  project: string | null;
  task: string | null;
  person: { name: string | null; email: string | null };
  /** The work date, YYYY-MM-DD (the start's date in the file's own wall-clock time). */
  date: string;
  /** Wall-clock HH:mm of start and end, when the file has both on the work date. */
  startTime: string | null;
  endTime: string | null;
  /** The duration in whole seconds (0 to 86,400). */
  seconds: number;
  /** Hours exactly as the file gives them (Harvest), else null. */
  hours: string | null;
  notes: string | null;
  billable: boolean;
  /**
   * The file's own Billable when the entry's differs from it (a Clockify entry billed at 0 is
   * imported as not billable): rowRef hashes the file's, so the entry keeps the identity
   * earlier imports gave it and importing the file again adds nothing.
   */
  fileBillable?: boolean;
  /**
   * The old tracker invoiced it already (Harvest's "Invoiced?"): imported billed, so the
   * uninvoiced report leaves it out and no Sheaf invoice bills it a second time.
   */
  billedElsewhere?: boolean;
  /** The billable hourly rate, an exact decimal string with at most two places, or null. */
  rate: string | null;
  /** The entry's billable amount when the rate was derived from it (Toggl gives amounts, not rates). */
  amount: string | null;
  currency: string | null;
}

export { RowProblem };

/** A record: the header's column names to the cell's text. */
export type Record_ = Record<string, string>;

/** The cell of `column`, trimmed; '' when the column is absent. */
export const cell = (r: Record_, column: string): string => (r[column] ?? '').trim();

/** A name cell: trimmed, null when empty; longer than 255 characters is a problem (Sheaf's names are). */
export function nameCell(r: Record_, column: string): string | null {
  const v = cell(r, column);
  if (v === '') return null;
  if ([...v].length > 255) throw new RowProblem('too_long', { column, max: 255 });
  return v;
}

/** Notes: kept as written (inner whitespace too), null when empty; at most 10,000 characters. */
export function notesCell(r: Record_, column: string): string | null {
  const v = (r[column] ?? '').trim();
  if (v === '') return null;
  if ([...v].length > 10_000) throw new RowProblem('too_long', { column, max: 10_000 });
  if (v.includes('\u0000')) throw new RowProblem('nul_character', { column });
  return v;
}

export function emailCell(r: Record_, column: string): string | null {
  const v = cell(r, column).toLowerCase();
  if (v === '') return null;
  if (!isEmailAddress(v) || v.length > 320) throw new RowProblem('not_an_email', { column, value: v });
  return v;
}

/** Yes/No as the trackers write it (Yes, No, true, false, 1, 0; Kimai leaves false empty). */
export function yesNo(r: Record_, column: string, emptyIs?: boolean): boolean {
  const v = cell(r, column).toLowerCase();
  if (['yes', 'true', '1', 'ja', 'y'].includes(v)) return true;
  if (['no', 'false', '0', 'nein', 'n'].includes(v)) return false;
  if (v === '' && emptyIs !== undefined) return emptyIs;
  throw new RowProblem('not_yes_no', { column, value: cell(r, column) });
}

function checkedDate(y: number, m: number, d: number, text: string, column: string): string {
  const iso = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const back = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(back.getTime()) || back.getUTCMonth() + 1 !== m || back.getUTCDate() !== d || !isWorkDate(iso)) {
    throw new RowProblem('not_a_date', { column, value: text });
  }
  return iso;
}

/**
 * How a file writes a date whose day and month are both numbers before the year (03/04/2026):
 * month first is Clockify's default (4 March), day first its European settings (3 April).
 * parse.ts tells the file's from its dates (dateOrderOf) unless the importer chose one.
 */
export const DATE_ORDERS = ['month_first', 'day_first'] as const;
export type DateOrder = (typeof DATE_ORDERS)[number];

/**
 * An import option as the page, the routes and `sheaf import` take it: one of `choices`, or
 * `auto` or absent for Sheaf to tell from the file (undefined); null when it is none of these.
 */
export function chosen<T extends string>(choices: readonly T[], value: string | undefined): T | undefined | null {
  if (value === undefined || value === 'auto') return undefined;
  return (choices as readonly string[]).includes(value) ? (value as T) : null;
}

/** A date with day and month before the year, as MM/DD/YYYY, DD/MM/YYYY, MM-DD-YYYY or DD-MM-YYYY write it. */
export const NUMBERS_FIRST_DATE = /^(\d{1,2})([/-])(\d{1,2})\2(\d{4})$/;

/**
 * A date as the trackers write it: YYYY-MM-DD (Toggl, Harvest, Kimai, solidtime); day and
 * month before the year with slashes or dashes, in the file's order (Clockify's settings:
 * MM/DD/YYYY by default, DD/MM/YYYY, MM-DD-YYYY, DD-MM-YYYY); DD.MM.YYYY (German settings).
 * Anything else is a problem.
 */
export function dateText(text: string, column: string, order: DateOrder = 'month_first'): string {
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m) return checkedDate(+m[1], +m[2], +m[3], text, column);
  m = NUMBERS_FIRST_DATE.exec(text);
  if (m) return order === 'day_first' ? checkedDate(+m[4], +m[3], +m[1], text, column) : checkedDate(+m[4], +m[1], +m[3], text, column);
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
  if (m) return checkedDate(+m[3], +m[2], +m[1], text, column);
  throw new RowProblem('not_a_date_format', { column, value: text });
}

/** A time of day, 24-hour (13:05, 13:05:09) or 12-hour (1:05 PM, 01:05:09 pm), as HH:mm. Seconds are dropped. */
export function timeText(text: string, column: string): { hhmm: string; seconds: number } {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/.exec(text);
  if (!m) throw new RowProblem('not_a_time', { column, value: text });
  let h = +m[1];
  const min = +m[2];
  const s = m[3] === undefined ? 0 : +m[3];
  if (m[4]) {
    if (h < 1 || h > 12) throw new RowProblem('not_a_time', { column, value: text });
    const pm = m[4].toLowerCase() === 'pm';
    h = (h % 12) + (pm ? 12 : 0);
  }
  if (h > 23 || min > 59 || s > 59) throw new RowProblem('not_a_time', { column, value: text });
  return { hhmm: `${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`, seconds: h * 3600 + min * 60 + s };
}

/** A duration H:MM or H:MM:SS (hours may exceed 24 in the text; the entry may not). */
export function clockDuration(text: string, column: string): number {
  const m = /^(\d+):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!m || +m[2] > 59 || (m[3] !== undefined && +m[3] > 59)) throw new RowProblem('not_a_duration', { column, value: text });
  return +m[1] * 3600 + +m[2] * 60 + (m[3] === undefined ? 0 : +m[3]);
}

/**
 * A decimal number as exports write it: 1234.5, 1,234.50, or with a decimal comma
 * (Harvest in German settings: 2.000,0 and 0,01). The last of '.' and ',' is the
 * decimal separator when both appear; a lone ',' is one when it is not followed by
 * exactly three digits. Returns an exact decimal string.
 */
export function decimalText(text: string, column: string): string {
  let t = text.replace(/[\s\u00a0']/g, '');
  if (t === '') throw new RowProblem('empty', { column });
  const dot = t.lastIndexOf('.');
  const comma = t.lastIndexOf(',');
  if (dot >= 0 && comma >= 0) {
    t = dot > comma ? t.replaceAll(',', '') : t.replaceAll('.', '').replace(',', '.');
  } else if (comma >= 0) {
    t = /^-?\d{1,3}(,\d{3})+$/.test(t) ? t.replaceAll(',', '') : t.replace(',', '.');
  }
  if (!/^-?\d+(\.\d+)?$/.test(t)) throw new RowProblem('not_a_number', { column, value: text });
  return new Decimal(t).toFixed();
}

/**
 * decimalText for a file whose numbers may have either '.' or ',' as the decimal separator
 * (Kimai writes 1.5 in every language; a spreadsheet in German settings that re-saved the
 * file writes 1,5 and groups thousands with '.'): a lone separator before exactly three
 * digits (1.500, 1,500) could be either, so it is refused rather than guessed.
 */
export function eitherSeparatorDecimal(text: string, column: string): string {
  const t = text.replace(/[\s\u00a0']/g, '');
  if (/^-?[1-9]\d{0,2}[.,]\d{3}$/.test(t)) {
    throw new RowProblem('either_separator', { column, value: text });
  }
  // A lone ',' is the decimal one here (decimalText reads 0,500 as a thousands group).
  return /^-?\d+,\d+$/.test(t) ? decimalText(t.replace(',', '.'), column) : decimalText(text, column);
}

/** The largest hourly rate Sheaf stores (rates.hourly_rate is NUMERIC(12, 2)). */
const MAX_RATE = new Decimal('9999999999.99');

/**
 * An hourly rate as Sheaf stores it: not negative, at most MAX_RATE (a larger one would fail
 * the whole import with the database's "numeric field overflow"), rounded to cents. The
 * problem names the cell it was read from (Rate '12'), and for a rate derived from an amount
 * (Toggl's) the rate and the duration too.
 */
export function checkedRate(rate: Decimal, cellOf: { column: string; value: string }, derived?: { duration: string }): string {
  if (rate.isNegative()) throw new RowProblem('negative', cellOf);
  if (rate.gt(MAX_RATE)) throw new RowProblem(derived ? 'derived_rate_too_large' : 'rate_too_large', derived ? { ...cellOf, rate: rate.toFixed(2), ...derived } : cellOf);
  return rate.toDecimalPlaces(2).toFixed();
}

/**
 * An hourly rate cell: a non-negative amount, rounded to cents (exports write 100.0 or 100.00). Empty is null.
 * `read` reads the number (decimalText, or eitherSeparatorDecimal for a file that may use either separator).
 */
export function rateCell(r: Record_, column: string, read: (text: string, column: string) => string = decimalText): string | null {
  const v = cell(r, column);
  if (v === '') return null;
  return checkedRate(new Decimal(read(v, column)), { column, value: v });
}

/** A duration in decimal hours as whole seconds, checked to fit one entry (at most 24 hours). */
export function hoursToSeconds(hours: string, column: string): number {
  const d = new Decimal(hours);
  if (d.isNegative() || d.gt(24)) throw new RowProblem('hours_out_of_range', { column, value: hours });
  return d.mul(3600).toDecimalPlaces(0).toNumber();
}

export function checkSeconds(seconds: number, column: string): number {
  if (seconds < 0 || seconds > 86_400) throw new RowProblem('duration_out_of_range', { column, hours: (seconds / 3600).toFixed(2) });
  return seconds;
}

/** The currency named in a header such as "Amount (EUR)" or "Billable Rate (USD)". */
export function currencyOfHeader(header: string): string | null {
  const m = /\(([A-Za-z]{3})\)\s*$/.exec(header);
  return m && isCurrencyCode(m[1].toUpperCase()) ? m[1].toUpperCase() : null;
}

/** A currency cell: "EUR", or Harvest's "Euro - EUR". */
export function currencyCell(r: Record_, column: string): string | null {
  const v = cell(r, column);
  if (v === '') return null;
  const code = (/([A-Za-z]{3})\s*$/.exec(v)?.[1] ?? '').toUpperCase();
  if (!isCurrencyCode(code)) throw new RowProblem('not_a_currency', { column, value: v });
  return code;
}

/** An entry's wall-clock times (both or neither) and its seconds; null seconds when nothing says them. */
export interface Span {
  startTime: string | null;
  endTime: string | null;
  seconds: number | null;
}

/**
 * Start and end as one entry: the work date is the start's, the times are kept when the
 * end falls on the same date (an entry past midnight keeps only its duration: Sheaf's times
 * are one day's wall clock). The seconds are end minus start and may be negative (an end
 * before the start, which is the clocks going back or a bad row): withDuration decides.
 */
export function spanOf(
  start: { date: string; time: { hhmm: string; seconds: number } | null },
  end: { date: string; time: { hhmm: string; seconds: number } | null } | null,
): Span {
  if (!start.time || !end?.time) return { startTime: null, endTime: null, seconds: null };
  const days = (Date.parse(`${end.date}T00:00:00Z`) - Date.parse(`${start.date}T00:00:00Z`)) / 86_400_000;
  const seconds = days * 86_400 + end.time.seconds - start.time.seconds;
  const sameDay = days === 0;
  return { startTime: sameDay ? start.time.hhmm : null, endTime: sameDay ? end.time.hhmm : null, seconds };
}

/**
 * A duration the file states in a column of its own: its seconds, and how far the exact
 * duration may lie from them because the file rounded it (Clockify's 1.00 hours: 18 seconds).
 */
export interface StatedDuration {
  seconds: number;
  rounding: number;
}

/** A stated H:MM:SS (exact to the second) or H:MM (to the minute). */
export function statedClock(text: string, column: string): StatedDuration {
  return { seconds: clockDuration(text, column), rounding: text.split(':').length === 3 ? 0 : 30 };
}

/** Stated decimal hours: rounded to their last decimal place (1.00 is within 18 seconds, 0.3333333333 within a fraction of one). */
export function statedHours(text: string, column: string): StatedDuration {
  const places = /[.,](\d+)\s*$/.exec(text)?.[1].length ?? 0;
  return { seconds: hoursToSeconds(decimalText(text, column), column), rounding: 1800 / 10 ** places };
}

/**
 * The entry's times and seconds from its clock times (span) and the duration its file states
 * (null when it states none). The stated duration is what the tracker counted and wins: on the
 * nights the clocks change, end minus start of wall-clock times is an hour off (01:30 to 03:30
 * is one hour when the clocks go forward; 02:50 summer time to 02:10 winter time is twenty
 * minutes that read as an end before the start). The span's own seconds are kept when they are
 * the stated duration before the file rounded it: exact where decimal hours are not, and what
 * earlier imports counted, so their rows keep their identity (rowRef).
 *
 * An end before its start with a positive stated duration keeps the duration and drops both
 * times: Sheaf's entries have both times or neither (started_time and ended_time go together,
 * tracking/time/rules.ts), and kept, these two would read as an end before the start. Without
 * a positive stated duration such a row says nothing of the work's length and is refused.
 */
export function withDuration(span: Span | null, stated: StatedDuration | null): Span {
  if (span === null || span.seconds === null) return { startTime: null, endTime: null, seconds: stated?.seconds ?? null };
  if (span.seconds < 0) {
    if (stated === null || stated.seconds <= 0) throw new RowProblem('ends_before_start');
    return { startTime: null, endTime: null, seconds: stated.seconds };
  }
  if (stated === null || Math.abs(span.seconds - stated.seconds) <= stated.rounding) return span;
  return { ...span, seconds: stated.seconds };
}

/** spanOf for an export that writes the end in a date and a time column (Toggl's, Clockify's): none without both. */
export function spanToColumns(
  r: Record_,
  start: { date: string; time: { hhmm: string; seconds: number } },
  endDateColumn: string,
  endTimeColumn: string,
  order: DateOrder,
): Span | null {
  const endDate = cell(r, endDateColumn);
  const endTime = cell(r, endTimeColumn);
  return endDate && endTime ? spanOf(start, { date: dateText(endDate, endDateColumn, order), time: timeText(endTime, endTimeColumn) }) : null;
}

/** Every tracker's module: how to recognise its header, and how to map one record. */
export interface TrackerFormat {
  tracker: Tracker;
  /** Columns a file must have to be this tracker's (detection and the wrong-format message). */
  required: string[][];
  /**
   * Columns every row is read from that do not tell the tracker (detection ignores them): a
   * file that lacks one is refused once, for its header, rather than once for every row.
   */
  needs?: string[][];
  /** Whether a header is this tracker's: every group of `required` has one column present. */
  matches(header: string[]): boolean;
  /** One record to the common shape (without `line`), its numbers-first dates read in `dates` order. Throws RowProblem. */
  map(record: Record_, header: string[], dates: DateOrder): Omit<ImportRow, 'line'>;
}

/** `required` as a matcher: each group names alternatives of which one must be present. */
export const hasColumns = (required: string[][]) => (header: string[]) => required.every((group) => group.some((c) => header.includes(c)));

/** The first of several column names the header has (exports renamed some over the years). */
export const pick = (header: string[], ...names: string[]): string => names.find((n) => header.includes(n)) ?? names[0];
