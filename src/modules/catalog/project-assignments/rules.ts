import { budgetAmount } from '../rates/index.ts';
import { assignmentReadOnly, parseAssignmentBody, type AssignmentColumns } from '../assignments/index.ts';
import type { UserAssignmentInput } from './schemas.ts';

/**
 * Pure rules for project user assignments (who may track time on a project and
 * see it, who manages it, and the person's rate and budget there). No I/O.
 */

export const USER_ASSIGNMENT_WRITABLE = ['is_project_manager', 'is_active', 'hourly_rate', 'hourly_rate_effective_from', 'budget'] as const;
/** Response properties a request body may not set (a 400 naming the property). */
export const USER_ASSIGNMENT_READ_ONLY = assignmentReadOnly('user');
/** Commercial properties: sending them needs the billable-rate permission (as on the project). */
export const USER_ASSIGNMENT_COMMERCIAL = ['hourly_rate', 'hourly_rate_effective_from', 'budget'] as const;

/** The assignment's own flags, in the order they are checked. */
export const USER_ASSIGNMENT_FLAGS = ['is_project_manager', 'is_active'] as const;

export type UserAssignmentColumns = AssignmentColumns<(typeof USER_ASSIGNMENT_FLAGS)[number]>;

/**
 * Checks an assignment body and splits it into column changes and a rate change.
 * Throws a 400 naming the field: amounts below 0, over 2 decimals or out of range,
 * a null rate (a rate is superseded from a date, not removed), a date that is not
 * YYYY-MM-DD, or an effective date without a rate.
 */
export const parseUserAssignmentInput = (input: UserAssignmentInput) => parseAssignmentBody(input, USER_ASSIGNMENT_FLAGS);

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
