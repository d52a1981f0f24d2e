import { sql, type Selectable } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';
import type { PlanningAssignments, PlanningPlaceholders } from '../../../db/types.ts';

/** SQL of planning; every function takes the workspace id first. */

export type AssignmentRow = Selectable<PlanningAssignments>;
export type PlaceholderRow = Selectable<PlanningPlaceholders>;

/** The workspace's first day of the week (Settings → Workspace): the planner's columns are its weeks. */
export async function workspaceWeekStart(trx: Tx, companyId: string) {
  return (await trx.selectFrom('companies').select('week_start').where('id', '=', companyId).executeTakeFirstOrThrow()).week_start;
}

export function findAssignment(trx: Tx, companyId: string, id: string, lock = false) {
  return trx
    .selectFrom('planning_assignments')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();
}

/** Live assignments touching the period, with their project's and client's names; of one person, or all. */
export function assignmentsIn(trx: Tx, companyId: string, range: { from: string; to: string }, filter: { userId?: string; projectIds?: readonly string[] } = {}) {
  return trx
    .selectFrom('planning_assignments as a')
    .innerJoin('projects as p', (j) => j.onRef('p.company_id', '=', 'a.company_id').onRef('p.id', '=', 'a.project_id'))
    .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 'p.company_id').onRef('c.id', '=', 'p.client_id'))
    .selectAll('a')
    .select(['p.name as project_name', 'c.name as client_name'])
    .where('a.company_id', '=', companyId)
    .where('a.deleted_at', 'is', null)
    .where('a.starts_on', '<=', range.to)
    .where('a.ends_on', '>=', range.from)
    .$if(filter.userId !== undefined, (q) => q.where('a.user_id', '=', filter.userId!))
    .$if(filter.projectIds !== undefined, (q) => q.where('a.project_id', 'in', filter.projectIds!.length ? [...filter.projectIds!] : ['00000000-0000-0000-0000-000000000000']))
    .orderBy('a.starts_on')
    .orderBy('a.id')
    .execute();
}
export type AssignmentView = Awaited<ReturnType<typeof assignmentsIn>>[number];

export function placeholdersOf(trx: Tx, companyId: string, activeOnly = false, ids?: readonly string[]) {
  return trx
    .selectFrom('planning_placeholders')
    .selectAll()
    .where('company_id', '=', companyId)
    .$if(activeOnly, (q) => q.where('is_active', '=', true))
    .$if(ids !== undefined, (q) => q.where('id', 'in', ids!))
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

/** The projects a placeholder's live plans are on. */
export async function livePlanProjects(trx: Tx, companyId: string, placeholderId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('planning_assignments')
    .select('project_id')
    .distinct()
    .where('company_id', '=', companyId)
    .where('placeholder_id', '=', placeholderId)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((r) => r.project_id);
}

export function findPlaceholder(trx: Tx, companyId: string, id: string) {
  return trx.selectFrom('planning_placeholders').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
}

/**
 * The planner's people: active human members who are not clients, by name; with `ids`, those
 * members whoever they are now (a person who left, an agent: rows only while plans name them).
 */
export function plannablePeople(trx: Tx, companyId: string, ids?: readonly string[]) {
  return trx
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.first_name', 'u.last_name', 'm.expected_weekly_hours'])
    .where('m.company_id', '=', companyId)
    .$if(ids === undefined, (q) => q.where('m.is_active', '=', true).where('u.user_type', '=', 'human').where('m.role', '<>', 'client'))
    .$if(ids !== undefined, (q) => q.where('m.user_id', 'in', ids!))
    .orderBy(sql`lower(u.last_name)`)
    .orderBy(sql`lower(u.first_name)`)
    .orderBy('m.user_id')
    .execute();
}

/** Whether a member is one the planner plans (plannablePeople's rule), and a client at all. */
export function memberForPlanning(trx: Tx, companyId: string, userId: string) {
  return trx
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.role', 'm.is_active', 'u.user_type'])
    .where('m.company_id', '=', companyId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
}

/** The project exists in the workspace and whether the principal's user manages it. */
export function projectForPlanning(trx: Tx, companyId: string, projectId: string, userId: string) {
  return trx
    .selectFrom('projects as p')
    .leftJoin('project_user_assignments as pua', (j) =>
      j.onRef('pua.company_id', '=', 'p.company_id').onRef('pua.project_id', '=', 'p.id').on('pua.user_id', '=', userId).on('pua.is_active', '=', true).on('pua.is_project_manager', '=', true),
    )
    .select(['p.id', 'p.name', sql<boolean>`pua.user_id is not null`.as('manages')])
    .where('p.company_id', '=', companyId)
    .where('p.id', '=', projectId)
    .executeTakeFirst();
}

/** The projects the user actively manages. */
export async function managedProjectIds(trx: Tx, companyId: string, userId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('project_user_assignments')
    .select('project_id')
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('is_active', '=', true)
    .where('is_project_manager', '=', true)
    .execute();
  return rows.map((r) => r.project_id);
}
