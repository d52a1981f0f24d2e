import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { copyCsv } from '../../../db/csv-copy.ts';
import { FORMULA_STARTS } from '../../../http/exports.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { minorDigitsSql, workspaceCurrencies } from '../../../db/money-sql.ts';
import { ENTRY_AMOUNT_MAX_DIGITS } from '../../../money.ts';
import { roundedMicroSql, type RoundingRule } from '../week/index.ts';
import { exportCurrency, exportRows, listPositionOf, type EntryFilter, type ListPosition } from './queries.ts';
import { MAX_ENTRY_SECONDS } from './rules.ts';

/**
 * The time-entry export's CSV written by the embedded database (COPY, src/db/csv-copy.ts):
 * each cell of export.ts's rowOf in SQL, so that the file is byte for byte the one the
 * Node.js writer gives for the same rows (test/time-entries-export.test.ts compares the two
 * on every rounding rule, role and currency). A change to a cell's rule in export.ts needs
 * its twin here. Used on PGlite only, where it writes about three times the rows a second (docs/decisions.md).
 *
 * Hours are counted in micro-hours (bigint), as the Node.js side does in doubles:
 *   - entered hours (no running timer): numeric(9, 6) × 10⁶, exact;
 *   - otherwise seconds, with a running timer's whole seconds since it started (to the
 *     millisecond the driver would have parsed) up to the export's `now`, at most 24 h;
 *     micro-hours = round(seconds / 3600 × 10⁶) half up = (seconds × 5000 + 9) / 18, as
 *     secondsToHoursNumber (never a tie: the fraction is k/9);
 *   - the workspace's rounding as roundHoursNumber does it (roundedMicroSql, its SQL twin).
 * Text as JavaScript's String() prints those doubles: trailing zeros dropped (trim_scale).
 */

/** The characters String.prototype.trim() removes (WhiteSpace and LineTerminator). */
export const JS_WHITESPACE = ' \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

/** formatMoney in SQL: the amount with at least the currency's minor digits, more only when it has them. */
const money = (amount: RawBuilder<unknown>, digits: RawBuilder<unknown>) => sql`round(${amount}, greatest(${digits}, scale(trim_scale(${amount}))))::text`;

/** micro-hours as String(micro / 1e6) prints them. */
const hoursText = (micro: RawBuilder<unknown>) => sql`trim_scale(${micro} * 0.000001)::text`;

const yesNo = (flag: RawBuilder<unknown>) => sql`case when ${flag} then 'yes' else 'no' end`;

/** exports.ts's inertText: text a spreadsheet would read as a formula starts with an apostrophe. */
const inert = (text: RawBuilder<unknown>) =>
  sql`case when left(${text}, 1) in (${sql.join(FORMULA_STARTS.map((c) => sql.lit(c)))}) then '''' || ${text} else ${text} end`;

/** What a cell shows: rates or not, the workspace's rounding, and the moment a running timer counts to. */
export interface CsvCells {
  rates: boolean;
  rounding: RoundingRule;
  now: Date;
}

/** The export's rows after `after` as the SQL of their CSV cells (every value text, or null for an empty field). */
export function csvCellsQuery(
  trx: Tx,
  p: Principal,
  filter: EntryFilter,
  after: ListPosition | null,
  limit: number,
  cells: CsvCells,
  currencies: readonly string[],
) {
  const { rates, rounding, now } = cells;
  const micro = sql`h.micro`;
  const rounded = sql`r.micro`;
  return exportRows(trx, p.companyId, p, filter, after)
    .innerJoinLateral(
      () =>
        trx
          .selectNoFrom(
            sql<string>`case when te.hours_entered is not null and te.timer_started_at is null
              then (te.hours_entered * 1000000)::bigint
              else (least(${sql.lit(MAX_ENTRY_SECONDS)}, te.duration_seconds::bigint + case when te.timer_started_at is null then 0
                else greatest(0, floor(extract(epoch from ${now.toISOString()}::timestamptz - date_trunc('milliseconds', te.timer_started_at))))::bigint end)
                * 5000 + 9) / 18 end`.as('micro'),
          )
          .as('h'),
      (j) => j.onTrue(),
    )
    .innerJoinLateral(() => trx.selectNoFrom(roundedMicroSql(micro, rounding).as('micro')).as('r'), (j) => j.onTrue())
    .innerJoinLateral(
      () => trx.selectNoFrom([exportCurrency().as('code'), minorDigitsSql(exportCurrency(), currencies).as('digits')]).as('cur'),
      (j) => j.onTrue(),
    )
    .select([
      sql`te.spent_date::text`.as('spent_date'),
      inert(sql`nullif(btrim(u.first_name || ' ' || u.last_name, ${JS_WHITESPACE}), '')`).as('person'),
      inert(sql`nullif(c.name, '')`).as('client'),
      inert(sql`nullif(p.name, '')`).as('project'),
      inert(sql`nullif(t.name, '')`).as('task'),
      inert(sql`nullif(te.notes, '')`).as('notes'),
      hoursText(micro).as('hours'),
      hoursText(rounded).as('rounded_hours'),
      yesNo(sql`te.billable`).as('billable'),
      yesNo(sql`te.is_billed`).as('is_billed'),
      sql`te.approval_status::text`.as('approval_status'),
      yesNo(sql`te.is_running`).as('is_running'),
      ...(rates
        ? [
            sql`cur.code`.as('currency'),
            money(sql`te.billable_rate`, sql`cur.digits`).as('billable_rate'),
            sql`case when te.billable then ${money(sql`round(${rounded} * 0.000001 * te.billable_rate, least(cur.digits, ${sql.lit(ENTRY_AMOUNT_MAX_DIGITS)}))`, sql`cur.digits`)} end`.as(
              'billable_amount',
            ),
          ]
        : []),
      sql`te.id::text`.as('id'),
    ])
    .limit(limit);
}

/** One batch of the export as CSV lines, and where the next starts (null when the batch was empty: the end). */
export interface CsvBatch {
  lines: Buffer;
  next: ListPosition | null;
}

/**
 * The batch of at most `limit` entries after `after` as CSV lines in the columns of
 * exportColumns(rates), and the position of its last entry, in one tenant transaction.
 * On the embedded database a transaction has the database to itself, so the position
 * read after the COPY is the one the COPY saw.
 */
export function copyBatch(
  db: Kysely<DB>,
  p: Principal,
  filter: EntryFilter,
  after: ListPosition | null,
  limit: number,
  cells: CsvCells,
): Promise<CsvBatch> {
  return withTenant(db, p.companyId, async (trx) => {
    const query = csvCellsQuery(trx, p, filter, after, limit, cells, cells.rates ? await workspaceCurrencies(trx, p.companyId) : []);
    const lines = await copyCsv(trx, query);
    if (lines.length === 0) return { lines, next: null };
    // The entry id is the last column of every line, 36 characters that are never quoted.
    const lastId = lines.toString('latin1', lines.length - 37, lines.length - 1);
    const next = await listPositionOf(trx, p.companyId, lastId);
    if (!next) throw new Error(`the export's last entry ${lastId} is not in the database`);
    // A short batch is the last one too, but counting CSV lines (quoted newlines) costs more than the empty batch that ends the export.
    return { lines, next };
  });
}
