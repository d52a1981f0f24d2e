import { sql } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { clientVisible } from '../../../access/catalog.ts';
import type { Tx } from '../../../db/tenant.ts';
import { fetchPage, type PageParams } from '../../../http/pagination.ts';
import type { ContactValues } from './rules.ts';

/**
 * A contact is visible exactly when its client is. Its `updated_at` is the later
 * of the contact's and its client's, so a renamed client (the nested `client.name`)
 * shows up in an `updated_since` sync, as users do with their memberships.
 */
const updatedAt = sql<Date>`greatest(ct.updated_at, cl.updated_at)`;

function contactSelect(trx: Tx, companyId: string, principal: Principal) {
  return trx
    .selectFrom('contacts as ct')
    .innerJoin('clients as cl', (j) => j.onRef('cl.company_id', '=', 'ct.company_id').onRef('cl.id', '=', 'ct.client_id'))
    .select([
      'ct.id',
      'ct.client_id',
      'cl.name as client_name',
      'ct.first_name',
      'ct.last_name',
      'ct.title',
      'ct.email',
      'ct.phone_office',
      'ct.phone_mobile',
      'ct.fax',
      'ct.created_at',
      updatedAt.as('updated_at'),
    ])
    .where('ct.company_id', '=', companyId)
    .where(clientVisible(principal, 'cl'));
}

export interface ContactFilter {
  clientId?: string;
  updatedSince?: Date;
}

/** One page of the contacts of clients the principal sees, by last name, first name, id. */
export function listContacts(trx: Tx, companyId: string, principal: Principal, filter: ContactFilter, page: PageParams) {
  let query = contactSelect(trx, companyId, principal);
  if (filter.clientId) query = query.where('ct.client_id', '=', filter.clientId);
  if (filter.updatedSince) query = query.where(updatedAt, '>=', filter.updatedSince);
  const ordered = query.orderBy(sql`lower(ct.last_name)`).orderBy(sql`lower(ct.first_name)`).orderBy('ct.id');
  return fetchPage(ordered, page);
}

export async function findContact(trx: Tx, companyId: string, principal: Principal, id: string) {
  return contactSelect(trx, companyId, principal).where('ct.id', '=', id).executeTakeFirst();
}

/** A client the principal sees (the foreign key keeps it from vanishing before the insert commits). */
export async function findVisibleClientForContact(trx: Tx, companyId: string, principal: Principal, clientId: string) {
  return trx
    .selectFrom('clients as cl')
    .select(['cl.id', 'cl.name'])
    .where('cl.company_id', '=', companyId)
    .where('cl.id', '=', clientId)
    .where(clientVisible(principal, 'cl'))
    .executeTakeFirst();
}

export async function insertContact(trx: Tx, companyId: string, id: string, clientId: string, values: ContactValues, now: Date) {
  await trx
    .insertInto('contacts')
    .values({ company_id: companyId, id, client_id: clientId, ...values, created_at: now, updated_at: now })
    .execute();
}
