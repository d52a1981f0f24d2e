import { assignmentReadOnly, parseAssignmentBody, type AssignmentColumns as Columns } from '../assignments/index.ts';
import type { AssignmentInput } from './schemas.ts';

/**
 * Pure rules for task assignments (a task used by a project). No I/O: the
 * service applies them inside its transaction.
 */

export const ASSIGNMENT_WRITABLE = ['is_active', 'billable', 'budget', 'hourly_rate', 'hourly_rate_effective_from'] as const;
/** Response properties a request body may not set (a 400 naming the property). */
export const ASSIGNMENT_READ_ONLY = assignmentReadOnly('task');
/** The assignment's own flags, in the order they are checked. */
export const ASSIGNMENT_FLAGS = ['is_active', 'billable'] as const;

/** The stored columns a change writes. */
export type AssignmentColumns = Columns<(typeof ASSIGNMENT_FLAGS)[number]>;

/**
 * Checks an assignment body and splits it into column changes and a rate change.
 * Throws a 400 naming the field: negative or over-precise amounts, a date that
 * is not YYYY-MM-DD, or an effective date without a rate.
 */
export const parseAssignmentInput = (input: AssignmentInput) => parseAssignmentBody(input, ASSIGNMENT_FLAGS);
