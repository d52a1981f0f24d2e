import { Type, type Static } from '@sinclair/typebox';
import { createProperties, patchBody } from '../../../http/schemas.ts';
import { budgetField, hourlyRateField, type AssignmentRateInput } from '../assignments/index.ts';

const writable = {
  is_active: Type.Boolean({ description: 'false deactivates the assignment: the task leaves the project\'s task list.' }),
  billable: Type.Boolean({ description: "Whether time on the task is billable on this project (default: the task's billable_by_default)." }),
  budget: budgetField(
    "The task budget (hours or money per the project's budget_by), at most 2 decimal places; needs permission to view the project's budget.",
  ),
  hourly_rate: hourlyRateField(
    'The billable hourly rate of the task on this project, effective from `hourly_rate_effective_from` on (earlier work keeps its rate). Needs the permission to view billable rates.',
  ),
  hourly_rate_effective_from: Type.String({
    description: 'YYYY-MM-DD; only with `hourly_rate`. Default on a change: today in the workspace time zone; when the assignment is created: none, the rate prices all its work whatever its date (shown as null).',
  }),
};

export const TaskAssignmentCreateBody = Type.Object(
  { task_id: Type.String({ description: 'An active task of the workspace.' }), ...createProperties(writable) },
  { additionalProperties: false },
);

export const TaskAssignmentPatchBody = patchBody(writable);

/** A create or update body; amounts are JSON numbers from the API, text from the command line. */
export type AssignmentInput = Omit<Static<typeof TaskAssignmentPatchBody>, 'budget' | 'hourly_rate'> & AssignmentRateInput;
