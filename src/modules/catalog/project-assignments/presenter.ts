import { shownEffectiveFrom } from '../rates/rules.ts';
import { decimalNumber } from '../../../money.ts';
import { personName } from '../projects/rules.ts';

/** A project user assignment as the queries load it, with the person's rate in force on the day it was read for. */
export interface UserAssignmentRow {
  project_id: string;
  user_id: string;
  first_name: string;
  last_name: string;
  email: string;
  is_project_manager: boolean;
  is_active: boolean;
  budget: string | null;
  hourly_rate: string | null;
  hourly_rate_effective_from: string | null;
  created_at: Date;
  updated_at: Date;
}

/** What the caller may see of a project's user assignments. */
export interface UserAssignmentView {
  /** The person's billable rate on the project (maySeeRates). */
  rates: boolean;
  /** The person's budget (maySeeBudget for the project). */
  budget: boolean;
}

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
    ...(view.rates
      ? { hourly_rate: decimalNumber(row.hourly_rate), hourly_rate_effective_from: shownEffectiveFrom(row.hourly_rate_effective_from) }
      : {}),
    ...(view.budget ? { budget: decimalNumber(row.budget) } : {}),
  };
}
