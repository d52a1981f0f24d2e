import { auditActor } from '../../../access/operator.ts';
import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import {
  mayBeAssignedToProjects,
  mayBeProjectManager,
  mayCreateProjects,
  mayDeleteProjects,
  maySeeBudget,
  maySeeInternalCosts,
  maySeeRates,
  maySetCommercialFields,
  mayUpdateProject,
  mayWriteTasks,
  type OwnAssignment,
} from '../../../access/catalog.ts';
import type { DB } from '../../../db/types.ts';
import { columnsOf } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../../errors.ts';
import type { PageParams } from '../../../http/pagination.ts';
import { isId, newId } from '../../../ids.ts';
import { findMembership } from '../../people/users/index.ts';
import { audit } from '../../workspace/audit/index.ts';
import { FROM_THE_START, rateOn, setRate, workspaceToday } from '../rates/index.ts';
import { presentRateHistory, type ProjectRow, type ProjectTaskRow, type ProjectView } from './presenter.ts';
import { insertUserAssignment } from '../assignments/index.ts';
import { sameDecimal } from '../../../money.ts';
import { activeClients, activePeople, activeTasks, projectRateRows, workspaceCurrency } from './web-queries.ts';
import {
  countRunningTimers,
  defaultTasks,
  expenseReceiptIds,
  findProject,
  insertProject,
  lockClient,
  insertTaskAssignments,
  listProjectTasks,
  listProjects as listProjectRows,
  lockTasks,
  updateProjectColumns,
  type LoadOptions,
  type ProjectFilter,
} from './queries.ts';
import {
  applyProjectInput,
  archiveTransition,
  changedColumns,
  commercialFieldsIn,
  newProjectState,
  personName,
  type ProjectState,
} from './rules.ts';
import type { ProjectCreateBody, ProjectInput } from './schemas.ts';

/**
 * Projects: the transactions and state transitions. Every operation runs in one
 * tenant transaction and filters on the caller's workspace; a project the caller
 * cannot see (unassigned), of another workspace, or with a malformed id is simply
 * not found (404), before any permission question is asked.
 */

// ---- what the caller may see (asked of src/access, never by role) ----

/** The caller's own assignment to the project, as loaded with it. */
export function ownAssignment(row: Pick<ProjectRow, 'own_is_active' | 'own_is_project_manager'>): OwnAssignment | null {
  if (row.own_is_active === null) return null;
  return { is_active: row.own_is_active, is_project_manager: row.own_is_project_manager === true };
}

/** What the caller may see of one project: the directory for a personal sync key, else properties by permission. */
export function projectView(p: Principal, row: Pick<ProjectRow, 'budget_by' | 'show_budget_to_all' | 'own_is_active' | 'own_is_project_manager'>): ProjectView {
  if (p.kind === 'personal') return { directory: true, rates: false, internalCosts: false, budget: false };
  return {
    directory: false,
    rates: maySeeRates(p),
    internalCosts: maySeeInternalCosts(p),
    budget: maySeeBudget(p, row, ownAssignment(row)),
  };
}

function loadOptions(p: Principal, today: string): LoadOptions {
  return { principal: p, rateOn: p.kind !== 'personal' && maySeeRates(p) ? today : undefined };
}

/** An item read: the project, its task assignments (not for the directory) and what the caller sees of it. */
export interface ProjectItem {
  row: ProjectRow;
  tasks?: ProjectTaskRow[];
  view: ProjectView;
}

async function itemOrThrow(trx: Tx, p: Principal, id: string, today: string, { lock = false } = {}): Promise<ProjectItem> {
  const row = isId(id) ? await findProject(trx, p.companyId, loadOptions(p, today), id, { lock }) : undefined;
  if (!row) throw notFound('project');
  const view = projectView(p, row);
  return { row, view, tasks: view.directory ? undefined : await listProjectTasks(trx, p.companyId, row.id) };
}


// ---- reads ----

export function listProjects(db: Kysely<DB>, p: Principal, filter: ProjectFilter, page: PageParams, now: Date) {
  // The web app's search, trimmed; a blank one filters nothing.
  const search = filter.search?.trim();
  return withTenant(db, p.companyId, async (trx) => {
    const today = await workspaceToday(trx, p.companyId, now);
    return listProjectRows(trx, p.companyId, loadOptions(p, today), { ...filter, search: search ? search : undefined }, page);
  });
}

export function getProject(db: Kysely<DB>, p: Principal, id: string, now: Date): Promise<ProjectItem> {
  return withTenant(db, p.companyId, async (trx) => itemOrThrow(trx, p, id, await workspaceToday(trx, p.companyId, now)));
}

// ---- checks shared by create and update ----

/** Billing and budget settings need the billable-rate permission: sending any of them without it is a 403. */
function assertMaySendCommercial(p: Principal, input: object) {
  const fields = commercialFieldsIn(input);
  if (fields.length > 0 && !maySetCommercialFields(p)) {
    throw new ApiError('forbidden', `Setting ${fields.join(', ')} needs the permission to view billable rates.`, { field: fields[0] });
  }
}

/** You cannot set what you may not see: the cost budget needs internal costs, the budget the project's budget. */
function assertMaySetHidden(p: Principal, input: ProjectInput, next: ProjectState, own: OwnAssignment | null) {
  if (input.cost_budget !== undefined && !maySeeInternalCosts(p)) {
    throw new ApiError('forbidden', 'Setting cost_budget needs the permission to view internal costs.', { field: 'cost_budget' });
  }
  if (input.budget !== undefined && !maySeeBudget(p, next, own)) {
    throw new ApiError('forbidden', "Setting budget needs the permission to view this project's budget.", { field: 'budget' });
  }
}

/** The client must be a client of the workspace the caller sees, and active (400 naming client_id otherwise). */
async function assertUsableClient(trx: Tx, p: Principal, clientId: string) {
  const client = isId(clientId) ? await lockClient(trx, p.companyId, p, clientId) : undefined;
  if (!client) throw badRequest('client_id does not name a client of this workspace.', { field: 'client_id' });
  if (!client.is_active) throw badRequest('The client is archived; restore it or choose an active client.', { field: 'client_id' });
}

/** The owner must be an active internal member of the workspace (400 naming owner_id otherwise). */
async function assertUsableOwner(trx: Tx, companyId: string, ownerId: string) {
  const member = await findMembership(trx, companyId, ownerId);
  if (!member || !mayBeAssignedToProjects(member)) {
    throw badRequest('owner_id does not name a member of this workspace.', { field: 'owner_id' });
  }
  if (!member.is_active) throw badRequest('owner_id names a deactivated member.', { field: 'owner_id' });
}

/** The tasks a new project gets: the workspace defaults when task_ids is omitted, else exactly those (all active). */
async function tasksForNewProject(trx: Tx, companyId: string, taskIds: string[] | undefined) {
  if (taskIds === undefined) return defaultTasks(trx, companyId);
  const malformed = taskIds.find((id) => !isId(id));
  if (malformed !== undefined) throw badRequest(`task_ids: '${malformed}' is not a task of this workspace.`, { field: 'task_ids' });
  const found = await lockTasks(trx, companyId, taskIds);
  const byId = new Map(found.map((t) => [t.id, t]));
  for (const id of taskIds) {
    const task = byId.get(id);
    if (!task) throw badRequest(`task_ids: '${id}' is not a task of this workspace.`, { field: 'task_ids' });
    if (!task.is_active) throw badRequest(`task_ids: the task '${id}' is archived.`, { field: 'task_ids' });
  }
  return taskIds.map((id) => byId.get(id)!);
}

const stateOf = (row: ProjectRow): ProjectState =>
  columnsOf(row, [
    'client_id', 'name', 'code', 'notes', 'owner_id', 'starts_on', 'ends_on', 'is_active', 'is_billable',
    'bill_by', 'is_fixed_fee', 'fee', 'cost_budget', 'budget_by', 'budget', 'budget_is_monthly', 'show_budget_to_all',
    'notify_when_over_budget', 'over_budget_notification_percentage',
  ]);

// ---- writes ----

/**
 * Creates a project. Needs mayCreateProjects; billing and budget settings need
 * maySetCommercialFields. The client must be an active client of the workspace,
 * the owner an active member, the tasks active tasks (omitted: the workspace's
 * default tasks; []: none). Each task assignment is billable per the task's
 * `billable_by_default` and gets the task's default hourly rate. Rates given at
 * creation (the project's `hourly_rate`, those task rates) price all the
 * project's work whatever its date (FROM_THE_START), unless the body names an
 * `hourly_rate_effective_from` for the project rate. The creator is assigned to it; a manager as its project
 * manager.
 */
export async function createProject(db: Kysely<DB>, p: Principal, input: Static<typeof ProjectCreateBody>, now: Date) {
  if (!mayCreateProjects(p)) throw forbidden('Your role does not allow creating projects.');
  assertMaySendCommercial(p, input);
  const { state, rate } = applyProjectInput(newProjectState(input), input);
  // The creator is assigned to the project, so it stays in their sight (and their
  // time can go on it); a manager also manages it, owners and administrators
  // cannot be project managers (mayBeProjectManager) and manage every project anyway.
  const creatorAssignment: OwnAssignment = { is_active: true, is_project_manager: mayBeProjectManager({ role: p.role }) };
  assertMaySetHidden(p, input, state, creatorAssignment);
  const id = newId(now.getTime());
  return withTenant(db, p.companyId, async (trx) => {
    await assertUsableClient(trx, p, state.client_id);
    if (state.owner_id !== null) await assertUsableOwner(trx, p.companyId, state.owner_id);
    const tasks = await tasksForNewProject(trx, p.companyId, input.task_ids);
    const today = await workspaceToday(trx, p.companyId, now);

    await insertProject(trx, p.companyId, id, state, now);
    await insertTaskAssignments(trx, p.companyId, id, tasks.map((t) => ({ id: t.id, billable: t.billable_by_default })), now);
    for (const task of tasks) {
      if (task.default_hourly_rate !== null) {
        await setRate(trx, p.companyId, { kind: 'billable', projectId: id, taskId: task.id }, FROM_THE_START, task.default_hourly_rate);
      }
    }
    if (rate) await setRate(trx, p.companyId, { kind: 'billable', projectId: id }, rate.from ?? FROM_THE_START, rate.hourlyRate);
    await insertUserAssignment(trx, p.companyId, id, p.userId, { is_project_manager: creatorAssignment.is_project_manager, is_active: true }, now);
    await audit(trx, {
      ...auditActor(p),
      action: 'project.created',
      subjectType: 'project',
      subjectId: id,
      details: { ...state, task_ids: tasks.map((t) => t.id), hourly_rate: rate?.hourlyRate ?? null },
    });
    return itemOrThrow(trx, p, id, today);
  });
}

/** Called with the locked current item before a change; throws 412/428 (If-Match) or anything else to stop it. */
export type Precondition = (current: ProjectItem) => void;

/**
 * PATCH: applies the writable properties given. Update, archive and restore need
 * mayUpdateProject (administrators, or managers of the project); billing and
 * budget settings need maySetCommercialFields. Order of answers: 404 (not
 * visible), 403, 412 (stale If-Match), 400 (rules), 409 (restoring a project of
 * an archived client). `hourly_rate` sets the project rate from
 * `hourly_rate_effective_from` or today (workspace zone) on; earlier dates keep
 * their rate. A PATCH that changes nothing writes nothing, so `updated_at` and the
 * ETag stay as they were.
 */
export async function updateProject(
  db: Kysely<DB>,
  p: Principal,
  id: string,
  input: ProjectInput,
  { now, precondition }: { now: Date; precondition?: Precondition },
): Promise<ProjectItem> {
  return withTenant(db, p.companyId, async (trx) => {
    const today = await workspaceToday(trx, p.companyId, now);
    const current = await itemOrThrow(trx, p, id, today, { lock: true });
    const own = ownAssignment(current.row);
    if (!mayUpdateProject(p, own)) throw forbidden('Only administrators and the managers of this project may change it.');
    assertMaySendCommercial(p, input);
    precondition?.(current);

    const before = stateOf(current.row);
    const { state, rate } = applyProjectInput(before, input);
    assertMaySetHidden(p, input, state, own);
    const changes = changedColumns(before, state);
    if (changes.client_id !== undefined) await assertUsableClient(trx, p, changes.client_id);
    if (changes.owner_id !== undefined && changes.owner_id !== null) await assertUsableOwner(trx, p.companyId, changes.owner_id);
    const transition = archiveTransition(before.is_active, state.is_active);
    if (transition === 'restore' && changes.client_id === undefined) await assertClientActiveForRestore(trx, p.companyId, state.client_id);

    let rateSet: { hourly_rate: string; effective_from: string } | null = null;
    if (rate) {
      const from = rate.from ?? today;
      const scope = { kind: 'billable', projectId: current.row.id } as const;
      if (!sameDecimal(await rateOn(trx, p.companyId, scope, from), rate.hourlyRate)) {
        await setRate(trx, p.companyId, scope, from, rate.hourlyRate);
        rateSet = { hourly_rate: rate.hourlyRate, effective_from: from };
      }
    }
    if (Object.keys(changes).length === 0 && !rateSet) return current;

    await updateProjectColumns(trx, p.companyId, current.row.id, changes, now);
    const action = transition === 'archive' ? 'project.archived' : transition === 'restore' ? 'project.restored' : 'project.updated';
    await audit(trx, { ...auditActor(p), action, subjectType: 'project', subjectId: current.row.id, details: { changes, rate: rateSet } });
    return itemOrThrow(trx, p, current.row.id, today);
  });
}

/** An archived client keeps no active projects: restore the client first (409). */
async function assertClientActiveForRestore(trx: Tx, companyId: string, clientId: string) {
  const client = await lockClient(trx, companyId, null, clientId);
  if (!client?.is_active) {
    throw conflict("The project's client is archived; restore the client before restoring the project.", { field: 'is_active', refusal: 'client_archived' });
  }
}

/**
 * What blocks a project's permanent deletion besides being active (checked by
 * deleteProject). Today: running timers on the project, someone's live work, are
 * a 409 with `running_entry_count`.
 *
 * Historical invoice lines are kept by the schema itself (0020:
 * invoice_line_items.project_id is set null when the project goes; entries
 * point at their line, not the reverse), so billed entries and expenses are
 * deleted and their lines stay. A new dependency that cannot be preserved that
 * way must throw its 409 here, before anything is deleted.
 */
export async function assertProjectDeletable(trx: Tx, companyId: string, projectId: string): Promise<void> {
  const running = await countRunningTimers(trx, companyId, projectId);
  if (running > 0) {
    throw conflict(`${running} timer(s) are running on this project; stop them before deleting it.`, { running_entry_count: running, refusal: 'project_has_running_timers' });
  }
}

/**
 * Removes everything bound to a project, before the project row itself: its time
 * entries, its expenses (and the receipt files no other expense uses), its rates
 * and its task and user assignments. The foreign keys cascade too; the explicit
 * order is the place later issues extend (integration mappings, when they exist,
 * are removed here). Invoice lines are not touched: they outlive the project.
 */
export async function deleteProjectDependents(trx: Tx, companyId: string, projectId: string): Promise<void> {
  const byProject = async (table: 'time_entries' | 'expenses' | 'project_task_assignments' | 'project_user_assignments' | 'rates') => {
    await trx.deleteFrom(table).where('company_id', '=', companyId).where('project_id', '=', projectId).execute();
  };
  await byProject('time_entries');
  const receipts = await expenseReceiptIds(trx, companyId, projectId);
  await byProject('expenses');
  if (receipts.length > 0) {
    await trx
      .deleteFrom('files')
      .where('company_id', '=', companyId)
      .where('id', 'in', receipts)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('expenses as e')
              .select('e.id')
              .where('e.company_id', '=', companyId)
              .whereRef('e.receipt_file_id', '=', 'files.id'),
          ),
        ),
      )
      .execute();
  }
  await byProject('rates');
  await byProject('project_task_assignments');
  await byProject('project_user_assignments');
}

/**
 * Permanent delete: mayDeleteProjects (owners and administrators), an archived
 * project, a current If-Match (the route's precondition: 428 when missing, 412
 * when stale), and nothing assertProjectDeletable refuses; otherwise nothing is
 * deleted. A foreign key that still refers to the project is a 409 too.
 */
export async function deleteProject(db: Kysely<DB>, p: Principal, id: string, { now, precondition }: { now: Date; precondition?: Precondition }) {
  if (!mayDeleteProjects(p)) throw forbidden('Only owners and administrators may delete projects.');
  try {
    await withTenant(db, p.companyId, async (trx) => {
      const current = await itemOrThrow(trx, p, id, await workspaceToday(trx, p.companyId, now), { lock: true });
      precondition?.(current);
      if (current.row.is_active) throw conflict('Archive the project before deleting it.', { field: 'is_active', refusal: 'archive_first' });
      await assertProjectDeletable(trx, p.companyId, current.row.id);
      await deleteProjectDependents(trx, p.companyId, current.row.id);
      await trx.deleteFrom('projects').where('company_id', '=', p.companyId).where('id', '=', current.row.id).execute();
      await audit(trx, { ...auditActor(p), action: 'project.deleted', subjectType: 'project', subjectId: current.row.id, details: { name: current.row.name } });
    });
  } catch (err) {
    if ((err as { code?: string })?.code === '23503') throw conflict('The project still has records that depend on it and cannot be removed.');
    throw err;
  }
}

// ---- the web app's project screens ----

/** A project the caller sees (404 for an unknown, malformed, other-workspace or unassigned id). */
async function visibleProject(trx: Tx, p: Principal, id: string) {
  const row = isId(id) ? await findProject(trx, p.companyId, { principal: p }, id) : undefined;
  if (!row) throw notFound('project');
  return row;
}

/**
 * What the project forms pick from (active clients, people and tasks, today in the workspace
 * zone) and what the caller may do, asked of the same rules the API applies. With a project
 * (404 when the caller does not see it), `update` and `edit_tasks` are for that project.
 */
export function projectChoices(db: Kysely<DB>, p: Principal, projectId: string | undefined, now: Date) {
  return withTenant(db, p.companyId, async (trx) => {
    const project = projectId === undefined ? undefined : await visibleProject(trx, p, projectId);
    const clients = await activeClients(trx, p);
    const people = await activePeople(trx, p.companyId);
    const tasks = await activeTasks(trx, p.companyId);
    const today = await workspaceToday(trx, p.companyId, now);
    return {
      today,
      currency: await workspaceCurrency(trx, p.companyId),
      clients,
      people: people.map((m) => ({ id: m.id, name: personName(m.first_name, m.last_name), may_manage: mayBeProjectManager(m) })),
      tasks,
      may: {
        create: mayCreateProjects(p),
        see_rates: maySeeRates(p),
        set_commercial: maySetCommercialFields(p),
        see_internal_costs: maySeeInternalCosts(p),
        update: project ? mayUpdateProject(p, ownAssignment(project)) : false,
        delete: mayDeleteProjects(p),
        edit_tasks: project !== undefined && mayWriteTasks(p),
      },
    };
  });
}

/**
 * Every billable rate of a project the caller sees (404 otherwise), its task assignments and its
 * people, for callers who may see billable rates (403).
 */
export function projectRateHistory(db: Kysely<DB>, p: Principal, id: string) {
  return withTenant(db, p.companyId, async (trx) => {
    const project = await visibleProject(trx, p, id);
    if (!maySeeRates(p)) throw forbidden('Rates are shown only to people who may see billable rates.');
    return presentRateHistory(project.client_currency, await projectRateRows(trx, p.companyId, project.id));
  });
}
