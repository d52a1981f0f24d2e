import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { maySeeBudget, maySeeRates, maySetCommercialFields, mayWriteTasks } from '../../../access/catalog.ts';
import { auditActor } from '../../../access/operator.ts';
import type { DB } from '../../../db/types.ts';
import { columnsOf, nameRace, nameTakenError } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { forbidden, notFound } from '../../../errors.ts';
import type { PageParams } from '../../../http/pagination.ts';
import { isId, newId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import type { TaskRow, TaskView } from './presenter.ts';
import {
  findProjectScope,
  findTask,
  findTaskByName,
  findTaskForProject,
  insertTask,
  listTasks as listTaskRows,
  taskNameTaken,
  updateTaskColumns,
  type ProjectScope,
  type TaskFilter,
} from './queries.ts';
import { NEW_TASK, applyTaskInput, changedTaskColumns, type TaskState } from './rules.ts';
import type { TaskInput } from './schemas.ts';

/**
 * Workspace tasks: reusable definitions assigned to projects. Every operation
 * runs in one tenant transaction; an unknown, malformed or other-workspace id is
 * simply not found. The actor is an API caller, a web session or, for `sheaf
 * admin`, the operator (src/access/operator.ts), all asked the same checks.
 */

// ---- what the actor may see (asked of src/access, never by role) ----

/** Whether the actor sees the project's budget (maySeeBudget with its own assignment there). */
export const maySeeProjectBudget = (actor: Principal, project: ProjectScope) => maySeeBudget(actor, project, project.own);

/** What the actor sees of a task read with (or without) a project. */
export function taskView(actor: Principal, project?: ProjectScope): TaskView {
  return { rates: maySeeRates(actor), budget: project !== undefined && maySeeProjectBudget(actor, project) };
}

/** The project named by a task request: visible to the actor, else 404 (never 403, so nothing leaks). */
export async function projectScopeOrThrow(trx: Tx, companyId: string, actor: Principal, projectId: string, lock = false) {
  const project = isId(projectId) ? await findProjectScope(trx, companyId, actor, projectId, { lock }) : undefined;
  if (!project) throw notFound('project');
  return project;
}

async function taskOrThrow(trx: Tx, companyId: string, id: string, lock = false) {
  const row = isId(id) ? await findTask(trx, companyId, id, { lock }) : undefined;
  if (!row) throw notFound('task');
  return row;
}

const TASK = 'A task';

const stateOf = (row: TaskRow): TaskState => columnsOf(row, ['name', 'billable_by_default', 'default_hourly_rate', 'is_default', 'is_active']);

function assertMayWrite(actor: Principal, input: TaskInput) {
  if (!mayWriteTasks(actor)) throw forbidden('Your role does not allow creating or editing tasks.');
  if (input.default_hourly_rate !== undefined && !maySetCommercialFields(actor)) {
    throw forbidden('Setting default_hourly_rate needs the permission to view billable rates.');
  }
}

// ---- reads ----

export interface TaskPage {
  rows: TaskRow[];
  total: number;
  view: TaskView;
}

/**
 * One page of tasks. Without a project: every task of the workspace. With one:
 * the project must be visible to the actor (404 otherwise), only tasks actively
 * assigned to it are listed, and their budget is shown where the actor may see
 * that project's budget.
 */
export function listTasks(db: Kysely<DB>, companyId: string, actor: Principal, filter: TaskFilter, page: PageParams): Promise<TaskPage> {
  return withTenant(db, companyId, async (trx) => {
    const project = filter.projectId ? await projectScopeOrThrow(trx, companyId, actor, filter.projectId) : undefined;
    const { rows, total } = await listTaskRows(trx, companyId, filter, page);
    return { rows, total, view: taskView(actor, project) };
  });
}

/**
 * One task. With a project (visible to the actor, else 404), the task carries
 * its assignment to it, so `budget` shows only for an active assignment.
 */
export function getTask(db: Kysely<DB>, companyId: string, actor: Principal, id: string, { projectId }: { projectId?: string } = {}) {
  return withTenant(db, companyId, async (trx) => {
    if (!projectId) return { row: await taskOrThrow(trx, companyId, id), view: taskView(actor) };
    const project = await projectScopeOrThrow(trx, companyId, actor, projectId);
    const row = isId(id) ? await findTaskForProject(trx, companyId, id, project.id) : undefined;
    if (!row) throw notFound('task');
    return { row, view: taskView(actor, project) };
  });
}

/** A task by id or (for the command line) by name, ignoring case. */
export function resolveTask(db: Kysely<DB>, companyId: string, ref: string): Promise<TaskRow> {
  return withTenant(db, companyId, async (trx) => {
    const row = isId(ref) ? await findTask(trx, companyId, ref) : await findTaskByName(trx, companyId, ref);
    if (!row) throw notFound('task');
    return row;
  });
}

// ---- writes ----

export async function createTask(db: Kysely<DB>, companyId: string, actor: Principal, input: TaskInput & { name: string }, now: Date) {
  assertMayWrite(actor, input);
  const state = applyTaskInput({ ...NEW_TASK, name: '' }, input);
  const id = newId(now.getTime());
  try {
    return await withTenant(db, companyId, async (trx) => {
      if (await taskNameTaken(trx, companyId, state.name)) throw nameTakenError(TASK, state.name);
      await insertTask(trx, companyId, id, state, now);
      await audit(trx, { ...auditActor(actor), action: 'task.created', subjectType: 'task', subjectId: id, details: { ...state } });
      return { row: await taskOrThrow(trx, companyId, id), view: taskView(actor) };
    });
  } catch (err) {
    throw nameRace(err, TASK, state.name);
  }
}

/** Called with the locked current row and the actor's view before a change; throws 412 or anything else to stop it. */
export type TaskPrecondition = (current: TaskRow, view: TaskView) => void;

/**
 * Applies the writable properties given. A change that changes nothing writes
 * nothing, so `updated_at` and the ETag stay as they were.
 */
export async function updateTask(
  db: Kysely<DB>,
  companyId: string,
  actor: Principal,
  id: string,
  input: TaskInput,
  { now, precondition }: { now: Date; precondition?: TaskPrecondition },
) {
  assertMayWrite(actor, input);
  try {
    return await withTenant(db, companyId, async (trx) => {
      const row = await taskOrThrow(trx, companyId, id, true);
      const view = taskView(actor);
      precondition?.(row, view);
      const before = stateOf(row);
      const changes = changedTaskColumns(before, applyTaskInput(before, input));
      if (Object.keys(changes).length === 0) return { row, view };
      if (changes.name !== undefined && (await taskNameTaken(trx, companyId, changes.name, row.id))) {
        throw nameTakenError(TASK, changes.name);
      }
      await updateTaskColumns(trx, companyId, row.id, changes, now);
      await audit(trx, { ...auditActor(actor), action: 'task.updated', subjectType: 'task', subjectId: row.id, details: { changes } });
      return { row: await taskOrThrow(trx, companyId, row.id), view };
    });
  } catch (err) {
    throw nameRace(err, TASK, typeof input.name === 'string' ? input.name.trim() : undefined);
  }
}
