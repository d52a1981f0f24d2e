import type { Kysely } from 'kysely';
import type { DB, Role } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { badRequest, conflict, notFound } from '../../../errors.ts';
import { isId } from '../../../ids.ts';
import { mayBeAssignedToProjects, mayBeProjectManager } from '../../../access/catalog.ts';
import { audit } from '../../workspace/audit/service.ts';
import { budgetAmount } from '../rates/rules.ts';
import { deleteUserAssignment, insertUserAssignment, updateUserAssignmentColumns } from './queries.ts';
import type { UserAssignmentColumns } from './rules.ts';

/**
 * Project user assignments for the operator (`sheaf admin assignment`): who may
 * track time on a project and see it, and who manages it. Visibility follows an
 * active assignment (src/access/catalog.ts projectVisible); `is_project_manager`
 * makes a manager the project's manager (managesProject). The operator acts with
 * an owner's rights; the API's own service (./service.ts) checks the caller.
 * Both write through ./queries.ts.
 */

export interface ProjectAssignmentInput {
  is_project_manager?: boolean;
  is_active?: boolean;
  /** The person's budget on a project budgeted by person (hours or money); null clears it. Text or a number. */
  budget?: string | number | null;
}

/** Checks an assignment change (no database needed); throws a 400 naming the field. Returns the stored budget. */
export function validateProjectAssignmentInput(input: ProjectAssignmentInput): { budget?: string | null } {
  if (input.budget === undefined) return {};
  return { budget: input.budget === null ? null : budgetAmount('budget', input.budget) };
}

function selectAssignments(trx: Tx, companyId: string) {
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

export type ProjectAssignmentRow = Awaited<ReturnType<ReturnType<typeof selectAssignments>['executeTakeFirstOrThrow']>>;

async function findAssignment(trx: Tx, companyId: string, projectId: string, userId: string) {
  return selectAssignments(trx, companyId).where('a.project_id', '=', projectId).where('a.user_id', '=', userId).executeTakeFirst();
}

async function projectOrThrow(trx: Tx, companyId: string, projectId: string) {
  const project = isId(projectId)
    ? await trx.selectFrom('projects').select(['id', 'name']).where('company_id', '=', companyId).where('id', '=', projectId).executeTakeFirst()
    : undefined;
  if (!project) throw notFound('project');
  return project;
}

async function memberOrThrow(trx: Tx, companyId: string, userId: string) {
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
function assertManagerFlagFits(member: { role: Role }, input: ProjectAssignmentInput) {
  const role = member.role;
  if (input.is_project_manager === true && !mayBeProjectManager(member)) {
    throw badRequest(`Only a member with the manager role can manage a project; this one is ${role}.`, { field: 'is_project_manager' });
  }
}

/** Assigns a member to a project; a client membership cannot be assigned, an existing assignment is 409. */
export function addProjectAssignment(db: Kysely<DB>, companyId: string, projectId: string, userId: string, input: ProjectAssignmentInput, now: Date) {
  const { budget } = validateProjectAssignmentInput(input);
  return withTenant(db, companyId, async (trx) => {
    const project = await projectOrThrow(trx, companyId, projectId);
    const member = await memberOrThrow(trx, companyId, userId);
    if (!mayBeAssignedToProjects(member)) throw badRequest('A client membership cannot be assigned to a project.', { field: 'user' });
    assertManagerFlagFits(member, input);
    const inserted = await insertUserAssignment(
      trx,
      companyId,
      {
        projectId: project.id,
        userId: member.user_id,
        isProjectManager: input.is_project_manager ?? false,
        isActive: input.is_active ?? true,
        budget: budget ?? null,
      },
      now,
    );
    if (!inserted) throw conflict('The member is already assigned to this project; change it with "assignment update".');
    await audit(trx, {
      companyId,
      action: 'project_assignment.created',
      subjectType: 'project',
      subjectId: project.id,
      details: { user_id: member.user_id, ...input, budget: budget ?? null },
    });
    return (await findAssignment(trx, companyId, project.id, member.user_id))!;
  });
}

/** Changes an assignment's manager and active flags; a change that changes nothing writes nothing. */
export function updateProjectAssignment(
  db: Kysely<DB>,
  companyId: string,
  projectId: string,
  userId: string,
  input: ProjectAssignmentInput,
  now: Date,
) {
  if (input.is_project_manager === undefined && input.is_active === undefined && input.budget === undefined) {
    throw badRequest('Name at least one thing to change.');
  }
  const { budget } = validateProjectAssignmentInput(input);
  return withTenant(db, companyId, async (trx) => {
    const project = await projectOrThrow(trx, companyId, projectId);
    const member = await memberOrThrow(trx, companyId, userId);
    const current = await findAssignment(trx, companyId, project.id, member.user_id);
    if (!current) throw notFound('project assignment');
    assertManagerFlagFits(member, input);
    const changes: UserAssignmentColumns = {};
    if (input.is_project_manager !== undefined && input.is_project_manager !== current.is_project_manager) {
      changes.is_project_manager = input.is_project_manager;
    }
    if (input.is_active !== undefined && input.is_active !== current.is_active) changes.is_active = input.is_active;
    if (budget !== undefined && !sameAmount(budget, current.budget)) changes.budget = budget;
    if (Object.keys(changes).length === 0) return current;
    await updateUserAssignmentColumns(trx, companyId, project.id, member.user_id, changes, now);
    await audit(trx, {
      companyId,
      action: 'project_assignment.updated',
      subjectType: 'project',
      subjectId: project.id,
      details: { user_id: member.user_id, changes },
    });
    return (await findAssignment(trx, companyId, project.id, member.user_id))!;
  });
}

const sameAmount = (a: string | null, b: string | null) => (a === null || b === null ? a === b : Number(a) === Number(b));

/** Removes an assignment: the member loses sight of the project on their next request. */
export function removeProjectAssignment(db: Kysely<DB>, companyId: string, projectId: string, userId: string) {
  return withTenant(db, companyId, async (trx) => {
    const project = await projectOrThrow(trx, companyId, projectId);
    const member = await memberOrThrow(trx, companyId, userId);
    const removed = await deleteUserAssignment(trx, companyId, project.id, member.user_id);
    if (!removed) throw notFound('project assignment');
    await audit(trx, {
      companyId,
      action: 'project_assignment.removed',
      subjectType: 'project',
      subjectId: project.id,
      details: { user_id: member.user_id },
    });
    return { project_id: project.id, user_id: member.user_id };
  });
}

/** Assignments of the workspace, of one project and/or one member; by project name, then member name. */
export function listProjectAssignments(db: Kysely<DB>, companyId: string, filter: { projectId?: string; userId?: string }) {
  return withTenant(db, companyId, async (trx) => {
    if (filter.projectId) await projectOrThrow(trx, companyId, filter.projectId);
    let query = selectAssignments(trx, companyId);
    if (filter.projectId) query = query.where('a.project_id', '=', filter.projectId);
    if (filter.userId) query = query.where('a.user_id', '=', filter.userId);
    return query.orderBy('p.name').orderBy('a.project_id').orderBy('u.last_name').orderBy('u.first_name').orderBy('a.user_id').execute();
  });
}
