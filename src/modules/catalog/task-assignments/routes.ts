import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import { ApiError, badRequest } from '../../../errors.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { principalOf } from '../../../http/security.ts';
import { ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { MAX_BUDGET, MAX_HOURLY_RATE } from '../rates/rules.ts';
import { presentAssignment } from './presenter.ts';
import { ASSIGNMENT_READ_ONLY, ASSIGNMENT_WRITABLE, type AssignmentInput } from './rules.ts';
import { createTaskAssignment, getTaskAssignment, listTaskAssignments, updateTaskAssignment } from './service.ts';


const writable = {
  is_active: Type.Boolean({ description: 'false deactivates the assignment: the task leaves the project\'s task list.' }),
  billable: Type.Boolean({ description: "Whether time on the task is billable on this project (default: the task's billable_by_default)." }),
  budget: Nullable(
    Type.Number({
      minimum: 0,
      maximum: MAX_BUDGET.toNumber(),
      description: "The task budget (hours or money per the project's budget_by), at most 2 decimal places; needs permission to view the project's budget.",
    }),
  ),
  hourly_rate: Type.Number({
    minimum: 0,
    maximum: MAX_HOURLY_RATE.toNumber(),
    description:
      'The billable hourly rate of the task on this project, effective from `hourly_rate_effective_from` on (earlier work keeps its rate). Needs the permission to view billable rates.',
  }),
  hourly_rate_effective_from: Type.String({
    description: 'YYYY-MM-DD; only with `hourly_rate`. Default on a change: today in the workspace time zone; when the assignment is created: none, the rate prices all its work whatever its date (shown as null).',
  }),
};

const CreateBody = Type.Object(
  {
    task_id: Type.String({ description: 'An active task of the workspace.' }),
    is_active: Type.Optional(writable.is_active),
    billable: Type.Optional(writable.billable),
    budget: Type.Optional(writable.budget),
    hourly_rate: Type.Optional(writable.hourly_rate),
    hourly_rate_effective_from: Type.Optional(writable.hourly_rate_effective_from),
  },
  { additionalProperties: false },
);

const PatchBody = Type.Partial(Type.Object(writable), { additionalProperties: false, minProperties: 1 });

export const TaskAssignmentSchema = Type.Object(
  {
    project_id: Type.String(),
    task_id: Type.String(),
    task: Type.Object({ id: Type.String(), name: Type.String() }),
    is_active: Type.Boolean(),
    billable: Type.Boolean(),
    budget: Type.Optional(Nullable(Type.Number())),
    hourly_rate: Type.Optional(Nullable(Type.Number())),
    hourly_rate_effective_from: Type.Optional(Nullable(Type.String({ format: 'date' }))),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  {
    additionalProperties: false,
    description:
      '`budget` (may be 0 or null) appears only for callers who may view the project\'s budget; `hourly_rate` (the rate in force today in the workspace time zone) and the date it took effect only for callers who may view billable rates.',
  },
);

const ListQuery = Type.Object(
  { is_active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])), ...PageQuery },
  { additionalProperties: false },
);
const NoQuery = Type.Object({}, { additionalProperties: false });
const ProjectParams = Type.Object({ project_id: Type.String() }, { additionalProperties: false });
const ItemParams = Type.Object({ project_id: Type.String(), task_id: Type.String() }, { additionalProperties: false });

const rejectReadOnly =
  ({ requireOne }: { requireOne: boolean }): preValidationAsyncHookHandler =>
  async (request) => {
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return;
    const readOnly: readonly string[] = requireOne ? [...ASSIGNMENT_READ_ONLY, 'task_id'] : ASSIGNMENT_READ_ONLY;
    for (const field of readOnly) {
      if (Object.hasOwn(body, field)) throw new ApiError('unknown_field', `'${field}' is read-only and cannot be set.`, { field });
    }
    if (requireOne && Object.keys(body).length === 0) {
      throw badRequest(`Send at least one writable property: ${ASSIGNMENT_WRITABLE.join(', ')}.`);
    }
  };

const itemUrl = (projectId: string, taskId: string) => `/api/v2/projects/${projectId}/task_assignments/${taskId}`;

export async function taskAssignmentsRoutes(app: FastifyInstance) {
  app.get(
    '/api/v2/projects/:project_id/task_assignments',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['tasks'],
        summary: "List a project's task assignments",
        description:
          'Active and inactive assignments of a project visible to the caller (404 otherwise), by task name. Budgets and rates appear by permission.',
        params: ProjectParams,
        querystring: ListQuery,
        response: {
          200: Type.Object({ task_assignments: Type.Array(TaskAssignmentSchema), ...EnvelopeSchema }),
          ...ErrorResponses,
        },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const { project_id } = request.params as Static<typeof ProjectParams>;
      const query = request.query as Static<typeof ListQuery>;
      const page = pageParams(query);
      const { rows, total, view } = await listTaskAssignments(
        app.db,
        p.companyId,
        p,
        project_id,
        { isActive: query.is_active === undefined ? undefined : query.is_active === 'true' },
        page,
        app.config.clock(),
      );
      return { task_assignments: rows.map((row) => presentAssignment(row, view)), ...pageEnvelope(request, page, total) };
    },
  );

  app.get(
    '/api/v2/projects/:project_id/task_assignments/:task_id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['tasks'],
        summary: 'Get a task assignment',
        params: ItemParams,
        querystring: NoQuery,
        response: { 200: TaskAssignmentSchema, ...ErrorResponses },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const { project_id, task_id } = request.params as Static<typeof ItemParams>;
      const { row, view } = await getTaskAssignment(app.db, p.companyId, p, project_id, task_id, app.config.clock());
      return presentAssignment(row, view);
    },
  );

  app.post(
    '/api/v2/projects/:project_id/task_assignments',
    {
      config: { access: 'edit_clients_and_tasks' },
      preValidation: rejectReadOnly({ requireOne: false }),
      schema: {
        tags: ['tasks'],
        summary: 'Assign a task to a project',
        description:
          "Owners, administrators, and managers with Edit clients and tasks, on a project visible to them. `budget` needs permission to view the project's budget, `hourly_rate` the permission to view billable rates. Without `hourly_rate`, the task's default hourly rate becomes the assignment's rate from today. An archived task is 400; an existing assignment 409. Returns 201 with `Location`.",
        params: ProjectParams,
        body: CreateBody,
        response: { 201: { ...TaskAssignmentSchema, headers: { Location: { type: 'string' } } }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      const { project_id } = request.params as Static<typeof ProjectParams>;
      const input = request.body as Static<typeof CreateBody>;
      const { row, view } = await createTaskAssignment(app.db, p.companyId, p, project_id, input, app.config.clock());
      return reply.code(201).header('Location', itemUrl(row.project_id, row.task_id)).send(presentAssignment(row, view));
    },
  );

  app.patch(
    '/api/v2/projects/:project_id/task_assignments/:task_id',
    {
      config: { access: 'edit_clients_and_tasks' },
      preValidation: rejectReadOnly({ requireOne: true }),
      schema: {
        tags: ['tasks'],
        summary: 'Change a task assignment',
        description:
          "At least one writable property. `is_active: false` deactivates it. A new `hourly_rate` applies from `hourly_rate_effective_from` (default today in the workspace time zone) on; work dated earlier keeps its rate.",
        params: ItemParams,
        body: PatchBody,
        response: { 200: TaskAssignmentSchema, ...ErrorResponses },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const { project_id, task_id } = request.params as Static<typeof ItemParams>;
      const { row, view } = await updateTaskAssignment(
        app.db,
        p.companyId,
        p,
        project_id,
        task_id,
        request.body as AssignmentInput,
        app.config.clock(),
      );
      return presentAssignment(row, view);
    },
  );
}
