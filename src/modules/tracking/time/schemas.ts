import { Type, type Static } from '@sinclair/typebox';
import type { TimeSource } from '../../../db/types.ts';
import { Nullable, OrNull } from '../../../http/schemas.ts';
import { EXTERNAL_REFERENCE_FIELDS, NOTES_MAX, TIME_SOURCES } from './rules.ts';

/** The schemas of time entries: the API's bodies and answer, shared by routes.ts, web-routes.ts and the service's inputs. */

/** A time entry's source, one of TIME_SOURCES. */
export const TimeSourceSchema = (description: string) =>
  Type.Unsafe<TimeSource>({ type: 'string', enum: [...TIME_SOURCES], description });

/** A nullable property as a JSON-schema type list (cheaper to serialize than anyOf). */
const WallClock = (description: string) =>
  Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: `HH:mm, wall clock in the workspace time zone. ${description}` });
export const Id = (description: string) => Type.String({ minLength: 1, description });

const writable = {
  project_id: Id('An active project the person is actively assigned to (owners and administrators: any active project).'),
  task_id: Id('A task actively assigned to the project.'),
  spent_date: Type.String({ format: 'date', description: 'YYYY-MM-DD, the date of the work.' }),
  hours: Type.Number({ minimum: 0, maximum: 24, description: 'Decimal hours of a completed entry, 0 to 24, at most 6 decimal places.' }),
  started_time: Nullable(WallClock('With ended_time, gives the duration of a completed entry; a running timer starts then (default now).')),
  ended_time: Nullable(WallClock('For completed entries, after started_time.')),
  notes: Nullable(Type.String({ maxLength: NOTES_MAX, description: 'Description of the work; blank is null.' })),
  billable: Type.Boolean({ description: "Overrides the default (the task assignment's billable and the project's is_billable)." }),
  metadata: Nullable(Type.Object({}, { additionalProperties: true, description: 'A JSON object of at most 4 KB; null clears it.' })),
  external_reference: Type.Unknown({
    description:
      'An object: id (required, up to 255), permalink (http(s) URL, up to 2048), service, service_name, group_id, account_id, display_name, group_name, parent_id. The services github.com and atlassian.net are reserved for built-in integrations.',
  }),
};

export const CreateBody = Type.Object(
  {
    project_id: writable.project_id,
    task_id: writable.task_id,
    user_id: Type.Optional(
      Id("Whose time (default: the caller). Administrators: anyone's; managers: their teammates' and on projects they manage."),
    ),
    spent_date: Type.Optional({ ...writable.spent_date, description: 'YYYY-MM-DD. Required for completed entries; a timer defaults to today in the workspace time zone.' }),
    hours: Type.Optional(writable.hours),
    is_running: Type.Optional(Type.Boolean({ description: 'true creates a running timer.' })),
    replace_running: Type.Optional(Type.Boolean({ description: "With is_running: stop the person's running timer first instead of answering 409." })),
    started_time: Type.Optional(writable.started_time),
    ended_time: Type.Optional(writable.ended_time),
    notes: Type.Optional(writable.notes),
    billable: Type.Optional(writable.billable),
    source: Type.Optional(TimeSourceSchema('Where the entry comes from (default api); cannot change later.')),
    metadata: Type.Optional(writable.metadata),
    external_reference: Type.Optional(writable.external_reference),
  },
  { additionalProperties: false },
);
export type CreateInput = Static<typeof CreateBody>;

export const PatchBody = Type.Partial(Type.Object(writable), { additionalProperties: false, minProperties: 1 });
export type UpdateInput = Static<typeof PatchBody>;
export const PATCH_WRITABLE = Object.keys(writable);

export const StopBody = Type.Object(
  { notes: Type.Optional(writable.notes) },
  { additionalProperties: false, description: 'Empty, or only notes (replaces the notes).' },
);
export type StopInput = Static<typeof StopBody>;
export const RestartBody = Type.Object(
  { replace_running: Type.Optional(Type.Boolean({ description: "Stop the person's other running timer first instead of answering 409." })) },
  { additionalProperties: false },
);
export type RestartInput = Static<typeof RestartBody>;

const ExternalReferenceSchema = Type.Unsafe<Record<string, string> | null>({
  type: ['object', 'null'],
  properties: Object.fromEntries(Object.keys(EXTERNAL_REFERENCE_FIELDS).map((k) => [k, { type: 'string' }])),
  additionalProperties: false,
});

/** Property order is the presenter's: the fields every credential sees, then the full-access ones. */
export const TimeEntrySchema = Type.Object(
  {
    id: Type.String(),
    user_id: Type.String(),
    project_id: Type.String(),
    task_id: Type.String(),
    spent_date: Type.String({ description: 'YYYY-MM-DD' }),
    hours: Type.Number({ description: 'Decimal hours; a running timer includes the current run.' }),
    duration_seconds: Type.Integer(),
    rounded_hours: Type.Number({ description: 'Hours after the workspace rounding rule.' }),
    notes: OrNull(Type.String()),
    is_running: Type.Boolean(),
    timer_started_at: OrNull(Type.String({ format: 'date-time', description: "The current run's exact start." })),
    started_time: OrNull(Type.String({ description: 'HH:mm, workspace time zone' })),
    ended_time: OrNull(Type.String({ description: 'HH:mm, workspace time zone' })),
    is_locked: Type.Boolean({ description: 'Approved or billed.' }),
    is_closed: Type.Boolean({ description: 'Approved.' }),
    is_billed: Type.Boolean(),
    billable: Type.Boolean(),
    source: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    external_reference: Type.Optional(ExternalReferenceSchema),
    approval_status: Type.Optional(Type.String({ description: 'unsubmitted, submitted, approved or rejected' })),
    metadata: Type.Optional(Type.Unsafe<Record<string, unknown> | null>({ type: ['object', 'null'], additionalProperties: true })),
    task: Type.Optional(Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false })),
    budgeted: Type.Optional(Type.Boolean({ description: 'Whether the project has a budget.' })),
    billable_rate: Type.Optional(OrNull(Type.Number({ description: 'The stored historical billable rate of the work date.' }))),
  },
  {
    additionalProperties: false,
    description:
      'A personal sync key sees only the fields from id to updated_at. external_reference, approval_status, metadata, task and budgeted need a full-access credential; billable_rate also the permission to view billable rates. There is never a billable_amount.',
  },
);
