import { presentRate, type AssignmentView } from '../assignments/index.ts';
import { decimalNumber } from '../../../money.ts';
import type { findAssignment } from './queries.ts';

/** A task assignment as the queries load it, with the rate of scope project + task in force on the day it was read for. */
export type AssignmentRow = NonNullable<Awaited<ReturnType<typeof findAssignment>>>;
export type { AssignmentView };

/**
 * The task assignment as the API shows it. `budget` (may be 0 or null) is absent
 * unless the caller may view the project's budget; `hourly_rate` and
 * `hourly_rate_effective_from` are absent unless the caller may view billable rates.
 */
export function presentAssignment(row: AssignmentRow, view: AssignmentView) {
  return {
    project_id: row.project_id,
    task_id: row.task_id,
    task: { id: row.task_id, name: row.task_name },
    is_active: row.is_active,
    billable: row.billable,
    ...(view.budget ? { budget: decimalNumber(row.budget) } : {}),
    ...(view.rates ? presentRate(row) : {}),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type PresentedAssignment = ReturnType<typeof presentAssignment>;
