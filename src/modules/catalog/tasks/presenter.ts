import { decimalNumber } from '../../../money.ts';
import type { findTask, findTaskForProject } from './queries.ts';

/** A task row as the queries load it; with a project, the assignment's columns ride along. */
type PlainTaskRow = NonNullable<Awaited<ReturnType<typeof findTask>>>;
/** Set when the task was read for a project: whether it is assigned (null: not at all) and active. */
type AssignmentColumns = Omit<NonNullable<Awaited<ReturnType<typeof findTaskForProject>>>, keyof PlainTaskRow>;
export type TaskRow = PlainTaskRow & Partial<AssignmentColumns>;

/**
 * What the caller may see of a task: `rates` the default hourly rate; `budget`
 * the assignment budget of the project named by the request (false whenever the
 * request names no project).
 */
export interface TaskView {
  rates: boolean;
  budget: boolean;
}

/**
 * The task as the API shows it. `default_hourly_rate` is absent unless the caller
 * may see rates; `budget` is present only for a request naming a project whose
 * budget the caller may see, and only when the task's assignment to it is active
 * (then it may be 0 or null).
 */
export function presentTask(row: TaskRow, view: TaskView) {
  return {
    id: row.id,
    name: row.name,
    billable_by_default: row.billable_by_default,
    ...(view.rates ? { default_hourly_rate: decimalNumber(row.default_hourly_rate) } : {}),
    is_default: row.is_default,
    is_active: row.is_active,
    ...(view.budget && row.assignment_active === true ? { budget: decimalNumber(row.assignment_budget ?? null) } : {}),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type PresentedTask = ReturnType<typeof presentTask>;
