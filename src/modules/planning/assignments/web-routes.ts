import { Type } from '@sinclair/typebox';
import { requestDb } from '../../../http/idempotency.ts';
import { createBody, ErrorResponses, OrNull, patchBody } from '../../../http/schemas.ts';
import { IdParams, NoQuery, rejectReadOnly, type TypedApp } from '../../../http/route-kit.ts';
import { principalOf } from '../../../http/security.ts';
import {
  createAssignment,
  createPlaceholder,
  deleteAssignment,
  listPlaceholders,
  MAX_WEEKS,
  replacePlaceholder,
  scheduleOf,
  updateAssignment,
  updatePlaceholder,
} from './service.ts';

/**
 * Planning in the web app (session only; the spec names these records only as backup
 * resources): the schedule the planner shows, assignments and placeholders.
 */

const Day = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const Id = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });

const assignmentWritable = {
  project_id: Id,
  user_id: Type.Union([Id, Type.Null()], { description: 'The person planned; or placeholder_id.' }),
  placeholder_id: Type.Union([Id, Type.Null()], { description: 'The role still to staff; or user_id.' }),
  starts_on: Day,
  ends_on: Day,
  hours_per_day: Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 24 }), Type.Null()], { description: 'Hours on each working day (the pattern\u2019s days less holidays and whole days off); or total_hours.' }),
  total_hours: Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 100000 }), Type.Null()], { description: 'Hours spread evenly over the range\u2019s working days; or hours_per_day.' }),
  notes: Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]),
};

const AssignmentSchema = Type.Object(
  {
    id: Id,
    project: Type.Object({ id: Id, name: Type.Union([Type.String(), Type.Null()]), client_name: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false }),
    user_id: Type.Union([Id, Type.Null()]),
    placeholder_id: Type.Union([Id, Type.Null()]),
    starts_on: Day,
    ends_on: Day,
    hours_per_day: Type.Union([Type.Number(), Type.Null()]),
    total_hours: Type.Union([Type.Number(), Type.Null()]),
    notes: Type.Union([Type.String(), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);

const PlaceholderSchema = Type.Object(
  { id: Id, name: Type.String(), weekly_hours: Type.Number(), is_active: Type.Boolean(), created_at: Timestamp, updated_at: Timestamp },
  { additionalProperties: false },
);
const placeholderWritable = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  weekly_hours: Type.Number({ minimum: 0, maximum: 168, description: 'The hours a week the role stands for (its capacity in the planner); default 40.' }),
  is_active: Type.Boolean(),
};

const Cell = Type.Object({ planned_hours: Type.Number(), capacity_hours: Type.Number() }, { additionalProperties: false });

export async function planningWebRoutes(app: TypedApp) {
  const config = { access: 'authenticated', web: true } as const;
  const tags = ['web'];
  const now = () => app.config.clock();

  app.get(
    '/web/api/schedule',
    {
      config,
      schema: {
        tags,
        operationId: 'getSchedule',
        summary: 'The planner\u2019s schedule',
        description: `Owners, administrators and managers. People and active placeholders (and, while plans of the weeks name them, people who left, agents and archived placeholders), each with one cell per week of the workspace (its \`week_start\`: Monday to Sunday, Sunday to Saturday or Saturday to Friday) from the week holding \`from\` (a \`from\` inside a week starts at that week's first day): planned hours against capacity; and the live assignments of those weeks, with may_change (the caller plans that project). weeks: 1 to ${MAX_WEEKS}, default 12.`,
        querystring: Type.Object({ from: Day, weeks: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_WEEKS })) }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            weeks: Type.Array(Day, { description: 'The first day of each workspace week shown (its week_start), one per cell, in order.' }),
            people: Type.Array(
              Type.Object(
                {
                  user_id: Id,
                  name: Type.String(),
                  is_active: Type.Boolean({ description: 'false: a person who left, or an agent, shown only while plans of the weeks name them (no capacity)' }),
                  cells: Type.Array(Cell),
                },
                { additionalProperties: false },
              ),
            ),
            placeholders: Type.Array(Type.Intersect([PlaceholderSchema, Type.Object({ cells: Type.Array(Cell) })])),
            assignments: Type.Array(Type.Intersect([AssignmentSchema, Type.Object({ may_change: Type.Boolean() })])),
            plannable_project_ids: OrNull(
              Type.Array(Id, { description: 'The projects the caller plans (a manager: those they manage); null: every project (owners and administrators).' }),
            ),
          }),
          ...ErrorResponses,
        },
      },
    },
    async (request) => scheduleOf(app.db, principalOf(request), request.query),
  );

  app.post(
    '/web/api/planning_assignments',
    {
      config: { ...config, idempotent: true },
      preValidation: rejectReadOnly({ readOnly: ['id', 'project', 'created_at', 'updated_at'] }),
      schema: {
        tags,
        operationId: 'createPlanningAssignment',
        summary: 'Plan a person or a placeholder on a project',
        description:
          'Owners and administrators on any project, managers on the projects they manage. Either user_id or placeholder_id, either hours_per_day or total_hours (more than 24 hours a working day is 400 naming it).',
        body: createBody(assignmentWritable, ['project_id', 'starts_on', 'ends_on']),
        response: { 201: AssignmentSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createAssignment(requestDb(request), principalOf(request), request.body, now())),
  );

  app.patch(
    '/web/api/planning_assignments/:id',
    {
      config,
      preValidation: rejectReadOnly({ readOnly: ['id', 'project', 'created_at', 'updated_at'] }),
      schema: {
        tags,
        operationId: 'updatePlanningAssignment',
        summary: 'Move, resize or change an assignment',
        description: 'Setting hours_per_day clears total_hours and the other way round; naming user_id (or placeholder_id) moves it to that row.',
        params: IdParams,
        body: patchBody(assignmentWritable),
        response: { 200: AssignmentSchema, ...ErrorResponses },
      },
    },
    async (request) => updateAssignment(app.db, principalOf(request), request.params.id, request.body, now()),
  );

  app.delete(
    '/web/api/planning_assignments/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'deletePlanningAssignment',
        summary: 'Delete an assignment',
        description: 'Soft: the planner no longer shows it; the backup keeps it (deleted_at).',
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Type.Null(), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      await deleteAssignment(app.db, principalOf(request), request.params.id, now());
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/web/api/planning_placeholders',
    {
      config,
      schema: { tags, operationId: 'listPlanningPlaceholders', summary: 'List placeholders', querystring: NoQuery, response: { 200: Type.Object({ placeholders: Type.Array(PlaceholderSchema) }), ...ErrorResponses } },
    },
    async (request) => ({ placeholders: await listPlaceholders(app.db, principalOf(request)) }),
  );

  app.post(
    '/web/api/planning_placeholders',
    {
      config: { ...config, idempotent: true },
      preValidation: rejectReadOnly({ readOnly: ['id', 'created_at', 'updated_at'] }),
      schema: {
        tags,
        operationId: 'createPlanningPlaceholder',
        summary: 'Add a placeholder',
        description: 'A role still to staff (e.g. "Senior designer"), planned like a person. Owners, administrators and managers.',
        body: createBody(placeholderWritable, ['name']),
        response: { 201: PlaceholderSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createPlaceholder(requestDb(request), principalOf(request), request.body, now())),
  );

  app.patch(
    '/web/api/planning_placeholders/:id',
    {
      config,
      preValidation: rejectReadOnly({ readOnly: ['id', 'created_at', 'updated_at'] }),
      schema: { tags, operationId: 'updatePlanningPlaceholder', summary: 'Change a placeholder', params: IdParams, body: patchBody(placeholderWritable), response: { 200: PlaceholderSchema, ...ErrorResponses } },
    },
    async (request) => updatePlaceholder(app.db, principalOf(request), request.params.id, request.body, now()),
  );

  app.post(
    '/web/api/planning_placeholders/:id/replace',
    {
      config,
      schema: {
        tags,
        operationId: 'replacePlanningPlaceholder',
        summary: 'Staff a placeholder with a person',
        description: 'Its live assignments move to the person (each checked as a new plan of theirs); the placeholder is archived.',
        params: IdParams,
        body: Type.Object({ user_id: Id }, { additionalProperties: false }),
        response: { 200: Type.Object({ moved: Type.Integer() }), ...ErrorResponses },
      },
    },
    async (request) => replacePlaceholder(app.db, principalOf(request), request.params.id, request.body.user_id, now()),
  );
}
