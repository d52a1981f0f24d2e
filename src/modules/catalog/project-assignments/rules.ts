import { badRequest } from '../../../errors.ts';
import { budgetAmount, parseRateChange, type RateChange } from '../rates/rules.ts';

/**
 * Pure rules for project user assignments (who may track time on a project and
 * see it, who manages it, and the person's rate and budget there). No I/O.
 */

export const USER_ASSIGNMENT_WRITABLE = ['is_project_manager', 'is_active', 'hourly_rate', 'hourly_rate_effective_from', 'budget'] as const;
/** Response properties a request body may not set (a 400 naming the property). */
export const USER_ASSIGNMENT_READ_ONLY = ['project_id', 'user', 'created_at', 'updated_at'] as const;
/** Commercial properties: sending them needs the billable-rate permission (as on the project). */
export const USER_ASSIGNMENT_COMMERCIAL = ['hourly_rate', 'hourly_rate_effective_from', 'budget'] as const;

export interface UserAssignmentInput {
  is_project_manager?: boolean;
  is_active?: boolean;
  /** The person's billable hourly rate on the project (scope project + user), from hourly_rate_effective_from on. */
  hourly_rate?: number;
  /** YYYY-MM-DD; default today in the workspace time zone. Only with hourly_rate. */
  hourly_rate_effective_from?: string;
  /** The person's budget (hours or money per the project's budget_by); null clears it. */
  budget?: number | null;
}

export interface UserAssignmentColumns {
  is_project_manager?: boolean;
  is_active?: boolean;
  budget?: string | null;
}

export type { RateChange };

function flag(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw badRequest(`${field} must be true or false.`, { field });
  return value;
}

/**
 * Checks an assignment body and splits it into column changes and a rate change.
 * Throws a 400 naming the field: amounts below 0, over 2 decimals or out of range,
 * a null rate (a rate is superseded from a date, not removed), a date that is not
 * YYYY-MM-DD, or an effective date without a rate.
 */
export function parseUserAssignmentInput(input: UserAssignmentInput): { columns: UserAssignmentColumns; rate: RateChange | null } {
  const columns: UserAssignmentColumns = {};
  if (input.is_project_manager !== undefined) columns.is_project_manager = flag('is_project_manager', input.is_project_manager);
  if (input.is_active !== undefined) columns.is_active = flag('is_active', input.is_active);
  if (input.budget !== undefined) columns.budget = input.budget === null ? null : budgetAmount('budget', input.budget);
  return { columns, rate: parseRateChange(input) };
}

export function commercialFieldsIn(input: object): string[] {
  return USER_ASSIGNMENT_COMMERCIAL.filter((f) => Object.hasOwn(input, f));
}

// ---- the operator's assignment commands (`sheaf admin assignment`) ----

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
