import { sql, type Updateable } from 'kysely';
import type { DB } from '../../../db/types.ts';
import { updateRow } from '../../../db/rows.ts';
import type { Tx } from '../../../db/tenant.ts';

/**
 * Retainer queries. Every function takes the workspace id first and filters on it
 * (row-level security is the second wall). The balance is always retainer_balance()
 * (migration 0085): the one definition, never a stored number.
 */

function retainerSelect(trx: Tx, companyId: string) {
  return trx
    .selectFrom('retainers as r')
    .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 'r.company_id').onRef('c.id', '=', 'r.client_id'))
    .select([
      'r.id',
      'r.client_id',
      'c.name as client_name',
      'r.name',
      'r.description',
      'r.currency',
      'r.created_by',
      'r.archived_at',
      'r.created_at',
      'r.updated_at',
      sql<string>`retainer_balance(r.company_id, r.id)::text`.as('balance'),
      sql<string>`(select coalesce(sum(l.quantity * l.unit_price), 0)::text
                   from invoice_line_items l
                   join invoices i on i.company_id = l.company_id and i.id = l.invoice_id
                   where l.company_id = r.company_id and l.retainer_id = r.id and l.effect = 'charge'
                     and i.state in ('draft', 'open'))`.as('pending'),
    ])
    .where('r.company_id', '=', companyId);
}

export type RetainerRow = NonNullable<Awaited<ReturnType<ReturnType<typeof retainerSelect>['executeTakeFirst']>>>;

export interface RetainerFilter {
  clientId?: string;
  archived?: boolean;
}

/** The workspace's retainers: by client name, then name, then id. */
export function listRetainerRows(trx: Tx, companyId: string, filter: RetainerFilter = {}) {
  let query = retainerSelect(trx, companyId);
  if (filter.clientId) query = query.where('r.client_id', '=', filter.clientId);
  if (filter.archived !== undefined) query = query.where('r.archived_at', filter.archived ? 'is not' : 'is', null);
  return query.orderBy('c.name').orderBy('r.name').orderBy('r.id').execute();
}

/** One retainer (id well formed). */
export function findRetainer(trx: Tx, companyId: string, id: string) {
  return retainerSelect(trx, companyId).where('r.id', '=', id).executeTakeFirst();
}

/**
 * Takes the retainer's row lock (FOR UPDATE): every draw holds it while it reads the
 * balance and writes its credit line, so two draws run one after the other and the
 * second sees the first's line; a payment's deletion takes the same lock before it
 * checks the funds it removes (invoices' payments.ts). Returns whether it exists.
 */
export async function lockRetainer(trx: Tx, companyId: string, id: string): Promise<boolean> {
  const row = await trx.selectFrom('retainers').select('id').where('company_id', '=', companyId).where('id', '=', id).forUpdate().executeTakeFirst();
  return row !== undefined;
}

export function touchRetainer(trx: Tx, companyId: string, id: string, changes: Updateable<DB['retainers']>, now: Date) {
  return updateRow(trx, 'retainers', companyId, id, changes, now);
}

/** The retainer's funding and credit lines with their invoices, oldest invoice first. */
export function retainerEntries(trx: Tx, companyId: string, retainerIds: string[]) {
  if (retainerIds.length === 0) return Promise.resolve([]);
  return trx
    .selectFrom('invoice_line_items as l')
    .innerJoin('invoices as i', (j) => j.onRef('i.company_id', '=', 'l.company_id').onRef('i.id', '=', 'l.invoice_id'))
    .select(['l.id', 'l.retainer_id', 'l.effect', 'l.description', sql<string>`(l.quantity * l.unit_price)::text`.as('amount'), 'l.invoice_id', 'i.number', 'i.state', 'i.issue_date', 'l.created_at'])
    .where('l.company_id', '=', companyId)
    .where('l.retainer_id', 'in', retainerIds)
    .orderBy('i.issue_date')
    .orderBy('l.created_at')
    .orderBy('l.id')
    .execute();
}

export type EntryRow = Awaited<ReturnType<typeof retainerEntries>>[number];

/** The retainer credit lines of one invoice, with their retainers' names. */
export function creditsOfInvoice(trx: Tx, companyId: string, invoiceId: string) {
  return trx
    .selectFrom('invoice_line_items as l')
    .innerJoin('retainers as r', (j) => j.onRef('r.company_id', '=', 'l.company_id').onRef('r.id', '=', 'l.retainer_id'))
    .select(['l.id', 'l.retainer_id', 'r.name', sql<string>`(l.quantity * l.unit_price)::text`.as('amount'), 'l.effect'])
    .where('l.company_id', '=', companyId)
    .where('l.invoice_id', '=', invoiceId)
    .orderBy('l.sort_order')
    .orderBy('l.id')
    .execute();
}

/** One retainer line (funding or credit) of the retainer, with its invoice. */
export function findRetainerLine(trx: Tx, companyId: string, retainerId: string, lineId: string) {
  return trx
    .selectFrom('invoice_line_items')
    .select(['id', 'invoice_id', 'effect'])
    .where('company_id', '=', companyId)
    .where('retainer_id', '=', retainerId)
    .where('id', '=', lineId)
    .executeTakeFirst();
}
