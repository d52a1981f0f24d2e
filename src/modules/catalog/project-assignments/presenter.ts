import { presentRate, type AssignmentView } from '../assignments/index.ts';
import { decimalNumber } from '../../../money.ts';
import { personName } from '../projects/index.ts';
import type { findUserAssignment } from './queries.ts';

/** A project user assignment as the queries load it, with the person's rate in force on the day it was read for. */
export type UserAssignmentRow = NonNullable<Awaited<ReturnType<typeof findUserAssignment>>>;
/** What the caller may see of a project's user assignments: the person's rate (maySeeRates) and budget (maySeeBudget). */
export type UserAssignmentView = AssignmentView;

/**
 * The assignment as the API shows it. `hourly_rate` (in force today) and the date
 * it took effect are absent unless the caller may see rates; `budget` unless the
 * caller may see the project's budget.
 */
export function presentUserAssignment(row: UserAssignmentRow, view: UserAssignmentView) {
  return {
    project_id: row.project_id,
    user_id: row.user_id,
    user: { id: row.user_id, name: personName(row.first_name, row.last_name), email: row.email },
    is_project_manager: row.is_project_manager,
    is_active: row.is_active,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    // optional, by permission (after the required properties, as the serializer writes them)
    ...(view.rates ? presentRate(row) : {}),
    ...(view.budget ? { budget: decimalNumber(row.budget) } : {}),
  };
}
