import { Type, type Static } from '@sinclair/typebox';
import { createProperties, patchBody } from '../../../http/schemas.ts';
import { budgetField, hourlyRateField } from '../assignments/index.ts';

const writable = {
  is_project_manager: Type.Boolean({ description: 'The person manages the project (members with the manager role only).' }),
  is_active: Type.Boolean({ description: 'false deactivates the assignment: the person no longer sees the project.' }),
  hourly_rate: hourlyRateField(
    "The person's billable hourly rate on this project (used when it bills by people), from `hourly_rate_effective_from` on; earlier dates keep their rate. Needs the permission to view billable rates.",
  ),
  hourly_rate_effective_from: Type.String({ format: 'date', description: 'YYYY-MM-DD; only with `hourly_rate`. Default on a change: today in the workspace time zone; when the assignment is created: none, the rate prices all its work whatever its date (shown as null).' }),
  budget: budgetField(
    "The person's budget (budget_by person), at most 2 decimal places; needs the permission to view billable rates and the project's budget.",
  ),
};

export const UserAssignmentCreateBody = Type.Object(
  { user_id: Type.String({ description: 'An active internal member of the workspace.' }), ...createProperties(writable) },
  { additionalProperties: false },
);

export const UserAssignmentPatchBody = patchBody(writable);

/** A create or update body (the API's JSON). */
export type UserAssignmentInput = Static<typeof UserAssignmentPatchBody>;
