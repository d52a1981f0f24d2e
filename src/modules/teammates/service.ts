import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { audit } from '../audit/service.ts';

/** Manager-teammate assignments: a manager approves time for the teammates assigned to them. */
export async function assignTeammate(db: Kysely<DB>, companyId: string, managerId: string, teammateId: string) {
  if (managerId === teammateId) throw badRequest('A manager cannot be their own teammate.');
  return db.transaction().execute(async (trx) => {
    const members = await trx
      .selectFrom('memberships')
      .select(['user_id', 'role'])
      .where('company_id', '=', companyId)
      .where('user_id', 'in', [managerId, teammateId])
      .execute();
    const manager = members.find((m) => m.user_id === managerId);
    const teammate = members.find((m) => m.user_id === teammateId);
    if (!manager) throw notFound('manager');
    if (!teammate) throw notFound('teammate');
    if (manager.role !== 'manager') throw badRequest('Only a member with the manager role can have teammates.', { field: 'manager' });
    if (teammate.role === 'client') throw badRequest('A client membership cannot be a teammate.', { field: 'teammate' });
    await trx
      .insertInto('teammate_assignments')
      .values({ company_id: companyId, manager_id: managerId, teammate_id: teammateId })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await audit(trx, { companyId, action: 'teammate.assigned', subjectType: 'user', subjectId: teammateId, details: { manager_id: managerId } });
    return { manager_id: managerId, teammate_id: teammateId };
  });
}

export async function unassignTeammate(db: Kysely<DB>, companyId: string, managerId: string, teammateId: string) {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('teammate_assignments')
      .where('company_id', '=', companyId)
      .where('manager_id', '=', managerId)
      .where('teammate_id', '=', teammateId)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw notFound('teammate assignment');
    await audit(trx, { companyId, action: 'teammate.unassigned', subjectType: 'user', subjectId: teammateId, details: { manager_id: managerId } });
    return { manager_id: managerId, teammate_id: teammateId };
  });
}

export function listTeammates(db: Kysely<DB>, companyId: string, managerId?: string) {
  let q = db.selectFrom('teammate_assignments').select(['manager_id', 'teammate_id', 'created_at']).where('company_id', '=', companyId);
  if (managerId) q = q.where('manager_id', '=', managerId);
  return q.orderBy('manager_id').orderBy('teammate_id').execute();
}
