import { sql } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';
import { otherRowHas } from '../../../db/rows.ts';
import { conflict } from '../../../errors.ts';

/**
 * Estimate numbers: a sequence of their own, unique among the workspace's
 * estimates (unique index estimates_number_key), apart from the invoices'.
 * Assigned as the last step of the transaction under a transaction-scoped
 * advisory lock of the workspace's estimate numbering, so two creates at once
 * never pick the same next number, and an explicit duplicate is a plain 409.
 * The next number is one more than the largest all-digit estimate number (1 for
 * the first); numbers with other characters ("EST-7") are kept as typed and do
 * not count.
 */

const LOCK_CLASS = 0x53_45_53; // "SES": Sheaf estimate sequence

export const duplicateNumber = (number: string) =>
  conflict(`An estimate numbered '${number}' already exists in this workspace.`, { field: 'number', refusal: 'number_taken' });

/** The number the estimate gets: `requested` (409 when another estimate has it) or the next free one. Call it last. */
export async function estimateNumber(trx: Tx, companyId: string, estimateId: string | undefined, requested: string | undefined): Promise<string> {
  await sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(${companyId}))`.execute(trx);
  if (requested !== undefined) {
    if (await otherRowHas(trx, 'estimates', companyId, 'number', requested, estimateId ?? '')) {
      throw duplicateNumber(requested);
    }
    return requested;
  }
  const row = await sql<{ next: string }>`
    select (coalesce(max(number::numeric), 0) + 1)::text as next
    from estimates
    where company_id = ${companyId} and number ~ '^[0-9]{1,30}$'`.execute(trx);
  return row.rows[0].next;
}
