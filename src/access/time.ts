import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import type { Role } from '../db/types.ts';
import { managesProjectRow } from './catalog.ts';
import { isAdmin, isAdminRole, isManager } from './policy.ts';
import { teammateOf } from './teammates.ts';

/**
 * Who sees and who writes time entries (and, later, expenses): one rule for both.
 *
 * - Owners and administrators: everyone's.
 * - Managers: their own, their teammates' (teammate_assignments) and the entries
 *   on projects they actively manage (is_project_manager).
 * - Members and contractors: their own.
 * - A personal sync key: its owner's own entries only, whatever the owner's role
 *   (the spec: "key owner's entries only"); it never writes (route allowlist).
 */

/** Whether the principal sees every person's time in the workspace. */
export const seesAllTime = (p: Principal) => isAdmin(p) && p.kind !== 'personal';

/** Whether the principal's visibility reaches beyond its own entries (a manager's teammates and managed projects). */
export const seesManagedTime = (p: Principal) => isManager(p) && p.kind !== 'personal';

/**
 * SQL condition: the row aliased `alias` (with `company_id`, `user_id` and
 * `project_id`) is visible to the principal.
 */
export function timeRecordVisible(p: Principal, alias: string) {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    if (seesAllTime(p)) return sql<SqlBool>`true`;
    const own = eb(sql.ref(`${alias}.user_id`), '=', p.userId);
    if (!seesManagedTime(p)) return own;
    return eb.or([
      own,
      teammateOf(eb, sql.ref(`${alias}.company_id`), p.userId, sql.ref(`${alias}.user_id`)),
      managesProjectRow(eb, p, `${alias}.company_id`, `${alias}.project_id`),
    ]);
  };
}

/** What the service knows about the person and project a write is for. */
export interface TimeWriteFacts {
  /** The record is (or will be) the caller's own. */
  own: boolean;
  /** The person is a teammate of the caller (caller is their manager). */
  teammate: boolean;
  /** The caller actively manages the record's project (see catalog.managesProject). */
  managesProject: boolean;
}

/**
 * May the principal create or change time (or expenses) for this person on this
 * project: their own always (full-access credentials only); administrators
 * anyone's; managers their teammates' and anyone's on projects they manage.
 */
export function mayWriteTimeFor(p: Principal, facts: TimeWriteFacts): boolean {
  if (p.kind === 'personal') return false;
  if (facts.own || isAdmin(p)) return true;
  return isManager(p) && (facts.teammate || facts.managesProject);
}

/** Whether a caller may name another person (`user_id`) in a time write at all. */
export const mayWriteOthersTime = (p: Principal) => p.kind !== 'personal' && (isAdmin(p) || isManager(p));

/**
 * Whether time and expenses may be recorded for a person on a project (the
 * project active and, for time, the task actively assigned, are checked beside
 * this): owners and administrators on any project of their workspace, assigned
 * or not, since they see and manage every project; members, contractors and
 * managers only where they are actively assigned. It is the person's rule, whoever
 * writes: an administrator recording a member's time still needs the member's
 * assignment.
 */
export const mayRecordOnProject = (person: { role: Role }, assignment: { is_active: boolean | null } | null) =>
  isAdminRole(person.role) || assignment?.is_active === true;
