import { sql, type Kysely } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';

/** The SQL condition over `projects p` of the projects the scheduler checks: alerts asked for, active, with a budget kind. */
export const ALERTED_PROJECTS = sql<boolean>`p.notify_when_over_budget and p.is_active and p.budget_by <> 'none'`;

/** The workspaces (with their time zone) that have a project to check, after `after`, in id order. */
export function workspacesWithAlerts(db: Kysely<DB>, limit: number, after: string | null, workspaceId?: string) {
  return db
    .selectFrom('companies as w')
    .select(['w.id', 'w.timezone'])
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('projects as p')
          .select(sql`1`.as('one'))
          .whereRef('p.company_id', '=', 'w.id')
          .where(ALERTED_PROJECTS),
      ),
    )
    .$if(after !== null, (q) => q.where('w.id', '>', after!))
    .$if(workspaceId !== undefined, (q) => q.where('w.id', '=', workspaceId!))
    .orderBy('w.id')
    .limit(limit)
    .execute();
}

/**
 * Records an alert; false when this project's alert for that period, budget and threshold is
 * recorded already (the unique key: another pass or server process sent it).
 */
export async function insertAlert(
  trx: Tx,
  companyId: string,
  a: { id: string; projectId: string; period: string; budget: string; percentage: string; spent: string },
  now: Date,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('project_budget_alerts')
    .values({ company_id: companyId, id: a.id, project_id: a.projectId, period: a.period, budget: a.budget, percentage: a.percentage, spent: a.spent, created_at: now })
    .onConflict((oc) => oc.columns(['company_id', 'project_id', 'period', 'budget', 'percentage']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The alert thresholds of the projects given (the budget rows do not carry them). */
export function thresholdsOf(trx: Tx, companyId: string, projectIds: readonly string[]) {
  return trx
    .selectFrom('projects')
    .select(['id', 'over_budget_notification_percentage as percentage'])
    .where('company_id', '=', companyId)
    .where('id', 'in', projectIds)
    .execute();
}

/**
 * Whom an alert goes to: the project's active managers (active people with an address, not
 * agents); a project nobody manages, the workspace's active owners and administrators.
 */
export async function recipientsOf(trx: Tx, companyId: string, projectId: string) {
  const people = (q: ReturnType<typeof members>) => q.select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.language']).orderBy('u.id').execute();
  const members = () =>
    trx
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .where('m.company_id', '=', companyId)
      .where('m.is_active', '=', true)
      .where('u.user_type', '=', 'human');
  const managers = await people(
    members()
      .innerJoin('project_user_assignments as a', (j) => j.onRef('a.company_id', '=', 'm.company_id').onRef('a.user_id', '=', 'm.user_id'))
      .where('a.project_id', '=', projectId)
      .where('a.is_active', '=', true)
      .where('a.is_project_manager', '=', true),
  );
  return managers.length ? managers : people(members().where('m.role', 'in', ['owner', 'administrator']));
}
