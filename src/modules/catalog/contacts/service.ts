import { auditActor } from '../../../access/operator.ts';
import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { mayWriteClients } from '../../../access/catalog.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant } from '../../../db/tenant.ts';
import { badRequest, forbidden } from '../../../errors.ts';
import type { PageParams } from '../../../http/pagination.ts';
import { isId, newId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import { findContact, findVisibleClientForContact, insertContact, listContacts as listContactRows, type ContactFilter } from './queries.ts';
import { contactValues } from './rules.ts';
import type { ContactInput } from './schemas.ts';

/**
 * Contacts belong to a client and follow its tenancy and visibility: listed for
 * whoever sees the client, created by whoever may edit clients.
 */

export function listContacts(db: Kysely<DB>, p: Principal, filter: ContactFilter, page: PageParams) {
  return withTenant(db, p.companyId, (trx) => listContactRows(trx, p.companyId, p, filter, page));
}

/**
 * Creates a contact. `client_id` must name a client of the workspace that the
 * caller sees (archived clients included); anything else, malformed, unknown or
 * of another workspace alike, is a 400 naming `client_id`.
 */
export async function createContact(db: Kysely<DB>, p: Principal, input: ContactInput, now: Date) {
  if (!mayWriteClients(p)) throw forbidden('Your role does not allow creating contacts.');
  const values = contactValues(input);
  const unknownClient = () => badRequest('client_id does not name a client of this workspace.', { field: 'client_id' });
  if (!isId(input.client_id)) throw unknownClient();
  return withTenant(db, p.companyId, async (trx) => {
    const client = await findVisibleClientForContact(trx, p.companyId, p, input.client_id);
    if (!client) throw unknownClient();
    const id = newId(now.getTime());
    await insertContact(trx, p.companyId, id, client.id, values, now);
    await audit(trx, {
      ...auditActor(p),
      action: 'contact.created',
      subjectType: 'contact',
      subjectId: id,
      details: { client_id: client.id },
    });
    return (await findContact(trx, p.companyId, p, id))!;
  });
}
