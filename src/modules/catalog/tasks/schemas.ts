import { Type, type Static } from '@sinclair/typebox';
import { Nullable, createBody, patchBody } from '../../../http/schemas.ts';
import { MAX_HOURLY_RATE } from '../rates/index.ts';

/** The writable properties; POST requires `name`, PATCH requires at least one of them. */
const writable = {
  name: Type.String({ minLength: 1, maxLength: 255, description: 'Unique in the workspace, ignoring case.' }),
  billable_by_default: Type.Boolean({ description: 'Whether new assignments of the task are billable (default true).' }),
  default_hourly_rate: Nullable(
    Type.Number({
      minimum: 0,
      maximum: MAX_HOURLY_RATE.toNumber(),
      description:
        'Default billable hourly rate, at most 2 decimal places; seeds the rate of new task assignments. Setting it needs the permission to view billable rates.',
    }),
  ),
  is_default: Type.Boolean({ description: 'Assigned to new projects created without `task_ids`.' }),
  is_active: Type.Boolean({ description: 'false archives the task, true restores it.' }),
};

export const TaskCreateBody = createBody(writable, ['name']);

export const TaskPatchBody = patchBody(writable);

/**
 * A create or update body. The rate is a JSON number from the API, text from the command line;
 * null clears it.
 */
export type TaskInput = Omit<Static<typeof TaskPatchBody>, 'default_hourly_rate'> & {
  default_hourly_rate?: number | string | null;
};
