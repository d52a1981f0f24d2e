import { requestDb } from '../../../http/idempotency.ts';
import { Type } from '@sinclair/typebox';
import { checkIfMatch, etagOf } from '../../../http/etag.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { principalOf } from '../../../http/security.ts';
import { ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { presentTask } from './presenter.ts';
import { TASK_READ_ONLY, TASK_WRITABLE } from './rules.ts';
import { TaskCreateBody, TaskPatchBody } from './schemas.ts';
import { EtagHeader, IdParams, rejectReadOnly, type TypedApp, UpdatedSince, updatedSinceOf } from '../../../http/route-kit.ts';
import { createTask, getTask, listTasks, updateTask } from './service.ts';


export const TaskSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    billable_by_default: Type.Boolean(),
    default_hourly_rate: Type.Optional(Nullable(Type.Number())),
    is_default: Type.Boolean(),
    is_active: Type.Boolean(),
    budget: Type.Optional(Nullable(Type.Number())),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  {
    additionalProperties: false,
    description:
      '`default_hourly_rate` appears only for callers who may view billable rates. `budget` (the task assignment budget, which may be 0 or null) appears only when the request names a `project_id`, the task is actively assigned to it, and the caller may view that project\'s budget.',
  },
);

const TasksQuery = Type.Object(
  {
    is_active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    project_id: Type.Optional(
      Type.String({ minLength: 1, description: 'Only tasks actively assigned to this project (visible to the caller, else 404), with their budget where visible.' }),
    ),
    updated_since: UpdatedSince('only tasks updated at or after it.'),
    ...PageQuery,
  },
  { additionalProperties: false },
);

const TaskQuery = Type.Object(
  {
    project_id: Type.Optional(
      Type.String({ minLength: 1, description: 'Read the task as assigned to this project: `budget` shows for an active assignment where visible.' }),
    ),
  },
  { additionalProperties: false },
);

export async function tasksRoutes(app: TypedApp) {
  // Task assignment budgets (GET /tasks?project_id, task assignments) are served.
  app.features.add('project-task-budgets');

  app.get(
    '/api/v2/tasks',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['tasks'],
        summary: 'List tasks',
        description:
          'Every task of the workspace, by name then id. With `project_id`: only the tasks actively assigned to that project (which must be visible to the caller: 404 otherwise), each with the assignment `budget` where the caller may view that project\'s budget. Not available to a personal sync key.',
        querystring: TasksQuery,
        response: { 200: Type.Object({ tasks: Type.Array(TaskSchema), ...EnvelopeSchema }), ...ErrorResponses },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const query = request.query;
      const page = pageParams(query);
      const { rows, total, view } = await listTasks(
        app.db,
        p.companyId,
        p,
        {
          isActive: query.is_active === undefined ? undefined : query.is_active === 'true',
          updatedSince: updatedSinceOf(query.updated_since),
          projectId: query.project_id,
        },
        page,
      );
      return { tasks: rows.map((row) => presentTask(row, view)), ...pageEnvelope(request, page, total) };
    },
  );

  app.get(
    '/api/v2/tasks/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['tasks'],
        summary: 'Get a task',
        description:
          'One task of the workspace, with an `ETag`. With `project_id` (visible to the caller, else 404) the assignment `budget` is included where the assignment is active and the caller may view the project\'s budget.',
        params: IdParams,
        querystring: TaskQuery,
        response: { 200: { ...TaskSchema, headers: EtagHeader }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { project_id } = request.query;
      const p = principalOf(request);
      const { row, view } = await getTask(app.db, p.companyId, p, id, { projectId: project_id });
      const body = presentTask(row, view);
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.post(
    '/api/v2/tasks',
    {
      config: { access: 'edit_clients_and_tasks', idempotent: true },
      preValidation: rejectReadOnly({ readOnly: TASK_READ_ONLY }),
      schema: {
        tags: ['tasks'],
        summary: 'Create a task',
        description:
          'Owners, administrators, and managers with Edit clients and tasks. `default_hourly_rate` also needs the permission to view billable rates. A name already used in the workspace (ignoring case) is 409. Optional `Idempotency-Key`. Returns 201 with `Location` and `ETag`.',
        body: TaskCreateBody,
        response: { 201: { ...TaskSchema, headers: { ...EtagHeader, Location: { type: 'string' } } }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      const input = request.body;
      const { row, view } = await createTask(requestDb(request), p.companyId, p, input, app.config.clock());
      const body = presentTask(row, view);
      return reply.code(201).header('Location', `/api/v2/tasks/${row.id}`).header('ETag', etagOf(body)).send(body);
    },
  );

  app.patch(
    '/api/v2/tasks/:id',
    {
      config: { access: 'edit_clients_and_tasks', ifMatch: 'optional' },
      preValidation: rejectReadOnly({ readOnly: TASK_READ_ONLY, requireOneOf: TASK_WRITABLE }),
      schema: {
        tags: ['tasks'],
        summary: 'Update, archive or restore a task',
        description:
          'At least one writable property; unknown and read-only properties are 400. `default_hourly_rate` needs the permission to view billable rates. A name already used (ignoring case) is 409. Optional `If-Match` (412 when stale).',
        params: IdParams,
        body: TaskPatchBody,
        response: { 200: { ...TaskSchema, headers: EtagHeader }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const p = principalOf(request);
      const { row, view } = await updateTask(app.db, p.companyId, p, id, request.body, {
        now: app.config.clock(),
        precondition: (current, currentView) =>
          checkIfMatch(request, etagOf(presentTask(current, currentView))),
      });
      const body = presentTask(row, view);
      reply.header('ETag', etagOf(body));
      return body;
    },
  );
}
