import { badRequest } from '../../../errors.ts';
import { budgetAmount, parseRateChange, type RateChange } from '../rates/rules.ts';

/**
 * Pure rules for task assignments (a task used by a project). No I/O: the
 * service applies them inside its transaction.
 */

export const ASSIGNMENT_WRITABLE = ['is_active', 'billable', 'budget', 'hourly_rate', 'hourly_rate_effective_from'] as const;
/** Response properties a request body may not set (a 400 naming the property). */
export const ASSIGNMENT_READ_ONLY = ['project_id', 'task', 'created_at', 'updated_at'] as const;

export interface AssignmentInput {
  is_active?: boolean;
  billable?: boolean;
  /** Hours or money, per the project's budget_by; may be 0; null clears it. JSON number from the API, text from the CLI. */
  budget?: number | string | null;
  /** The billable hourly rate of the assignment (scope project + task), from `hourly_rate_effective_from` on. */
  hourly_rate?: number | string;
  /** YYYY-MM-DD; default: today in the workspace's time zone. Only with `hourly_rate`. */
  hourly_rate_effective_from?: string;
}

/** The stored columns a change writes. */
export interface AssignmentColumns {
  is_active?: boolean;
  billable?: boolean;
  budget?: string | null;
}

export type { RateChange };

function flag(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw badRequest(`${field} must be true or false.`, { field });
  return value;
}

/**
 * Checks an assignment body and splits it into column changes and a rate change.
 * Throws a 400 naming the field: negative or over-precise amounts, a date that
 * is not YYYY-MM-DD, or an effective date without a rate.
 */
export function parseAssignmentInput(input: AssignmentInput): { columns: AssignmentColumns; rate: RateChange | null } {
  const columns: AssignmentColumns = {};
  if (input.is_active !== undefined) columns.is_active = flag('is_active', input.is_active);
  if (input.billable !== undefined) columns.billable = flag('billable', input.billable);
  if (input.budget !== undefined) columns.budget = input.budget === null ? null : budgetAmount('budget', input.budget);
  return { columns, rate: parseRateChange(input) };
}
