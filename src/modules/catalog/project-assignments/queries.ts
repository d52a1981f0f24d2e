import type { Tx } from '../../../db/tenant.ts';
import { billableRateOn } from '../rates/index.ts';
import { fetchPage, type PageParams } from '../../../http/pagination.ts';
import type { UserAssignmentColumns } from './rules.ts';

/** Every query takes the workspace id first and filters on it (row-level security is the second wall). */

function assignmentSelect(trx: Tx, companyId: string, projectId: string, day: string) {
  return trx
    .selectFrom('project_user_assignments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    // The person's billable rate on the project (scope project + user) in force on `day`.
    .leftJoinLateral(billableRateOn(trx, 'a', 'user', day), (j) => j.onTrue())
    .select([
      'a.project_id',
      'a.user_id',
      'u.first_name',
      'u.last_name',
      'u.email',
      'a.is_project_manager',
      'a.is_active',
      'a.budget',
      'rate.hourly_rate',
      'rate.effective_from as hourly_rate_effective_from',
      'a.created_at',
      'a.updated_at',
    ])
    .where('a.company_id', '=', companyId)
    .where('a.project_id', '=', projectId);
}

/** One page of a project's user assignments by last name, first name, user id; rates as of `day`. */
export function listUserAssignments(
  trx: Tx,
  companyId: string,
  projectId: string,
  filter: { isActive?: boolean },
  day: string,
  page: PageParams,
) {
  let query = assignmentSelect(trx, companyId, projectId, day);
  if (filter.isActive !== undefined) query = query.where('a.is_active', '=', filter.isActive);
  return fetchPage(query.orderBy('u.last_name').orderBy('u.first_name').orderBy('a.user_id'), page);
}

export async function findUserAssignment(trx: Tx, companyId: string, projectId: string, userId: string, day: string) {
  return assignmentSelect(trx, companyId, projectId, day).where('a.user_id', '=', userId).executeTakeFirst();
}

/** Locks an assignment for a change, with the member's role; undefined when there is none. */
export function lockUserAssignment(trx: Tx, companyId: string, projectId: string, userId: string) {
  return trx
    .selectFrom('project_user_assignments as a')
    .innerJoin('memberships as m', (j) => j.onRef('m.company_id', '=', 'a.company_id').onRef('m.user_id', '=', 'a.user_id'))
    .select(['a.is_project_manager', 'a.is_active', 'a.budget', 'm.role'])
    .where('a.company_id', '=', companyId)
    .where('a.project_id', '=', projectId)
    .where('a.user_id', '=', userId)
    .forUpdate('a')
    .executeTakeFirst();
}

export async function updateUserAssignmentColumns(
  trx: Tx,
  companyId: string,
  projectId: string,
  userId: string,
  columns: UserAssignmentColumns,
  now: Date,
) {
  await trx
    .updateTable('project_user_assignments')
    .set({ ...columns, updated_at: now })
    .where('company_id', '=', companyId)
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteUserAssignment(trx: Tx, companyId: string, projectId: string, userId: string) {
  const removed = await trx
    .deleteFrom('project_user_assignments')
    .where('company_id', '=', companyId)
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .returning('user_id')
    .executeTakeFirst();
  return removed !== undefined;
}

/** Assignments across the workspace with project name and the member's identity and role (the operator's view). */
export function selectWorkspaceAssignments(trx: Tx, companyId: string) {
  return trx
    .selectFrom('project_user_assignments as a')
    .innerJoin('projects as p', (j) => j.onRef('p.company_id', '=', 'a.company_id').onRef('p.id', '=', 'a.project_id'))
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .innerJoin('memberships as m', (j) => j.onRef('m.company_id', '=', 'a.company_id').onRef('m.user_id', '=', 'a.user_id'))
    .select([
      'a.project_id',
      'p.name as project_name',
      'a.user_id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'm.role',
      'a.is_project_manager',
      'a.is_active',
      'a.budget',
      'a.created_at',
      'a.updated_at',
    ])
    .where('a.company_id', '=', companyId);
}

export type ProjectAssignmentRow = Awaited<ReturnType<ReturnType<typeof selectWorkspaceAssignments>['executeTakeFirstOrThrow']>>;

export async function findWorkspaceAssignment(trx: Tx, companyId: string, projectId: string, userId: string) {
  return selectWorkspaceAssignments(trx, companyId).where('a.project_id', '=', projectId).where('a.user_id', '=', userId).executeTakeFirst();
}
