import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { DB } from '../db/types.ts';
import { forbidden } from '../errors.ts';
import { isAdmin, isManager } from './policy.ts';
import { isTeammateOf } from './teammates.ts';

/**
 * Who may submit, approve and reject time and expenses (the spec's "Who may
 * act" table):
 *
 * | identity                | submit   | approve / reject                                    |
 * |-------------------------|----------|-----------------------------------------------------|
 * | owner, administrator    | own time | anyone in the workspace (themselves included)       |
 * | manager                 | own time | assigned teammates (all their time); with           |
 * |                         |          | approve_managed_projects also the time of anyone on |
 * |                         |          | projects they actively manage; never their own      |
 * | member, contractor      | own time | nobody                                              |
 * | personal sync key       | nothing  | nothing                                             |
 */

/** What of a person's time an approver reaches. */
export type ApprovalReach =
  | { all: true } // every item of the person
  | { all: false; projectIds: readonly string[] }; // only items on these (managed) projects

/** Whether the principal may submit its own time (any full-access credential of an internal member). */
export const maySubmitTime = (p: Principal) => p.kind !== 'personal';

/** Whether the principal may approve or reject anybody's time at all (role level, before looking at the person). */
export const mayReviewTime = (p: Principal) => p.kind !== 'personal' && (isAdmin(p) || isManager(p));

/** 403 unless the principal's role may approve or reject anybody's time. */
export function assertMayReviewTime(p: Principal): void {
  if (!mayReviewTime(p)) {
    throw forbidden(
      p.kind === 'personal'
        ? 'A personal read-only sync key cannot approve or reject time.'
        : 'Only owners, administrators and managers approve or reject time; members and contractors submit their own.',
    );
  }
}

/** The tables whose rows (with company_id, project_id, user_id) put a person on a project, for a manager's approval reach. */
const PERSON_ON_PROJECT = ['project_user_assignments', 'time_entries', 'expenses'] as const;

/** SQL condition: `table` has a row of the person on the project of the outer `pm` (a project_user_assignments row). */
function personOnProject(eb: ExpressionBuilder<any, any>, table: (typeof PERSON_ON_PROJECT)[number], personId: string) {
  return eb.exists(
    eb
      .selectFrom(`${table} as on_project`)
      .select(sql`1`.as('one'))
      .whereRef('on_project.company_id', '=', 'pm.company_id')
      .whereRef('on_project.project_id', '=', 'pm.project_id')
      .where('on_project.user_id', '=', personId),
  );
}

/**
 * What of `personId`'s time the principal may approve or reject, narrowed to
 * `projectId` when given; 403 when that is nothing. The person and the project
 * must already be known to be of the principal's workspace (404 comes first).
 */
export async function approvalReach(
  db: Kysely<DB> | Transaction<DB>,
  p: Principal,
  personId: string,
  projectId: string | undefined,
): Promise<ApprovalReach> {
  assertMayReviewTime(p);
  if (isAdmin(p)) return { all: true };
  if (personId === p.userId) {
    throw forbidden('Managers cannot approve or reject their own time; an owner, an administrator or their own manager does.');
  }
  if (await isTeammateOf(db, p.companyId, p.userId, personId)) return { all: true };
  if (p.permissions.includes('approve_managed_projects')) {
    let managedQuery = db
      .selectFrom('project_user_assignments as pm')
      .select('pm.project_id')
      .where('pm.company_id', '=', p.companyId)
      .where('pm.user_id', '=', p.userId)
      .where('pm.is_active', '=', true)
      .where('pm.is_project_manager', '=', true)
      // the person works on the project: assigned to it (now or before) or has time or expenses on it
      .where((eb) => eb.or(PERSON_ON_PROJECT.map((table) => personOnProject(eb, table, personId))));
    if (projectId !== undefined) managedQuery = managedQuery.where('pm.project_id', '=', projectId);
    const managed = await managedQuery.orderBy('pm.project_id').execute();
    if (managed.length > 0) return { all: false, projectIds: managed.map((m) => m.project_id) };
  }
  throw forbidden(
    projectId !== undefined
      ? "This person's time on this project is outside your reach: they are not your teammate, and you do not approve time on this project."
      : 'This person is outside your reach: neither your teammate nor working on a project whose time you approve.',
  );
}
