import { sql } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';
import { otherRowHas } from '../../../db/rows.ts';
import { conflict } from '../../../errors.ts';
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
 * The next free number is one more than the largest all-digit number of the
 * workspace (1 for the first invoice); numbers with other characters
 * ("INV-7", "2026/001") are never auto-assigned and do not count.
 */

const LOCK_CLASS = 0x53_49_4e; // "SIN": Sheaf invoice numbering

export const pendingNumber = (invoiceId: string) => `${PENDING_NUMBER_PREFIX}${invoiceId}`;

export async function lockNumbering(trx: Tx, companyId: string) {
  await sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(${companyId}))`.execute(trx);
}

export async function nextFreeNumber(trx: Tx, companyId: string): Promise<string> {
  const row = await sql<{ next: string }>`
    select (coalesce(max(number::numeric), 0) + 1)::text as next
    from invoices
    where company_id = ${companyId} and number ~ '^[0-9]{1,30}$'`.execute(trx);
  return row.rows[0].next;
}

export const duplicateNumber = (number: string) =>
  conflict(`An invoice numbered '${number}' already exists in this workspace.`, { field: 'number' });

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
    number = await nextFreeNumber(trx, companyId);
  }
  await trx
    .updateTable('invoices')
    .set({ number, updated_at: now })
    .where('company_id', '=', companyId)
    .where('id', '=', invoiceId)
    .execute();
  return number;
}
