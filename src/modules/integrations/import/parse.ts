import { parse as parseCsv } from 'csv-parse/sync';
import { ApiError, badRequest } from '../../../errors.ts';
import { clockify } from './formats/clockify.ts';
import { harvest } from './formats/harvest.ts';
import { kimai } from './formats/kimai.ts';
import { solidtime } from './formats/solidtime.ts';
import { toggl } from './formats/toggl.ts';
import { lineProblem, said, type ImportProblem, type LineProblem } from './problems.ts';
import { NUMBERS_FIRST_DATE, RowProblem, TRACKERS, TRACKER_NAMES, type DateOrder, type ImportRow, type Record_, type Tracker, type TrackerFormat } from './row.ts';

/**
 * A tracker's CSV export to rows of the common shape: the bytes as UTF-8 (a byte-order
 * mark dropped), the separator sniffed from the header line (',', ';' or a tab), the
 * tracker detected from the header's columns or taken as given, every record mapped.
 * A wrong format or any row that cannot be mapped is one 400 that names each line and
 * why (at most MAX_LISTED of them), so nothing of the file is imported.
 */

export const FORMATS: Record<Tracker, TrackerFormat> = { toggl, clockify, harvest, solidtime, kimai };

/** How many of a file's bad rows an error lists (the message names the first). */
export const MAX_LISTED = 50;

export interface ParsedFile {
  tracker: Tracker;
  rows: ImportRow[];
  /** What the preview warns of in the file itself (dates that read either way). */
  warnings: LineProblem[];
}

export interface ParseOptions {
  /** Which tracker made the file; detected from the header when not given. */
  tracker?: Tracker;
  /** How the file writes day and month before the year; told from its dates when not given. */
  dates?: DateOrder;
}

/**
 * The order of a file's numbers-first dates (03/04/2026), told from the dates themselves: a
 * first number over 12 is a day, a second one over 12 is a day too. A file of a few weeks has
 * such a date, and one that has only the first kind is day first. Otherwise month first,
 * Clockify's default: a file with both kinds has rows that fail whichever order is chosen (as
 * they should), and one whose every such date reads either way (the 1st to the 12th of the
 * months it covers) is read month first with a warning naming its first such date, since
 * nothing in the file tells and the importer can choose the order. Only the date columns (a
 * name with Date or Datum) are read: a note that is a date says nothing of the file's order.
 */
function dateOrderOf(records: ReadonlyArray<{ line: number; record: string[] }>, header: string[]): { order: DateOrder; warning: LineProblem | null } {
  let dayFirst = false;
  let monthFirst = false;
  let either: { line: number; column: string; value: string } | null = null;
  const columns = header.flatMap((name, j) => (/date|datum/i.test(name) ? [j] : []));
  for (const { line, record } of records) {
    for (const j of columns) {
      const cell = (record[j] ?? '').trim();
      // Cheap before the expression: such a date is 8 to 10 characters and starts with a digit.
      if (cell.length < 8 || cell.length > 10 || cell.charCodeAt(0) < 48 || cell.charCodeAt(0) > 57) continue;
      const m = NUMBERS_FIRST_DATE.exec(cell);
      if (!m) continue;
      if (+m[1] > 12) dayFirst = true;
      else if (+m[3] > 12) monthFirst = true;
      else either ??= { line, column: header[j], value: cell };
    }
  }
  if (dayFirst && !monthFirst) return { order: 'day_first', warning: null };
  if (dayFirst || monthFirst || either === null) return { order: 'month_first', warning: null };
  const [, month, , day, year] = NUMBERS_FIRST_DATE.exec(either.value)!;
  const read = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  return { order: 'month_first', warning: lineProblem(either.line, 'dates_read_month_first', { column: either.column, value: either.value, read_as: read }) };
}

function separatorOf(text: string): string {
  const first = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  const count = (c: string) => first.split(c).length - 1;
  const candidates = [',', ';', '\t'].map((c) => [c, count(c)] as const).sort((a, b) => b[1] - a[1]);
  return candidates[0][1] > 0 ? candidates[0][0] : ',';
}

/**
 * The error of a file that cannot be imported: 400, field `file`, what is wrong (the English
 * `message`, and as a word with its values, problems.ts), and the lines at fault and why.
 */
export function fileError(problem: ImportProblem, values: Record<string, string | number> = {}, problems: LineProblem[] = []): ApiError {
  const { message, ...word } = said(problem, values);
  return badRequest(message, { field: 'file', ...word, ...(problems.length ? { problems: problems.slice(0, MAX_LISTED) } : {}) });
}

/** The error of a file with lines that cannot be imported: the first named, the rest counted, each listed. */
export function linesAtFault(problems: LineProblem[]): ApiError {
  return fileError('lines_at_fault', { line: problems[0].line, first: problems[0].message, more: problems.length - 1 }, problems);
}

/** Which tracker a header is, or null. */
export function detectTracker(header: string[]): Tracker | null {
  return TRACKERS.find((t) => FORMATS[t].matches(header)) ?? null;
}

function missingColumns(groups: string[][], header: string[]): string[] {
  return groups.filter((group) => !group.some((c) => header.includes(c))).map((group) => group.join(' or '));
}

/** A header that lacks columns `format` reads: refused once, for line 1 (a file of another tracker's, or one cut short). */
function checkHeader(format: TrackerFormat, header: string[]) {
  const name = TRACKER_NAMES[format.tracker];
  const missing = missingColumns([...format.required, ...(format.needs ?? [])], header);
  if (missing.length === 0) return;
  const problems = [lineProblem(1, 'missing_columns', { missing: missing.join(', ') })];
  if (missingColumns(format.required, header).length) throw fileError('not_this_export', { tracker: name, missing: missing.join(', ') }, problems);
  throw fileError('header_lacks', { tracker: name, missing: missing.join(', ') }, problems);
}

export function parseExport(data: Buffer | string, options: ParseOptions = {}): ParsedFile {
  const text = typeof data === 'string' ? data : data.toString('utf8');
  if (text.includes('\uFFFD')) throw fileError('not_utf8');
  let records: string[][];
  try {
    // Empty lines are kept (and skipped below), so each record's line is known by counting:
    // csv-parse's `info` would tell it too, at twice the parsing time.
    records = parseCsv(text, { bom: true, delimiter: separatorOf(text.replace(/^\uFEFF/, '')), relax_column_count: true }) as string[][];
  } catch (err) {
    const e = err as { lines?: number; message?: string };
    throw fileError('not_csv', { line: e.lines ?? '?', reason: e.message ?? 'unreadable' }, [lineProblem(e.lines ?? 0, 'not_csv_line', { reason: e.message ?? 'not CSV' })]);
  }
  const newlines = (record: string[]) => record.reduce((n, c) => (c.includes('\n') ? n + c.split('\n').length - 1 : n), 0);
  let next = 1;
  while (records.length && records[0].every((c) => c.trim() === '')) {
    records.shift();
    next++;
  }
  if (records.length === 0) throw fileError('empty_file');
  const header = records[0].map((h) => h.trim());
  next += 1 + newlines(records[0]);
  const tracker = options.tracker ?? detectTracker(header);
  if (!tracker) {
    throw fileError(
      'not_a_known_export',
      { trackers: TRACKERS.map((t) => TRACKER_NAMES[t]).join(', '), header: `${header.slice(0, 8).join(', ')}${header.length > 8 ? ', …' : ''}` },
      [lineProblem(1, 'unknown_header')],
    );
  }
  const format = FORMATS[tracker];
  checkHeader(format, header);
  const problems: LineProblem[] = [];
  const entries: Array<{ line: number; record: string[] }> = [];
  for (let i = 1; i < records.length; i++) {
    const record = records[i];
    // A record starts on the line after the previous one ended; a quoted field may span lines.
    const line = next;
    next += 1 + newlines(record);
    if (record.every((c) => c.trim() === '')) continue;
    if (record.length > header.length && record.slice(header.length).some((c) => c.trim() !== '')) {
      problems.push(lineProblem(line, 'field_count', { fields: record.length, header: header.length }));
      continue;
    }
    entries.push({ line, record });
  }
  const told = options.dates === undefined ? dateOrderOf(entries, header) : { order: options.dates, warning: null };
  const rows: ImportRow[] = [];
  for (const { line, record } of entries) {
    const r: Record_ = {};
    header.forEach((h, j) => (r[h] = record[j] ?? ''));
    try {
      rows.push({ line, ...format.map(r, header, told.order) });
    } catch (err) {
      if (!(err instanceof RowProblem)) throw err;
      problems.push(lineProblem(line, err.problem, err.values));
    }
  }
  if (problems.length) throw linesAtFault(problems.sort((a, b) => a.line - b.line));
  if (rows.length === 0) throw fileError('no_entries');
  return { tracker, rows, warnings: told.warning ? [told.warning] : [] };
}
