import { badRequest, conflict } from '../../../errors.ts';
import { budgetAmount, parseRateChange, type RateChange } from '../rates/index.ts';
import { sameDecimal } from '../../../money.ts';

/**
 * Pure rules both assignment kinds share (a person on a project, a task on a project): their
 * boolean columns, their budget, and their rate, an effective-dated rate of the assignment's scope.
 */

export type { RateChange };

/** Response properties a request body may not set: the project, the assigned record, the timestamps. */
export const assignmentReadOnly = <N extends string>(nested: N) => ['project_id', nested, 'created_at', 'updated_at'] as const;

/** What an assignment body may carry besides its own flags. JSON numbers from the API, text from the CLI. */
export interface AssignmentRateInput {
  /** Hours or money, per the project's budget_by; may be 0; null clears it. */
  budget?: number | string | null;
  /** The billable hourly rate of the assignment's scope, from `hourly_rate_effective_from` on. */
  hourly_rate?: number | string;
  /** YYYY-MM-DD; default: today in the workspace's time zone. Only with `hourly_rate`. */
  hourly_rate_effective_from?: string;
}

/** The list's `is_active` query parameter as a filter (absent: active and inactive alike). */
export const activeFilter = (query: { is_active?: 'true' | 'false' }) => ({
  isActive: query.is_active === undefined ? undefined : query.is_active === 'true',
});

/** The stored columns a change writes: the assignment's flags and its budget. */
export type AssignmentColumns<F extends string> = Partial<Record<F, boolean>> & { budget?: string | null };

export function flag(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw badRequest(`${field} must be true or false.`, { field });
  return value;
}

/**
 * Checks an assignment body and splits it into column changes (its `flags`, in that order, then
 * the budget) and a rate change. Throws a 400 naming the field: a non-boolean flag, amounts below
 * 0, over 2 decimals or out of range, a null rate, a date that is not YYYY-MM-DD, or an effective
 * date without a rate.
 */
export function parseAssignmentBody<F extends string>(
  input: AssignmentRateInput & Partial<Record<F, boolean>>,
  flags: readonly F[],
): { columns: AssignmentColumns<F>; rate: RateChange | null } {
  const columns = {} as AssignmentColumns<F>;
  const given = input as Partial<Record<F, unknown>>;
  for (const field of flags) {
    if (given[field] !== undefined) (columns as Record<F, boolean>)[field] = flag(field, given[field]);
  }
  if (input.budget !== undefined) columns.budget = input.budget === null ? null : budgetAmount('budget', input.budget);
  return { columns, rate: parseRateChange(input) };
}

/** The columns whose value differs from the current row (flags in order, then the budget); an unchanged body writes nothing. */
export function changedAssignmentColumns<F extends string>(
  columns: AssignmentColumns<F>,
  current: Record<F, boolean> & { budget: string | null },
  flags: readonly F[],
): AssignmentColumns<F> {
  const changed = {} as AssignmentColumns<F>;
  for (const field of flags) {
    const value = columns[field];
    if (value !== undefined && value !== current[field]) (changed as Record<F, boolean>)[field] = value;
  }
  if (columns.budget !== undefined && !sameDecimal(columns.budget, current.budget)) changed.budget = columns.budget;
  return changed;
}

/** A unique-index race (two creates of one assignment at once) ends as the same 409 as a found duplicate. */
export function duplicateAs(err: unknown, alreadyAssigned: () => ReturnType<typeof conflict>): never {
  if ((err as { code?: string })?.code === '23505') throw alreadyAssigned();
  throw err;
}
