import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { maySeeRates, maySetCommercialFields, mayWriteTasks } from '../../../access/catalog.ts';
import { auditActor } from '../../../access/operator.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { badRequest, conflict, forbidden, notFound } from '../../../errors.ts';
import type { PageParams } from '../../../http/pagination.ts';
import { isId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import { FROM_THE_START, rateOn, workspaceToday } from '../rates/index.ts';
import { changedAssignmentColumns, duplicateAs, writeAssignmentRate, type RateSet, type RateChange } from '../assignments/index.ts';
import { findTask, maySeeProjectBudget, projectScopeOrThrow, type ProjectScope } from '../tasks/index.ts';
import type { AssignmentRow, AssignmentView } from './presenter.ts';
import {
  findAssignment,
  insertAssignment,
  listAssignments,
  lockAssignment,
  updateAssignmentColumns,
  type AssignmentFilter,
} from './queries.ts';
import { ASSIGNMENT_FLAGS, parseAssignmentInput, type AssignmentColumns } from './rules.ts';
import type { AssignmentInput } from './schemas.ts';

/**
 * Task assignments: which workspace tasks a project uses, whether each is
 * billable there, its budget, and its billable hourly rate, an effective-dated
 * rate of scope project + task (see src/modules/rates), so a change never
 * reprices work dated before it. Reading needs the project visible; writing
 * needs mayWriteTasks and the project visible; the budget needs maySeeBudget
 * to see or set, the rate maySeeRates to see and the billable-rate permission to
 * set. An unknown, other-workspace or invisible project or task is 404.
 */

export function assignmentView(actor: Principal, project: ProjectScope): AssignmentView {
  return { budget: maySeeProjectBudget(actor, project), rates: maySeeRates(actor) };
}

async function assignmentOrThrow(trx: Tx, companyId: string, projectId: string, taskId: string, day: string) {
  const row = isId(taskId) ? await findAssignment(trx, companyId, projectId, taskId, day) : undefined;
  if (!row) throw notFound('task assignment');
  return row;
}

function assertMayWrite(actor: Principal) {
  if (!mayWriteTasks(actor)) throw forbidden('Your role does not allow editing the tasks of projects.');
}

/** Budget and rate changes need the permission to see (budget) or set (rate) them on this project. */
function assertMaySet(actor: Principal, project: ProjectScope, input: { budget?: unknown; rate: RateChange | null }) {
  if (input.budget !== undefined && !maySeeProjectBudget(actor, project)) {
    throw forbidden("Setting budget needs the permission to view this project's budget.");
  }
  if (input.rate && !maySetCommercialFields(actor)) throw forbidden('Setting hourly_rate needs the permission to view billable rates.');
}

// ---- reads ----

export function listTaskAssignments(
  db: Kysely<DB>,
  companyId: string,
  actor: Principal,
  projectId: string,
  filter: AssignmentFilter,
  page: PageParams,
  now: Date,
): Promise<{ rows: AssignmentRow[]; total: number; view: AssignmentView }> {
  return withTenant(db, companyId, async (trx) => {
    const project = await projectScopeOrThrow(trx, companyId, actor, projectId);
    const day = await workspaceToday(trx, companyId, now);
    const { rows, total } = await listAssignments(trx, companyId, project.id, filter, day, page);
    return { rows, total, view: assignmentView(actor, project) };
  });
}

export function getTaskAssignment(db: Kysely<DB>, companyId: string, actor: Principal, projectId: string, taskId: string, now: Date) {
  return withTenant(db, companyId, async (trx) => {
    const project = await projectScopeOrThrow(trx, companyId, actor, projectId);
    const day = await workspaceToday(trx, companyId, now);
    return { row: await assignmentOrThrow(trx, companyId, project.id, taskId, day), view: assignmentView(actor, project) };
  });
}

// ---- writes ----

/** Every rate given is written (a task assignment's rate change bumps `updated_at` even when equal). */
const applyRate = (trx: Tx, companyId: string, projectId: string, taskId: string, rate: RateChange, day: string) =>
  writeAssignmentRate(trx, companyId, { kind: 'billable', projectId, taskId }, rate, day) as Promise<RateSet>;

/** One create or update of an assignment: who asks, the project and task, and the body parsed. */
interface Change {
  companyId: string;
  actor: Principal;
  projectId: string;
  taskId: string;
  columns: AssignmentColumns;
  rate: RateChange | null;
  now: Date;
}

/** Checks that the actor may write task assignments and parses the body (a 400 naming the field), before any transaction. */
function changeOf(companyId: string, actor: Principal, projectId: string, taskId: string, input: AssignmentInput, now: Date): Change {
  assertMayWrite(actor);
  return { companyId, actor, projectId, taskId, ...parseAssignmentInput(input), now };
}

/** A write of the assignment (project, task) as a service function: the body checked and parsed (changeOf), then `write` in the workspace's transaction. */
function inTransaction<R>(write: (trx: Tx, change: Change) => Promise<R>) {
  return (db: Kysely<DB>, companyId: string, actor: Principal, projectId: string, taskId: string, input: AssignmentInput, now: Date) => {
    const change = changeOf(companyId, actor, projectId, taskId, input, now);
    return withTenant(db, companyId, (trx) => write(trx, change));
  };
}

/**
 * Assigns a task to a project. `billable` defaults to the task's
 * `billable_by_default`; without `hourly_rate` the task's default hourly rate (if
 * any) becomes the assignment's rate. A rate given here applies to all the
 * assignment's work whatever its date (FROM_THE_START), unless
 * `hourly_rate_effective_from` names a date. An archived task is a 400; an
 * existing assignment (active or not) a 409: change it with PATCH.
 */
export async function createTaskAssignment(
  db: Kysely<DB>,
  companyId: string,
  actor: Principal,
  projectId: string,
  input: AssignmentInput & { task_id: string },
  now: Date,
) {
  const change = changeOf(companyId, actor, projectId, input.task_id, input, now);
  try {
    return await withTenant(db, companyId, (trx) => create(trx, change));
  } catch (err) {
    duplicateAs(err, alreadyAssigned);
  }
}

const alreadyAssigned = () =>
  conflict('The task is already assigned to this project; change the assignment with PATCH instead.', { field: 'task_id', refusal: 'already_assigned' });

async function create(trx: Tx, { companyId, actor, projectId, taskId, columns, rate, now }: Change) {
  const project = await projectScopeOrThrow(trx, companyId, actor, projectId, true);
  assertMaySet(actor, project, { budget: columns.budget, rate });
  const task = isId(taskId) ? await findTask(trx, companyId, taskId) : undefined;
  if (!task) throw notFound('task');
  if (!task.is_active) throw badRequest('The task is archived; restore it before assigning it.', { field: 'task_id' });
  const day = await workspaceToday(trx, companyId, now);
  const billable = columns.billable ?? task.billable_by_default;
  const inserted = await insertAssignment(trx, companyId, project.id, task.id, { ...columns, billable }, now);
  if (!inserted) throw alreadyAssigned();
  // A rate given at creation (or the task's default rate) prices all the
  // assignment's work, whatever its date; an explicit effective date is kept.
  let rateSet: RateSet | null = null;
  if (rate) rateSet = await applyRate(trx, companyId, project.id, task.id, rate, FROM_THE_START);
  else if (task.default_hourly_rate !== null) {
    const scope = { kind: 'billable', projectId: project.id, taskId: task.id } as const;
    if ((await rateOn(trx, companyId, scope, day)) === null) {
      rateSet = await applyRate(trx, companyId, project.id, task.id, { hourlyRate: task.default_hourly_rate }, FROM_THE_START);
    }
  }
  await audit(trx, {
    ...auditActor(actor),
    action: 'task_assignment.created',
    subjectType: 'project',
    subjectId: project.id,
    details: { task_id: task.id, ...columns, rate: rateSet },
  });
  return { row: await assignmentOrThrow(trx, companyId, project.id, task.id, day), view: assignmentView(actor, project) };
}

/**
 * Changes an assignment: `is_active`, `billable`, `budget`, and a new rate from
 * `hourly_rate_effective_from` (default today in the workspace zone) on. A rate
 * change bumps `updated_at`; a body that changes nothing writes nothing.
 */
export const updateTaskAssignment = inTransaction(update);

async function update(trx: Tx, { companyId, actor, projectId, taskId, columns, rate, now }: Change) {
  const project = await projectScopeOrThrow(trx, companyId, actor, projectId, true);
  const current = isId(taskId) ? await lockAssignment(trx, companyId, project.id, taskId) : undefined;
  if (!current) throw notFound('task assignment');
  assertMaySet(actor, project, { budget: columns.budget, rate });
  const day = await workspaceToday(trx, companyId, now);
  const changed = changedAssignmentColumns(columns, current, ASSIGNMENT_FLAGS);
  let rateSet: RateSet | null = null;
  if (rate) rateSet = await applyRate(trx, companyId, project.id, taskId, rate, day);
  if (Object.keys(changed).length > 0 || rateSet) {
    await updateAssignmentColumns(trx, companyId, project.id, taskId, changed, now);
    await audit(trx, {
      ...auditActor(actor),
      action: 'task_assignment.updated',
      subjectType: 'project',
      subjectId: project.id,
      details: { task_id: taskId, changes: changed, rate: rateSet },
    });
  }
  return { row: await assignmentOrThrow(trx, companyId, project.id, taskId, day), view: assignmentView(actor, project) };
}

/**
 * For `sheaf admin task assign`: assigns the task, or, when the project already
 * has it, reactivates the assignment and applies the changes given.
 */
export const assignTask = inTransaction(async (trx, change) => {
  const project = await projectScopeOrThrow(trx, change.companyId, change.actor, change.projectId, true);
  const existing = isId(change.taskId) ? await lockAssignment(trx, change.companyId, project.id, change.taskId) : undefined;
  if (!existing) return { ...(await create(trx, change)), created: true };
  const columns = { ...change.columns, is_active: change.columns.is_active ?? true };
  return { ...(await update(trx, { ...change, columns })), created: false };
});

/** For `sheaf admin task unassign`: deactivates the assignment (its budget and rate history stay). */
export function unassignTask(db: Kysely<DB>, companyId: string, actor: Principal, projectId: string, taskId: string, now: Date) {
  return updateTaskAssignment(db, companyId, actor, projectId, taskId, { is_active: false }, now);
}
