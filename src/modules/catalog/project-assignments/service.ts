import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import {
  mayBeAssignedToProjects,
  mayBeProjectManager,
  maySeeBudget,
  maySeeRates,
  maySetCommercialFields,
  mayUpdateProject,
  seesAllProjects,
} from '../../../access/catalog.ts';
import { auditActor } from '../../../access/operator.ts';
import type { DB, Role } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../../errors.ts';
import type { PageParams } from '../../../http/pagination.ts';
import { isId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import { FROM_THE_START, workspaceToday } from '../rates/index.ts';
import { changedAssignmentColumns, duplicateAs, type RateChange, insertUserAssignment, writeAssignmentRate } from '../assignments/index.ts';
import { findMembership } from '../../people/users/index.ts';
import { type ProjectRow, findProject, ownAssignment } from '../projects/index.ts';
import { sameDecimal } from '../../../money.ts';
import type { UserAssignmentRow, UserAssignmentView } from './presenter.ts';
import {
  deleteUserAssignment,
  findUserAssignment,
  findWorkspaceAssignment,
  listUserAssignments as listRows,
  lockUserAssignment,
  selectWorkspaceAssignments,
  updateUserAssignmentColumns,
} from './queries.ts';
import {
  USER_ASSIGNMENT_FLAGS,
  commercialFieldsIn,
  parseUserAssignmentInput,
  validateProjectAssignmentInput,
  type ProjectAssignmentInput,
  type UserAssignmentColumns,
} from './rules.ts';
import type { UserAssignmentCreateBody, UserAssignmentInput } from './schemas.ts';

/**
 * Project user assignments through the API: who may track time on a project (and
 * so see it), who manages it, and the person's billable rate (effective-dated,
 * scope project + user, used when the project bills by people) and budget there.
 * Every route needs the project visible (404 otherwise) and mayUpdateProject on
 * it (403): administrators, and the managers of the project. Removing or
 * deactivating an assignment takes the project out of the person's sight on
 * their next request (visibility is read fresh each time).
 */

function viewOf(p: Principal, project: ProjectRow): UserAssignmentView {
  return { rates: maySeeRates(p), budget: maySeeBudget(p, project, ownAssignment(project)) };
}

/** The project, visible to the caller (else 404) and managed by them (else 403). */
async function managedProjectOrThrow(trx: Tx, p: Principal, projectId: string) {
  const project = isId(projectId) ? await findProject(trx, p.companyId, { principal: p }, projectId) : undefined;
  if (!project) throw notFound('project');
  if (!mayUpdateProject(p, ownAssignment(project))) {
    throw forbidden("Only administrators and the managers of this project may manage its people.");
  }
  return project;
}

async function assignmentOrThrow(trx: Tx, companyId: string, projectId: string, userId: string, day: string) {
  const row = isId(userId) ? await findUserAssignment(trx, companyId, projectId, userId, day) : undefined;
  if (!row) throw notFound('project assignment');
  return row;
}

/** Rates and budgets need the billable-rate permission; a budget also needs the project's budget visible. */
function assertMaySet(p: Principal, project: ProjectRow, input: object) {
  const fields = commercialFieldsIn(input);
  if (fields.length > 0 && !maySetCommercialFields(p)) {
    throw new ApiError('forbidden', `Setting ${fields.join(', ')} needs the permission to view billable rates.`, { field: fields[0] });
  }
  if (Object.hasOwn(input, 'budget') && !maySeeBudget(p, project, ownAssignment(project))) {
    throw new ApiError('forbidden', "Setting budget needs the permission to view this project's budget.", { field: 'budget' });
  }
}

function assertManagerFlagFits(role: Role, isProjectManager: boolean | undefined) {
  if (isProjectManager === true && !mayBeProjectManager({ role })) {
    throw badRequest('Only a member with the manager role can be made a project manager (administrators manage every project).', {
      field: 'is_project_manager',
    });
  }
}

/** A rate equal to the one in force from that date writes nothing. */
const applyRate = (trx: Tx, companyId: string, projectId: string, userId: string, rate: RateChange, day: string) =>
  writeAssignmentRate(trx, companyId, { kind: 'billable', projectId, userId }, rate, day, { unlessSame: true });

// ---- reads ----

export function listProjectUserAssignments(
  db: Kysely<DB>,
  p: Principal,
  projectId: string,
  filter: { isActive?: boolean },
  page: PageParams,
  now: Date,
): Promise<{ rows: UserAssignmentRow[]; total: number; view: UserAssignmentView }> {
  return withTenant(db, p.companyId, async (trx) => {
    const project = await managedProjectOrThrow(trx, p, projectId);
    const day = await workspaceToday(trx, p.companyId, now);
    const { rows, total } = await listRows(trx, p.companyId, project.id, filter, day, page);
    return { rows, total, view: viewOf(p, project) };
  });
}

export function getProjectUserAssignment(db: Kysely<DB>, p: Principal, projectId: string, userId: string, now: Date) {
  return withTenant(db, p.companyId, async (trx) => {
    const project = await managedProjectOrThrow(trx, p, projectId);
    const day = await workspaceToday(trx, p.companyId, now);
    return { row: await assignmentOrThrow(trx, p.companyId, project.id, userId, day), view: viewOf(p, project) };
  });
}

// ---- writes ----

/**
 * Assigns a person. `user_id` must be an active internal member of the workspace
 * (400 naming it otherwise: client memberships, deactivated members, unknown and
 * other-workspace ids alike); an existing assignment, active or not, is 409.
 */
export async function createProjectUserAssignment(
  db: Kysely<DB>,
  p: Principal,
  projectId: string,
  input: Static<typeof UserAssignmentCreateBody>,
  now: Date,
) {
  const { columns, rate } = parseUserAssignmentInput(input);
  try {
    return await withTenant(db, p.companyId, async (trx) => {
      const project = await managedProjectOrThrow(trx, p, projectId);
      assertMaySet(p, project, input);
      const member = await findMembership(trx, p.companyId, input.user_id);
      if (!member || !mayBeAssignedToProjects(member)) {
        throw badRequest('user_id does not name a member of this workspace who can be assigned to projects.', { field: 'user_id' });
      }
      if (!member.is_active) throw badRequest('user_id names a deactivated member.', { field: 'user_id' });
      assertManagerFlagFits(member.role, columns.is_project_manager);
      const inserted = await insertUserAssignment(trx, p.companyId, project.id, member.user_id, columns, now);
      if (!inserted) throw alreadyAssigned();
      const day = await workspaceToday(trx, p.companyId, now);
      // A rate given with the assignment prices all the person's work on the project, whatever its date.
      const rateSet = rate ? await applyRate(trx, p.companyId, project.id, member.user_id, rate, FROM_THE_START) : null;
      await auditAssignment(trx, p, 'created', project.id, { user_id: member.user_id, ...columns, rate: rateSet });
      return { row: await assignmentOrThrow(trx, p.companyId, project.id, member.user_id, day), view: viewOf(p, project) };
    });
  } catch (err) {
    duplicateAs(err, alreadyAssigned);
  }
}

function auditAssignment(trx: Tx, p: Principal, change: 'created' | 'updated' | 'removed', projectId: string, details: object) {
  return audit(trx, { ...auditActor(p), action: `project_assignment.${change}`, subjectType: 'project', subjectId: projectId, details: { ...details } });
}

const alreadyAssigned = () =>
  conflict('The member is already assigned to this project; change the assignment with PATCH instead.', { field: 'user_id', refusal: 'already_assigned' });

/**
 * Changes an assignment: manager flag, active flag, budget, and a new rate from
 * `hourly_rate_effective_from` (default today in the workspace zone) on; earlier
 * dates keep their rate. A body that changes nothing writes nothing.
 */
export function updateProjectUserAssignment(
  db: Kysely<DB>,
  p: Principal,
  projectId: string,
  userId: string,
  input: UserAssignmentInput,
  now: Date,
) {
  const { columns, rate } = parseUserAssignmentInput(input);
  return withTenant(db, p.companyId, async (trx) => {
    const project = await managedProjectOrThrow(trx, p, projectId);
    const current = isId(userId) ? await lockUserAssignment(trx, p.companyId, project.id, userId) : undefined;
    if (!current) throw notFound('project assignment');
    assertMaySet(p, project, input);
    assertManagerFlagFits(current.role, columns.is_project_manager);
    const day = await workspaceToday(trx, p.companyId, now);
    const changed = changedAssignmentColumns(columns, current, USER_ASSIGNMENT_FLAGS);
    const rateSet = rate ? await applyRate(trx, p.companyId, project.id, userId, rate, day) : null;
    if (Object.keys(changed).length > 0 || rateSet) {
      await updateUserAssignmentColumns(trx, p.companyId, project.id, userId, changed, now);
      await auditAssignment(trx, p, 'updated', project.id, { user_id: userId, changes: changed, rate: rateSet });
    }
    return { row: await assignmentOrThrow(trx, p.companyId, project.id, userId, day), view: viewOf(p, project) };
  });
}

/**
 * Removes an assignment (its rate history stays); the person loses sight of the
 * project on their next request. The route and `sheaf admin assignment remove`.
 */
export function deleteProjectUserAssignment(db: Kysely<DB>, p: Principal, projectId: string, userId: string) {
  return withTenant(db, p.companyId, async (trx) => {
    const project = await managedProjectOrThrow(trx, p, projectId);
    const removed = isId(userId) && (await deleteUserAssignment(trx, p.companyId, project.id, userId));
    if (!removed) throw notFound('project assignment');
    await auditAssignment(trx, p, 'removed', project.id, { user_id: userId });
    return { project_id: project.id, user_id: userId };
  });
}

// ---- across the workspace, by member (the operator's `sheaf admin assignment`) ----

/*
 * The same project checks as above (visible, else 404; managed, else 403), with
 * the operator's inputs: a member by id (404 'user' when unknown), a budget but
 * no rate (rates are set with `sheaf admin rate`), and the workspace-wide list.
 */

async function assigneeOrThrow(trx: Tx, companyId: string, userId: string) {
  const member = isId(userId)
    ? await trx
        .selectFrom('memberships')
        .select(['user_id', 'role'])
        .where('company_id', '=', companyId)
        .where('user_id', '=', userId)
        .executeTakeFirst()
    : undefined;
  if (!member) throw notFound('user');
  return member;
}

/** Only a manager can manage a project (owners and administrators already manage every project). */
function assertManagerFlagFitsMember(member: { role: Role }, input: ProjectAssignmentInput) {
  const role = member.role;
  if (input.is_project_manager === true && !mayBeProjectManager(member)) {
    throw badRequest(`Only a member with the manager role can manage a project; this one is ${role}.`, { field: 'is_project_manager' });
  }
}

/** Assigns a member to a project; a client membership cannot be assigned, an existing assignment is 409. */
export function addProjectAssignment(db: Kysely<DB>, p: Principal, projectId: string, userId: string, input: ProjectAssignmentInput, now: Date) {
  const { budget } = validateProjectAssignmentInput(input);
  const companyId = p.companyId;
  return withTenant(db, companyId, async (trx) => {
    const project = await managedProjectOrThrow(trx, p, projectId);
    const member = await assigneeOrThrow(trx, companyId, userId);
    if (!mayBeAssignedToProjects(member)) throw badRequest('A client membership cannot be assigned to a project.', { field: 'user' });
    assertManagerFlagFitsMember(member, input);
    const columns = { is_project_manager: input.is_project_manager, is_active: input.is_active, budget };
    const inserted = await insertUserAssignment(trx, companyId, project.id, member.user_id, columns, now);
    if (!inserted) throw conflict('The member is already assigned to this project; change it with "assignment update".');
    await auditAssignment(trx, p, 'created', project.id, { user_id: member.user_id, ...input, budget: budget ?? null });
    return (await findWorkspaceAssignment(trx, companyId, project.id, member.user_id))!;
  });
}

/** Changes an assignment's manager and active flags; a change that changes nothing writes nothing. */
export function updateProjectAssignment(
  db: Kysely<DB>,
  p: Principal,
  projectId: string,
  userId: string,
  input: ProjectAssignmentInput,
  now: Date,
) {
  if (input.is_project_manager === undefined && input.is_active === undefined && input.budget === undefined) {
    throw badRequest('Name at least one thing to change.');
  }
  const { budget } = validateProjectAssignmentInput(input);
  const companyId = p.companyId;
  return withTenant(db, companyId, async (trx) => {
    const project = await managedProjectOrThrow(trx, p, projectId);
    const member = await assigneeOrThrow(trx, companyId, userId);
    const current = await findWorkspaceAssignment(trx, companyId, project.id, member.user_id);
    if (!current) throw notFound('project assignment');
    assertManagerFlagFitsMember(member, input);
    const changes: UserAssignmentColumns = {};
    if (input.is_project_manager !== undefined && input.is_project_manager !== current.is_project_manager) {
      changes.is_project_manager = input.is_project_manager;
    }
    if (input.is_active !== undefined && input.is_active !== current.is_active) changes.is_active = input.is_active;
    if (budget !== undefined && !sameDecimal(budget, current.budget)) changes.budget = budget;
    if (Object.keys(changes).length === 0) return current;
    await updateUserAssignmentColumns(trx, companyId, project.id, member.user_id, changes, now);
    await auditAssignment(trx, p, 'updated', project.id, { user_id: member.user_id, changes });
    return (await findWorkspaceAssignment(trx, companyId, project.id, member.user_id))!;
  });
}

/** Assignments of the workspace, of one project and/or one member; by project name, then member name. */
export function listProjectAssignments(db: Kysely<DB>, p: Principal, filter: { projectId?: string; userId?: string }) {
  const companyId = p.companyId;
  return withTenant(db, companyId, async (trx) => {
    if (filter.projectId) await managedProjectOrThrow(trx, p, filter.projectId);
    else if (!seesAllProjects(p)) throw forbidden('Only administrators list the assignments of every project; name a project you manage.');
    let query = selectWorkspaceAssignments(trx, companyId);
    if (filter.projectId) query = query.where('a.project_id', '=', filter.projectId);
    if (filter.userId) query = query.where('a.user_id', '=', filter.userId);
    return query.orderBy('p.name').orderBy('a.project_id').orderBy('u.last_name').orderBy('u.first_name').orderBy('a.user_id').execute();
  });
}
