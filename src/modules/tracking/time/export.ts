import { Decimal } from 'decimal.js';
import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { csvCopyAvailable } from '../../../db/csv-copy.ts';
import { withTenant } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import type { Column, ExportFile, Format, Row } from '../../../http/exports.ts';
import { MAX_PER_PAGE } from '../../../http/pagination.ts';
import { entryAmountDigits, formatMoney, minorUnitDigits } from '../../../money.ts';
import { withTimeSettings, roundHoursNumber, type RoundingRule } from '../week/index.ts';
import { entryHours } from './presenter.ts';
import { copyBatch, type CsvBatch } from './export-sql.ts';
import { exportBatch, type EntryFilter, type ListPosition } from './queries.ts';
import { presentOf } from './service.ts';

/**
 * GET /api/v2/time_entries/export (issue 27 item 4): every entry the list would give
 * the caller with the same filters, all pages, in the list's order, as a streamed
 * CSV or XLSX (src/http/exports.ts writes it). The rows are the list's own query
 * (exportBatch: its visibility and filters), read in keyset batches, each in its
 * own short tenant transaction, only as fast as the download drains.
 *
 * What is shown follows the list: the billable rate (and the amount it gives) only
 * for callers who may see rates (presentOf's view). Hours are the list's hours (a
 * running timer's include the current run up to the export's start), as exact
 * decimal text; the amount is the rounded hours at the stored rate of the work date,
 * to cents, as invoices price time.
 */

/** One batch: the API's largest page. */
const BATCH = MAX_PER_PAGE;
/**
 * One batch the embedded database writes as CSV: about 1.5 MiB of text (memory stays flat),
 * large enough that the per-batch statements (the position, the transaction) cost little.
 */
const COPY_BATCH = 10_000;

const COLUMNS: Column[] = [
  { key: 'spent_date', header: 'Date', date: true },
  { key: 'person', header: 'Person' },
  { key: 'client', header: 'Client' },
  { key: 'project', header: 'Project' },
  { key: 'task', header: 'Task' },
  { key: 'notes', header: 'Notes' },
  { key: 'hours', header: 'Hours', decimal: true },
  { key: 'rounded_hours', header: 'Rounded hours', decimal: true },
  { key: 'billable', header: 'Billable' },
  { key: 'is_billed', header: 'Billed' },
  { key: 'approval_status', header: 'Approval' },
  { key: 'is_running', header: 'Running' },
];
const RATE_COLUMNS: Column[] = [
  { key: 'currency', header: 'Currency' },
  { key: 'billable_rate', header: 'Billable rate', decimal: true },
  { key: 'billable_amount', header: 'Billable amount', decimal: true },
];
const ID_COLUMN: Column = { key: 'id', header: 'Entry ID' };

/** The columns of an export for a caller who does (or does not) see rates. */
export const exportColumns = (rates: boolean): Column[] => [...COLUMNS, ...(rates ? RATE_COLUMNS : []), ID_COLUMN];

type Batch = Awaited<ReturnType<typeof exportBatch>>;

/**
 * Hours as the list shows them (presenter.ts's entryHours, roundHoursNumber): six-place
 * decimals carried in doubles, whose shortest text (String) is that decimal exactly.
 * decimal.js here cost 10 µs a row, a fifth of the aim's budget.
 */
function hoursOf(row: Batch[number], rounding: RoundingRule, now: Date) {
  const { hours } = entryHours(row, now);
  return { hours, rounded: roundHoursNumber(hours, rounding) };
}

/**
 * An entry's amount as formatMoney writes it: rounded hours × rate, half up to the currency's
 * minor unit at most cents (entryAmountDigits: whole yen, cents of a euro), exactly, in integers:
 * the rounded hours in micro-hours (exact, see hoursOf) times the rate in its own decimal places.
 */
export function amountOf(roundedHours: number, rate: string, currency: string): string {
  const digits = entryAmountDigits(currency);
  const [whole, fraction = ''] = rate.split('.');
  if (whole.startsWith('-')) return formatMoney(new Decimal(rate).mul(roundedHours).toDecimalPlaces(digits, Decimal.ROUND_HALF_UP), currency);
  const product = BigInt(Math.round(roundedHours * 1e6)) * BigInt(whole + fraction);
  const divisor = 10n ** BigInt(6 - digits + fraction.length);
  const minor = ((product + divisor / 2n) / divisor).toString().padStart(digits + 1, '0');
  const places = (digits ? minor.slice(-digits) : '').padEnd(minorUnitDigits(currency), '0');
  const units = digits ? minor.slice(0, -digits) : minor;
  return places ? `${units}.${places}` : units;
}

function rowOf(row: Batch[number], rates: boolean, rounding: RoundingRule, now: Date, money: (rate: string, currency: string) => string): Row {
  const { hours, rounded } = hoursOf(row, rounding, now);
  const cells: Row = {
    id: row.id,
    spent_date: row.spent_date,
    person: `${row.first_name} ${row.last_name}`.trim(),
    client: row.client_name,
    project: row.project_name,
    task: row.task_name,
    notes: row.notes,
    hours: String(hours),
    rounded_hours: String(rounded),
    billable: row.billable,
    is_billed: row.is_billed,
    approval_status: row.approval_status,
    is_running: row.is_running,
  };
  if (rates) {
    const rate = row.billable_rate;
    cells.currency = row.currency;
    cells.billable_rate = rate === null ? null : money(rate, row.currency);
    cells.billable_amount = rate === null || !row.billable ? null : amountOf(rounded, rate, row.currency);
  }
  return cells;
}

/** The download's name: the period when the filters give one. */
const fileName = (filter: EntryFilter) => ['time-entries', filter.from, filter.to && `to-${filter.to}`].filter(Boolean).join('-');

/**
 * The export of the entries `p` may see with `filter`. For the tests: `writer: 'node'` writes
 * a CSV from rows even where the database could write it (they compare the two), and `batch`
 * sets the rows per batch of either writer (to cross batch boundaries on a few rows).
 */
export async function exportEntries(
  db: Kysely<DB>,
  p: Principal,
  filter: EntryFilter,
  format: Format,
  now: Date,
  { writer, batch }: { writer?: 'node'; batch?: number } = {},
): Promise<ExportFile> {
  const settings = await withTimeSettings(db, p.companyId, async (_trx, found) => found);
  const { view, rounding } = presentOf(p, settings, now);
  // A workspace has few distinct rates: each is formatted once per download.
  const rateTexts = new Map<string, string>();
  const money = (rate: string, currency: string) => {
    const key = `${rate} ${currency}`;
    let text = rateTexts.get(key);
    if (text === undefined) rateTexts.set(key, (text = formatMoney(rate, currency)));
    return text;
  };
  const read = (after: ListPosition | null): Promise<Batch> => {
    const rows = withTenant(db, p.companyId, (trx) => exportBatch(trx, p.companyId, p, filter, after, batch ?? BATCH));
    // Read ahead of a download that stops early: its failure is nobody's to handle.
    rows.catch(() => {});
    return rows;
  };
  // One batch read ahead: the next batch's query runs while this one is written out, so the
  // database and this process work at once instead of in turn (the read alone was a third of
  // the time). Still one query at a time per download, and no connection held between them.
  async function* batches(): AsyncGenerator<Row[]> {
    let next: Promise<Batch> | null = read(null);
    while (next) {
      const rows: Batch = await next;
      const last = rows[rows.length - 1];
      next = rows.length < (batch ?? BATCH) ? null : read({ spent_date: last.spent_date, created_at: last.created_key, id: last.id });
      if (rows.length) yield rows.map((row) => rowOf(row, view.rates, rounding, now, money));
    }
  }
  // The embedded database writes the CSV itself (export-sql.ts): decoding its rows into
  // JavaScript was most of the export's time there. The rows above stay the XLSX's source.
  async function* csvLines(): AsyncGenerator<Buffer> {
    let after: ListPosition | null = null;
    const cells = { rates: view.rates, rounding, now };
    for (;;) {
      const { lines, next }: CsvBatch = await copyBatch(db, p, filter, after, batch ?? COPY_BATCH, cells);
      if (!next) return;
      yield lines;
      after = next;
    }
  }
  const byDatabase = format === 'csv' && writer !== 'node' && csvCopyAvailable(db);
  return {
    format,
    name: fileName(filter),
    sheet: 'Time entries',
    columns: exportColumns(view.rates),
    batches: batches(),
    ...(byDatabase && { csvLines: csvLines() }),
  };
}
