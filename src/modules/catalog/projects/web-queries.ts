import { sql } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { clientVisible } from '../../../access/catalog.ts';
import type { Tx } from '../../../db/tenant.ts';
import { activeHumanMembers } from '../../people/users/index.ts';

/** What the web app's project screens pick from, and a project's rate rows. Every query is scoped to the workspace. */

/** Active clients the caller sees, by name, with the currency their projects are priced in. */
export function activeClients(trx: Tx, p: Principal) {
  return trx
    .selectFrom('clients as c')
    .innerJoin('companies as co', 'co.id', 'c.company_id')
    .select(['c.id', 'c.name', sql<string>`coalesce(c.currency, co.currency)`.as('currency')])
    .where('c.company_id', '=', p.companyId)
    .where('c.is_active', '=', true)
    .where(clientVisible(p, 'c'))
    .orderBy(sql`lower(c.name)`)
    .orderBy('c.id')
    .execute();
}

/** The workspace's currency: what a project is priced in until its client is picked (a client without one uses it too). */
export async function workspaceCurrency(trx: Tx, companyId: string): Promise<string> {
  const row = await trx.selectFrom('companies').select('currency').where('id', '=', companyId).executeTakeFirstOrThrow();
  return row.currency;
}

/** Active internal members (who may own a project or be assigned to one), by last then first name. */
export function activePeople(trx: Tx, companyId: string) {
  return activeHumanMembers(trx, companyId)
    .select(['u.id', 'u.first_name', 'u.last_name', 'm.role'])
    .where('m.role', '!=', 'client')
    .orderBy(sql`lower(u.last_name)`)
    .orderBy(sql`lower(u.first_name)`)
    .orderBy('u.id')
    .execute();
}

/** Active tasks of the workspace, by name. */
export function activeTasks(trx: Tx, companyId: string) {
  return trx
    .selectFrom('tasks')
    .select(['id', 'name', 'billable_by_default'])
    .where('company_id', '=', companyId)
    .where('is_active', '=', true)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

/**
 * Every billable rate row of a project: its own (no task, no person), its task
 * assignments' and its people's, with the task's or person's name, oldest first.
 */
export function projectRateRows(trx: Tx, companyId: string, projectId: string) {
  return trx
    .selectFrom('rates as r')
    .leftJoin('tasks as t', (j) => j.onRef('t.company_id', '=', 'r.company_id').onRef('t.id', '=', 'r.task_id'))
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .select([
      'r.task_id',
      'r.user_id',
      't.name as task_name',
      'u.first_name',
      'u.last_name',
      sql<string>`r.effective_from::text`.as('effective_from'),
      sql<string>`r.hourly_rate::text`.as('hourly_rate'),
    ])
    .where('r.company_id', '=', companyId)
    .where('r.kind', '=', 'billable')
    .where('r.project_id', '=', projectId)
    .orderBy('r.effective_from')
    .orderBy('r.id')
    .execute();
}
