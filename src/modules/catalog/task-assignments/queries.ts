import { sql } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';
import { billableRateOn } from '../rates/index.ts';
import { fetchPage, type PageParams } from '../../../http/pagination.ts';
import type { AssignmentColumns } from './rules.ts';

/** Every query takes the workspace id first and filters on it (row-level security is the second wall). */

function assignmentSelect(trx: Tx, companyId: string, projectId: string, day: string) {
  return trx
    .selectFrom('project_task_assignments as pta')
    .innerJoin('tasks as t', (j) => j.onRef('t.company_id', '=', 'pta.company_id').onRef('t.id', '=', 'pta.task_id'))
    // The billable rate of scope project + task in force on `day`: the latest row from on or before it.
    .leftJoinLateral(billableRateOn(trx, 'pta', 'task', day), (j) => j.onTrue())
    .select([
      'pta.project_id',
      'pta.task_id',
      't.name as task_name',
      'pta.is_active',
      'pta.billable',
      'pta.budget',
      'rate.hourly_rate',
      'rate.effective_from as hourly_rate_effective_from',
      'pta.created_at',
      'pta.updated_at',
    ])
    .where('pta.company_id', '=', companyId)
    .where('pta.project_id', '=', projectId);
}

export interface AssignmentFilter {
  isActive?: boolean;
}

/** One page of a project's task assignments by task name (case-insensitive) then task id; rates as of `day`. */
export function listAssignments(trx: Tx, companyId: string, projectId: string, filter: AssignmentFilter, day: string, page: PageParams) {
  let query = assignmentSelect(trx, companyId, projectId, day);
  if (filter.isActive !== undefined) query = query.where('pta.is_active', '=', filter.isActive);
  return fetchPage(query.orderBy(sql`lower(t.name)`).orderBy('pta.task_id'), page);
}

/** One assignment with the rate in force on `day`, or undefined. */
export async function findAssignment(trx: Tx, companyId: string, projectId: string, taskId: string, day: string) {
  return assignmentSelect(trx, companyId, projectId, day).where('pta.task_id', '=', taskId).executeTakeFirst();
}

/** Locks an assignment row for a change; undefined when there is none. */
export function lockAssignment(trx: Tx, companyId: string, projectId: string, taskId: string) {
  return trx
    .selectFrom('project_task_assignments')
    .select(['is_active', 'billable', 'budget'])
    .where('company_id', '=', companyId)
    .where('project_id', '=', projectId)
    .where('task_id', '=', taskId)
    .forUpdate()
    .executeTakeFirst();
}

/** Assigns a task to a project; false when the project already has it. Unless `columns` say otherwise, it is active, without a budget. */
export async function insertAssignment(
  trx: Tx,
  companyId: string,
  projectId: string,
  taskId: string,
  columns: AssignmentColumns & { billable: boolean },
  now: Date,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('project_task_assignments')
    .values({
      company_id: companyId,
      project_id: projectId,
      task_id: taskId,
      is_active: columns.is_active ?? true,
      billable: columns.billable,
      budget: columns.budget ?? null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['company_id', 'project_id', 'task_id']).doNothing())
    .returning('task_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateAssignmentColumns(
  trx: Tx,
  companyId: string,
  projectId: string,
  taskId: string,
  columns: AssignmentColumns,
  now: Date,
) {
  await trx
    .updateTable('project_task_assignments')
    .set({ ...columns, updated_at: now })
    .where('company_id', '=', companyId)
    .where('project_id', '=', projectId)
    .where('task_id', '=', taskId)
    .execute();
}
