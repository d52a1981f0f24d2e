import { sql, type Updateable } from 'kysely';
import { invoiceVisible } from '../../../access/invoices.ts';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { updateRow } from '../../../db/rows.ts';
import type { Tx } from '../../../db/tenant.ts';

/**
 * Estimate queries. Every function takes the workspace id first and filters on it
 * (row-level security is the second wall). Who sees an estimate is who would see
 * an invoice of the same creator (access/invoices.ts invoiceVisible).
 */

function estimateSelect(trx: Tx, companyId: string) {
  return trx
    .selectFrom('estimates as e')
    .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 'e.company_id').onRef('c.id', '=', 'e.client_id'))
    .leftJoin('users as u', 'u.id', 'e.created_by')
    .leftJoin('invoices as i', (j) => j.onRef('i.company_id', '=', 'e.company_id').onRef('i.id', '=', 'e.converted_invoice_id'))
    .select([
      'e.id',
      'e.client_id',
      'c.name as client_name',
      'c.language as client_language',
      'e.number',
      'e.state',
      'e.subject',
      'e.issue_date',
      'e.valid_until',
      'e.currency',
      'e.tax',
      'e.tax2',
      'e.discount',
      'e.notes',
      'e.created_by',
      'u.first_name as creator_first_name',
      'u.last_name as creator_last_name',
      'e.sent_at',
      'e.accepted_at',
      'e.declined_at',
      'e.answered_by_client',
      'e.decline_reason',
      'e.converted_invoice_id',
      'i.number as invoice_number',
      'e.created_at',
      sql<Date>`greatest(e.updated_at, c.updated_at)`.as('updated_at'),
    ])
    .where('e.company_id', '=', companyId);
}

/** One estimate; `lock` takes a row lock on the estimate alone; with `visibleTo`, only one in that principal's reach. */
export function findEstimate(trx: Tx, companyId: string, id: string, { lock = false, visibleTo }: { lock?: boolean; visibleTo?: Principal } = {}) {
  let query = estimateSelect(trx, companyId).where('e.id', '=', id);
  if (visibleTo) query = query.where(invoiceVisible(visibleTo, 'e'));
  if (lock) query = query.forUpdate('e');
  return query.executeTakeFirst();
}

export type EstimateRow = NonNullable<Awaited<ReturnType<typeof findEstimate>>>;

/** The estimates in the principal's reach, newest issue date first (then newest created, then id). */
export function listEstimateRows(trx: Tx, companyId: string, visibleTo: Principal, filter: { state?: string; clientId?: string }) {
  let query = estimateSelect(trx, companyId).where(invoiceVisible(visibleTo, 'e'));
  if (filter.state) query = query.where('e.state', '=', filter.state as never);
  if (filter.clientId) query = query.where('e.client_id', '=', filter.clientId);
  return query.orderBy('e.issue_date', 'desc').orderBy('e.created_at', 'desc').orderBy('e.id', 'desc').execute();
}

/** The lines of some estimates, in display order: sort_order, then id. */
export async function estimateLinesOf(trx: Tx, companyId: string, estimateIds: string[]) {
  if (estimateIds.length === 0) return [];
  return trx
    .selectFrom('estimate_line_items')
    .select(['id', 'estimate_id', 'kind', 'description', 'quantity', 'unit_price', 'taxed', 'taxed2', 'project_id', 'sort_order'])
    .where('company_id', '=', companyId)
    .where('estimate_id', 'in', estimateIds)
    .orderBy('estimate_id')
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

export type EstimateLineRow = Awaited<ReturnType<typeof estimateLinesOf>>[number];
export type NewEstimateLine = Omit<EstimateLineRow, 'estimate_id'>;

/** Writes the estimate's lines, replacing any it had. */
export async function replaceLines(trx: Tx, companyId: string, estimateId: string, lines: NewEstimateLine[], now: Date) {
  await trx.deleteFrom('estimate_line_items').where('company_id', '=', companyId).where('estimate_id', '=', estimateId).execute();
  if (lines.length === 0) return;
  await trx
    .insertInto('estimate_line_items')
    .values(lines.map((l) => ({ company_id: companyId, estimate_id: estimateId, ...l, created_at: now, updated_at: now })))
    .execute();
}

export function touchEstimate(trx: Tx, companyId: string, id: string, changes: Updateable<DB['estimates']>, now: Date) {
  return updateRow(trx, 'estimates', companyId, id, changes, now);
}

export async function deleteEstimateRow(trx: Tx, companyId: string, id: string) {
  await trx.deleteFrom('estimates').where('company_id', '=', companyId).where('id', '=', id).execute();
}
