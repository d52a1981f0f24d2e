import { sql } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { clientVisible } from '../../../access/catalog.ts';
import { insertRow, nameTaken as nameTakenIn, updateRow } from '../../../db/rows.ts';
import type { Tx } from '../../../db/tenant.ts';
import { fetchPage, type PageParams } from '../../../http/pagination.ts';
import type { ClientState } from './rules.ts';

/** Every query takes the workspace id first and filters on it (row-level security is the second wall). */

function clientSelect(trx: Tx, companyId: string) {
  return trx
    .selectFrom('clients as c')
    .innerJoin('companies as co', 'co.id', 'c.company_id')
    .select([
      'c.id',
      'c.name',
      'c.is_active',
      'c.address',
      'c.currency as own_currency',
      sql<string>`coalesce(c.currency, co.currency)`.as('currency'),
      'c.payment_terms',
      'c.payment_days',
      'c.tax',
      'c.tax2',
      'c.discount',
      'c.language',
      'c.vat_id',
      'c.invoice_email',
      'c.street',
      'c.postal_code',
      'c.city',
      'c.country_code',
      'c.buyer_reference',
      'c.created_at',
      'c.updated_at',
    ])
    .where('c.company_id', '=', companyId);
}

export interface ClientFilter {
  isActive?: boolean;
  updatedSince?: Date;
}

/** One page of the clients the principal sees, by name (case-insensitive) then id. */
export function listClients(trx: Tx, companyId: string, principal: Principal, filter: ClientFilter, page: PageParams) {
  let query = clientSelect(trx, companyId).where(clientVisible(principal, 'c'));
  if (filter.isActive !== undefined) query = query.where('c.is_active', '=', filter.isActive);
  if (filter.updatedSince) query = query.where('c.updated_at', '>=', filter.updatedSince);
  return fetchPage(query.orderBy(sql`lower(c.name)`).orderBy('c.id'), page);
}

/** A client the principal sees, or undefined. `lock` takes a row lock on the client (not the workspace). */
export async function findVisibleClient(
  trx: Tx,
  companyId: string,
  principal: Principal,
  id: string,
  { lock = false }: { lock?: boolean } = {},
) {
  let query = clientSelect(trx, companyId).where('c.id', '=', id).where(clientVisible(principal, 'c'));
  if (lock) query = query.forUpdate('c');
  return query.executeTakeFirst();
}

/** Whether another client of the workspace has this name, ignoring case. */
export const nameTaken = (trx: Tx, companyId: string, name: string, exceptId?: string) =>
  nameTakenIn(trx, 'clients', companyId, name, exceptId);

export const insertClient = (trx: Tx, companyId: string, id: string, state: ClientState, now: Date) =>
  insertRow(trx, 'clients', companyId, id, state, now);

export const updateClientColumns = (trx: Tx, companyId: string, id: string, changes: Partial<ClientState>, now: Date) =>
  updateRow(trx, 'clients', companyId, id, changes, now);

export async function deleteClientRow(trx: Tx, companyId: string, id: string) {
  await trx.deleteFrom('clients').where('company_id', '=', companyId).where('id', '=', id).execute();
}

/** Projects of a client (all of them, or only active ones), whoever may see them. */
export async function countProjects(trx: Tx, companyId: string, clientId: string, { activeOnly }: { activeOnly: boolean }) {
  let query = trx
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', companyId)
    .where('client_id', '=', clientId);
  if (activeOnly) query = query.where('is_active', '=', true);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Invoices of a client: a client with financial documents cannot be deleted. */
export async function countClientInvoices(trx: Tx, companyId: string, clientId: string): Promise<number> {
  const row = await trx
    .selectFrom('invoices')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', companyId)
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
