import { sql } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';
import { otherRowHas } from '../../../db/rows.ts';
import { conflict } from '../../../errors.ts';
import { advanceNumbering, formatInvoiceNumber, invoiceSettingsOf, numberPattern, sequenceStart } from '../invoice-settings/index.ts';
import { PENDING_NUMBER_PREFIX } from './rules.ts';

/**
 * Invoice numbers: unique in the workspace (unique index invoices_number_key).
 *
 * Every assignment (an explicit number on create or PATCH, or the next free one)
 * happens under a transaction-scoped advisory lock of the workspace's numbering,
 * as the last step of the transaction, so the lock is held only until the commit
 * that follows. Two creates at once therefore never pick the same "next" number,
 * and a duplicate is found by a plain lookup (409) instead of a unique violation
 * that would abort the transaction (the index remains the backstop).
 *
 * Without a number format (invoice settings), the next free number is one more
 * than the largest all-digit number of the workspace (1 for the first invoice);
 * numbers with other characters ("INV-7", "2026/001") are never auto-assigned
 * and do not count.
 *
 * With a format (`{YYYY}-{NNNN}`), the number is the format filled with the
 * invoice's issue year and a sequence number: the settings' next number (1 in a
 * new year when the sequence restarts yearly), or one more than the largest
 * sequence number already taken in that year's numbers if that is higher (an
 * explicit number, a back-dated invoice), so a taken number is never given. The
 * settings' next number then follows the one given, in the same transaction: a
 * rolled-back create gives its number back, and the lock keeps two creates from
 * reading the same next number.
 */

const LOCK_CLASS = 0x53_49_4e; // "SIN": Sheaf invoice numbering

export const pendingNumber = (invoiceId: string) => `${PENDING_NUMBER_PREFIX}${invoiceId}`;

export async function lockNumbering(trx: Tx, companyId: string) {
  await sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(${companyId}))`.execute(trx);
}

/** The next all-digit number (the numbering of a workspace without a number format). */
export async function nextFreeNumber(trx: Tx, companyId: string): Promise<string> {
  const row = await sql<{ next: string }>`
    select (coalesce(max(number::numeric), 0) + 1)::text as next
    from invoices
    where company_id = ${companyId} and number ~ '^[0-9]{1,30}$'`.execute(trx);
  return row.rows[0].next;
}

/** The largest sequence number taken among the numbers `pattern` (number-format.ts) matches, 0 when none. */
async function largestTakenSequence(trx: Tx, companyId: string, pattern: string): Promise<number> {
  const row = await sql<{ largest: string | null }>`
    select max(substring(number from ${pattern})::numeric)::text as largest
    from invoices
    where company_id = ${companyId} and number ~ ${pattern}`.execute(trx);
  return Number(row.rows[0].largest ?? 0);
}

/** The next number of a workspace with a format, advancing the settings' counter; undefined without a format. */
async function nextFormattedNumber(trx: Tx, companyId: string, issueDate: string, now: Date): Promise<string | undefined> {
  // The row lock orders this with a settings change (which locks the row too): neither overwrites the other's counter.
  const settings = await invoiceSettingsOf(trx, companyId, { lock: true });
  if (settings.number_format === null) return undefined;
  const format = settings.number_format;
  const year = Number(issueDate.slice(0, 4));
  const sequence = Math.max(sequenceStart(settings, year), (await largestTakenSequence(trx, companyId, numberPattern(format, year))) + 1);
  // A back-dated invoice of an earlier year takes its number from that year's numbers and leaves the counter alone.
  const backDated = settings.yearly_reset && settings.number_year !== null && year < settings.number_year;
  if (!backDated) await advanceNumbering(trx, companyId, sequence, year, now);
  return formatInvoiceNumber(format, year, sequence);
}

export const duplicateNumber = (number: string) =>
  conflict(`An invoice numbered '${number}' already exists in this workspace.`, { field: 'number', refusal: 'number_taken' });

/**
 * Gives the invoice its number: `requested` (409 when another invoice has it) or
 * the next free one. Call it last in the transaction.
 */
export async function assignNumber(trx: Tx, companyId: string, invoiceId: string, requested: string | undefined, now: Date) {
  await lockNumbering(trx, companyId);
  let number: string;
  if (requested !== undefined) {
    if (await otherRowHas(trx, 'invoices', companyId, 'number', requested, invoiceId)) throw duplicateNumber(requested);
    number = requested;
  } else {
    const { issue_date } = await trx
      .selectFrom('invoices')
      .select('issue_date')
      .where('company_id', '=', companyId)
      .where('id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    number = (await nextFormattedNumber(trx, companyId, issue_date, now)) ?? (await nextFreeNumber(trx, companyId));
  }
  await trx
    .updateTable('invoices')
    .set({ number, updated_at: now })
    .where('company_id', '=', companyId)
    .where('id', '=', invoiceId)
    .execute();
  return number;
}
