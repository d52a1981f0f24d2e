import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../../db/types.ts';
import { badRequest, notFound } from '../../../errors.ts';
import type { Principal } from '../../../auth/principal.ts';
import { actingUserId } from '../../../access/operator.ts';
import { audit } from '../../workspace/audit/index.ts';

/**
 * Manager-teammate assignments: a manager approves time for the teammates assigned
 * to them. Only a member with the manager role has teammates; leaving that role
 * removes them (see updateMember). The web app's Members page and the operator
 * (`sheaf admin teammate`) call these with their principal.
 */
export async function assignTeammate(db: Kysely<DB>, p: Principal, managerId: string, teammateId: string) {
  return db.transaction().execute((trx) => assignTeammateIn(trx, p, managerId, teammateId));
}

/** assignTeammate in the caller's transaction. */
export async function assignTeammateIn(trx: Transaction<DB>, p: Principal, managerId: string, teammateId: string) {
  const companyId = p.companyId;
  if (managerId === teammateId) throw badRequest('A manager cannot be their own teammate.', { field: 'teammate' });
  const members = await trx
    .selectFrom('memberships')
    .select(['user_id', 'role', 'is_active'])
    .where('company_id', '=', companyId)
    .where('user_id', 'in', [managerId, teammateId])
    .execute();
  const manager = members.find((m) => m.user_id === managerId);
  const teammate = members.find((m) => m.user_id === teammateId);
  if (!manager) throw notFound('manager');
  if (!teammate) throw notFound('teammate');
  if (manager.role !== 'manager') {
    throw badRequest(`Only a member with the manager role can have teammates; this one is ${manager.role}.`, { field: 'manager' });
  }
  if (!manager.is_active) throw badRequest('The manager is deactivated in this workspace.', { field: 'manager' });
  if (teammate.role === 'client') throw badRequest('A client membership cannot be a teammate.', { field: 'teammate' });
  if (!teammate.is_active) throw badRequest('The teammate is deactivated in this workspace.', { field: 'teammate' });
  const inserted = await trx
    .insertInto('teammate_assignments')
    .values({ company_id: companyId, manager_id: managerId, teammate_id: teammateId })
    .onConflict((oc) => oc.doNothing())
    .returning(['manager_id', 'teammate_id', 'created_at'])
    .executeTakeFirst();
  if (!inserted) {
    // Already assigned: nothing changes, so nothing is audited.
    return trx
      .selectFrom('teammate_assignments')
      .select(['manager_id', 'teammate_id', 'created_at'])
      .where('company_id', '=', companyId)
      .where('manager_id', '=', managerId)
      .where('teammate_id', '=', teammateId)
      .executeTakeFirstOrThrow();
  }
  await audit(trx, { companyId, action: 'teammate.assigned', subjectType: 'user', subjectId: teammateId, actorUserId: actingUserId(p), details: { manager_id: managerId } });
  return inserted;
}

export async function unassignTeammate(db: Kysely<DB>, p: Principal, managerId: string, teammateId: string) {
  return db.transaction().execute((trx) => unassignTeammateIn(trx, p, managerId, teammateId));
}

async function unassignTeammateIn(trx: Transaction<DB>, p: Principal, managerId: string, teammateId: string) {
  const companyId = p.companyId;
  const deleted = await trx
    .deleteFrom('teammate_assignments')
    .where('company_id', '=', companyId)
    .where('manager_id', '=', managerId)
    .where('teammate_id', '=', teammateId)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw notFound('teammate assignment');
  await audit(trx, { companyId, action: 'teammate.unassigned', subjectType: 'user', subjectId: teammateId, actorUserId: actingUserId(p), details: { manager_id: managerId } });
  return { manager_id: managerId, teammate_id: teammateId };
}

/**
 * Makes a manager's teammates exactly `teammateIds` (the web app's member form):
 * assigns the new ones by assignTeammate's rules and removes the rest, in the
 * caller's transaction.
 */
export async function setTeammates(trx: Transaction<DB>, p: Principal, managerId: string, teammateIds: string[]) {
  const companyId = p.companyId;
  const wanted = [...new Set(teammateIds)];
  const current = await trx
    .selectFrom('teammate_assignments')
    .select('teammate_id')
    .where('company_id', '=', companyId)
    .where('manager_id', '=', managerId)
    .execute();
  const had = new Set(current.map((r) => r.teammate_id));
  for (const id of wanted) if (!had.has(id)) await assignTeammateIn(trx, p, managerId, id);
  for (const id of had) if (!wanted.includes(id)) await unassignTeammateIn(trx, p, managerId, id);
}

/** Assignments with both members' e-mail addresses, by manager then teammate. */
export function listTeammates(db: Kysely<DB>, p: Principal, managerId?: string) {
  let q = db
    .selectFrom('teammate_assignments as t')
    .innerJoin('users as mu', 'mu.id', 't.manager_id')
    .innerJoin('users as tu', 'tu.id', 't.teammate_id')
    .select(['t.manager_id', 'mu.email as manager_email', 't.teammate_id', 'tu.email as teammate_email', 't.created_at'])
    .where('t.company_id', '=', p.companyId);
  if (managerId) q = q.where('t.manager_id', '=', managerId);
  return q.orderBy('mu.email').orderBy('tu.email').execute();
}
