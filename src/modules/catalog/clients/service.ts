import { auditActor } from '../../../access/operator.ts';
import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { mayArchiveClients, mayWriteClients } from '../../../access/catalog.ts';
import type { DB } from '../../../db/types.ts';
import { columnsOf, nameRace, nameTakenError } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { conflict, forbidden, notFound } from '../../../errors.ts';
import type { PageParams } from '../../../http/pagination.ts';
import { isId, newId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import type { ClientRow } from './presenter.ts';
import {
  countClientInvoices,
  countProjects,
  deleteClientRow,
  findVisibleClient,
  insertClient,
  listClients as listClientRows,
  nameTaken,
  updateClientColumns,
  type ClientFilter,
} from './queries.ts';
import { EMPTY_CLIENT, applyClientInput, archiveTransition, changedColumns, type ClientState } from './rules.ts';
import type { ClientCreateBody, ClientInput } from './schemas.ts';

/**
 * Clients: the transactions and state transitions. Every operation runs in one
 * tenant transaction (withTenant) and filters on the caller's workspace; a
 * client the caller cannot see, of another workspace, or with a malformed id is
 * simply not found.
 */

/** Called with the locked current row before a change; throws 412/428 (If-Match) or anything else to stop it. */
export type Precondition = (current: ClientRow) => void;

const CLIENT = 'A client';

/** A unique-index race (two creates or renames with one name at once) ends as the same 409; a row still referring to the client as a 409 too. */
function mapConstraintError(err: unknown, name: string | undefined): never {
  if ((err as { code?: string } | undefined)?.code === '23503') throw conflict('The client still has records that depend on it.');
  throw nameRace(err, CLIENT, name);
}

/** The client's writable state: its own currency (null: it follows the workspace's), not the one in force. */
function stateOf(row: ClientRow): ClientState {
  const columns = columnsOf(row, ['name', 'address', 'payment_terms', 'payment_days', 'tax', 'tax2', 'discount', 'language', 'vat_id', 'invoice_email', 'street', 'postal_code', 'city', 'country_code', 'buyer_reference', 'is_active']);
  return { ...columns, currency: row.own_currency };
}


export function listClients(db: Kysely<DB>, p: Principal, filter: ClientFilter, page: PageParams) {
  return withTenant(db, p.companyId, (trx) => listClientRows(trx, p.companyId, p, filter, page));
}

async function visibleOrThrow(trx: Tx, p: Principal, id: string, lock = false) {
  const row = isId(id) ? await findVisibleClient(trx, p.companyId, p, id, { lock }) : undefined;
  if (!row) throw notFound('client');
  return row;
}

export function getClient(db: Kysely<DB>, p: Principal, id: string): Promise<ClientRow> {
  return withTenant(db, p.companyId, (trx) => visibleOrThrow(trx, p, id));
}

export async function createClient(db: Kysely<DB>, p: Principal, input: Static<typeof ClientCreateBody>, now: Date) {
  if (!mayWriteClients(p)) throw forbidden('Your role does not allow creating clients.');
  const state = applyClientInput({ ...EMPTY_CLIENT, name: '' }, input);
  if (!state.is_active && !mayArchiveClients(p)) throw forbidden('Only owners and administrators may create archived clients.');
  const id = newId(now.getTime());
  try {
    return await withTenant(db, p.companyId, async (trx) => {
      if (await nameTaken(trx, p.companyId, state.name)) throw nameTakenError(CLIENT, state.name);
      await insertClient(trx, p.companyId, id, state, now);
      await audit(trx, { ...auditActor(p), action: 'client.created', subjectType: 'client', subjectId: id, details: { name: state.name } });
      return visibleOrThrow(trx, p, id);
    });
  } catch (err) {
    mapConstraintError(err, state.name);
  }
}

/**
 * PATCH: applies the writable properties given. Archive and restore (`is_active`
 * changing) need mayArchiveClients; archiving a client with active projects is a
 * 409 and nothing changes. A PATCH that changes nothing writes nothing, so
 * `updated_at` and the ETag stay as they were.
 */
export async function updateClient(
  db: Kysely<DB>,
  p: Principal,
  id: string,
  input: ClientInput,
  { now, precondition }: { now: Date; precondition?: Precondition },
): Promise<ClientRow> {
  if (!mayWriteClients(p)) throw forbidden('Your role does not allow editing clients.');
  try {
    return await withTenant(db, p.companyId, async (trx) => {
      const row = await visibleOrThrow(trx, p, id, true);
      const transition = input.is_active === undefined ? null : archiveTransition(row.is_active, input.is_active);
      if (transition && !mayArchiveClients(p)) {
        throw forbidden('Only owners and administrators may archive or restore clients.');
      }
      precondition?.(row);
      const before = stateOf(row);
      const changes = changedColumns(before, applyClientInput(before, input));
      if (Object.keys(changes).length === 0) return row;
      if (transition === 'archive') {
        const active = await countProjects(trx, p.companyId, row.id, { activeOnly: true });
        if (active > 0) {
          throw conflict(`The client has ${active} active project(s); archive them before archiving the client.`, {
            active_project_count: active,
            refusal: 'client_has_active_projects',
          });
        }
      }
      if (changes.name !== undefined && (await nameTaken(trx, p.companyId, changes.name, row.id))) {
        throw nameTakenError(CLIENT, changes.name);
      }
      await updateClientColumns(trx, p.companyId, row.id, changes, now);
      const action = transition === 'archive' ? 'client.archived' : transition === 'restore' ? 'client.restored' : 'client.updated';
      await audit(trx, { ...auditActor(p), action, subjectType: 'client', subjectId: row.id, details: { changes } });
      return visibleOrThrow(trx, p, row.id);
    });
  } catch (err) {
    mapConstraintError(err, input.name?.trim());
  }
}

/**
 * Projects block a client's deletion: any project, active or archived, since
 * deleting the client would orphan its time, expenses and history.
 */
async function assertNoBlockingProjects(trx: Tx, companyId: string, clientId: string) {
  const projects = await countProjects(trx, companyId, clientId, { activeOnly: false });
  if (projects > 0) {
    throw conflict(`The client has ${projects} project(s); delete them before deleting the client.`, { project_count: projects, refusal: 'client_has_projects' });
  }
}

/**
 * Financial documents (invoices, estimates, payments) block a client's deletion,
 * so that DELETE /clients/:id never removes or orphans a financial record: any
 * invoice of the client, in any state (drafts included: delete them first), is a
 * 409 with `invoice_count`.
 */
export async function assertNoFinancialDocuments(trx: Tx, companyId: string, clientId: string): Promise<void> {
  const invoices = await countClientInvoices(trx, companyId, clientId);
  if (invoices > 0) {
    throw conflict(`The client has ${invoices} invoice(s); a client with invoices cannot be deleted.`, { invoice_count: invoices, refusal: 'client_has_invoices' });
  }
}

/**
 * Permanent delete: owners and administrators, an archived client, a current
 * If-Match (the route's precondition: 428 when missing, 412 when stale), no
 * projects and no financial documents; otherwise nothing is deleted. The
 * client's contacts go with it.
 */
export async function deleteClient(db: Kysely<DB>, p: Principal, id: string, { precondition }: { precondition?: Precondition }) {
  if (!mayArchiveClients(p)) throw forbidden('Only owners and administrators may delete clients.');
  try {
    await withTenant(db, p.companyId, async (trx) => {
      const row = await visibleOrThrow(trx, p, id, true);
      precondition?.(row);
      if (row.is_active) throw conflict('Archive the client before deleting it.', { is_active: true, refusal: 'archive_first' });
      await assertNoBlockingProjects(trx, p.companyId, row.id);
      await assertNoFinancialDocuments(trx, p.companyId, row.id);
      await deleteClientRow(trx, p.companyId, row.id);
      await audit(trx, { ...auditActor(p), action: 'client.deleted', subjectType: 'client', subjectId: row.id, details: { name: row.name } });
    });
  } catch (err) {
    mapConstraintError(err, undefined);
  }
}
