import { sql } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { projectVisible, type OwnAssignment } from '../../../access/catalog.ts';
import { isOperator } from '../../../access/operator.ts';
import type { BudgetBy } from '../../../db/types.ts';
import { insertRow, nameTaken, updateRow } from '../../../db/rows.ts';
import type { Tx } from '../../../db/tenant.ts';
import { fetchPage, type PageParams } from '../../../http/pagination.ts';
import type { TaskState } from './rules.ts';

/** Every query takes the workspace id first and filters on it (row-level security is the second wall). */

const TASK_COLUMNS = [
  't.id',
  't.name',
  't.billable_by_default',
  't.default_hourly_rate',
  't.is_default',
  't.is_active',
  't.created_at',
  't.updated_at',
] as const;

function taskSelect(trx: Tx, companyId: string) {
  return trx.selectFrom('tasks as t').select(TASK_COLUMNS).where('t.company_id', '=', companyId);
}

export interface TaskFilter {
  isActive?: boolean;
  updatedSince?: Date;
  /** Only the tasks actively assigned to this project, with the assignment's columns. */
  projectId?: string;
}

/**
 * One page of the workspace's tasks by name (case-insensitive) then id. With a
 * project: only tasks whose assignment to it is active, and `updated_since`
 * counts a change of the assignment too (its budget is part of the item).
 */
export function listTasks(trx: Tx, companyId: string, filter: TaskFilter, page: PageParams) {
  let query = taskSelect(trx, companyId);
  if (filter.isActive !== undefined) query = query.where('t.is_active', '=', filter.isActive);
  if (filter.projectId) {
    const projectId = filter.projectId;
    const assigned = query
      .innerJoin('project_task_assignments as pta', (j) =>
        j.onRef('pta.company_id', '=', 't.company_id').onRef('pta.task_id', '=', 't.id').on('pta.project_id', '=', projectId),
      )
      .select(['pta.is_active as assignment_active', 'pta.budget as assignment_budget'])
      .where('pta.company_id', '=', companyId)
      .where('pta.is_active', '=', true);
    const since = filter.updatedSince
      ? assigned.where(sql<Date>`greatest(t.updated_at, pta.updated_at)`, '>=', filter.updatedSince)
      : assigned;
    return fetchPage(since.orderBy(sql`lower(t.name)`).orderBy('t.id'), page);
  }
  if (filter.updatedSince) query = query.where('t.updated_at', '>=', filter.updatedSince);
  return fetchPage(query.orderBy(sql`lower(t.name)`).orderBy('t.id'), page);
}

/** A task of the workspace, or undefined. `lock` takes a row lock on it. */
export async function findTask(trx: Tx, companyId: string, id: string, { lock = false } = {}) {
  let query = taskSelect(trx, companyId).where('t.id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** A task with its assignment to a project (assignment_active null: not assigned at all). */
export async function findTaskForProject(trx: Tx, companyId: string, id: string, projectId: string) {
  return taskSelect(trx, companyId)
    .leftJoin('project_task_assignments as pta', (j) =>
      j
        .onRef('pta.company_id', '=', 't.company_id')
        .onRef('pta.task_id', '=', 't.id')
        .on('pta.project_id', '=', projectId),
    )
    .select(['pta.is_active as assignment_active', 'pta.budget as assignment_budget'])
    .where('t.id', '=', id)
    .executeTakeFirst();
}

/** Whether another task of the workspace has this name, ignoring case. */
export const taskNameTaken = (trx: Tx, companyId: string, name: string, exceptId?: string) =>
  nameTaken(trx, 'tasks', companyId, name, exceptId);

/** A task by name, ignoring case (the command line accepts names). */
export async function findTaskByName(trx: Tx, companyId: string, name: string) {
  return taskSelect(trx, companyId).where(sql`lower(t.name)`, '=', name.trim().toLowerCase()).executeTakeFirst();
}

export const insertTask = (trx: Tx, companyId: string, id: string, state: TaskState, now: Date) =>
  insertRow(trx, 'tasks', companyId, id, state, now);

export const updateTaskColumns = (trx: Tx, companyId: string, id: string, changes: Partial<TaskState>, now: Date) =>
  updateRow(trx, 'tasks', companyId, id, changes, now);

// ---- the project a task request names ----

/** A project as task and task-assignment requests need it: its budget settings and the caller's own assignment. */
export interface ProjectScope {
  id: string;
  name: string;
  is_active: boolean;
  budget_by: BudgetBy;
  show_budget_to_all: boolean;
  /** The caller's own project_user_assignments row (null: not assigned, or the operator). */
  own: OwnAssignment | null;
}

/** The project if the actor sees it (projectVisible), else undefined. `lock` takes a share lock on it. */
export async function findProjectScope(
  trx: Tx,
  companyId: string,
  actor: Principal,
  projectId: string,
  { lock = false } = {},
): Promise<ProjectScope | undefined> {
  let query = trx
    .selectFrom('projects as p')
    .select(['p.id', 'p.name', 'p.is_active', 'p.budget_by', 'p.show_budget_to_all'])
    .where('p.company_id', '=', companyId)
    .where('p.id', '=', projectId);
  query = query.where(projectVisible(actor, 'p'));
  if (lock) query = query.forShare();
  const project = await query.executeTakeFirst();
  if (!project) return undefined;
  const own = !isOperator(actor)
    ? ((await trx
        .selectFrom('project_user_assignments')
        .select(['is_active', 'is_project_manager'])
        .where('company_id', '=', companyId)
        .where('project_id', '=', projectId)
        .where('user_id', '=', actor.userId)
        .executeTakeFirst()) ?? null)
    : null;
  return { ...project, own };
}
