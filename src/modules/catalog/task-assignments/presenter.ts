import { shownEffectiveFrom } from '../rates/rules.ts';
import { decimalNumber } from '../../../money.ts';

/** A task assignment as the queries load it, with the rate in force on the day it was read for. */
export interface AssignmentRow {
  project_id: string;
  task_id: string;
  task_name: string;
  is_active: boolean;
  billable: boolean;
  budget: string | null;
  /** The billable rate of scope project + task in force today (workspace zone), or null. */
  hourly_rate: string | null;
  hourly_rate_effective_from: string | null;
  created_at: Date;
  updated_at: Date;
}

/** What the caller may see of a project's task assignments. */
export interface AssignmentView {
  /** The assignment budget (maySeeBudget for the project). */
  budget: boolean;
  /** The billable hourly rate (maySeeRates). */
  rates: boolean;
}

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
    ...(view.rates
      ? { hourly_rate: decimalNumber(row.hourly_rate), hourly_rate_effective_from: shownEffectiveFrom(row.hourly_rate_effective_from) }
      : {}),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type PresentedAssignment = ReturnType<typeof presentAssignment>;
