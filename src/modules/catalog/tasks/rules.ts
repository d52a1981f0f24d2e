import { changedColumns } from '../../../db/rows.ts';
import { badRequest } from '../../../errors.ts';
import { sameDecimal } from '../../../money.ts';
import { hourlyRate } from '../rates/index.ts';
import type { TaskInput } from './schemas.ts';

/**
 * Pure rules for workspace tasks: which properties may be written and what
 * values they take. No I/O; the service applies them inside its transaction.
 */

export const TASK_WRITABLE = ['name', 'billable_by_default', 'default_hourly_rate', 'is_default', 'is_active'] as const;
/** Response properties a request body may not set (a 400 naming the property). */
export const TASK_READ_ONLY = ['id', 'budget', 'created_at', 'updated_at'] as const;

export const NAME_MAX = 255;

/** The stored form of a task's writable state (the rate as an exact decimal string). */
export interface TaskState {
  name: string;
  billable_by_default: boolean;
  default_hourly_rate: string | null;
  is_default: boolean;
  is_active: boolean;
}

export const NEW_TASK: Omit<TaskState, 'name'> = {
  billable_by_default: true,
  default_hourly_rate: null,
  is_default: false,
  is_active: true,
};

function flag(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw badRequest(`${field} must be true or false.`, { field });
  return value;
}

/**
 * Applies a create or update body to the current state and returns the next
 * state. Throws a 400 naming the field for a blank or over-long name, a negative
 * rate, more than two decimal places, or a non-boolean flag.
 */
export function applyTaskInput(current: TaskState, input: TaskInput): TaskState {
  const next: TaskState = { ...current };
  if (input.name !== undefined) {
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name || name.length > NAME_MAX) throw badRequest(`name must be 1 to ${NAME_MAX} characters, not blank.`, { field: 'name' });
    next.name = name;
  }
  if (input.billable_by_default !== undefined) next.billable_by_default = flag('billable_by_default', input.billable_by_default);
  if (input.is_default !== undefined) next.is_default = flag('is_default', input.is_default);
  if (input.is_active !== undefined) next.is_active = flag('is_active', input.is_active);
  if (input.default_hourly_rate !== undefined) {
    next.default_hourly_rate =
      input.default_hourly_rate === null ? null : hourlyRate('default_hourly_rate', input.default_hourly_rate);
  }
  return next;
}

/** The columns whose value differs between two states (an unchanged PATCH writes nothing). */
export const changedTaskColumns = (before: TaskState, after: TaskState) => changedColumns(before, after, { default_hourly_rate: sameDecimal });
