import { Type } from '@sinclair/typebox';
import { EnvelopeSchema, type PageParams } from '../../../http/pagination.ts';
import { principalOf } from '../../../http/security.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { NoQuery, rejectReadOnly, type TypedApp } from '../../../http/route-kit.ts';
import { assignmentsPage, AssignmentsQuery, BudgetProperty, ProjectParams, RateProperties } from '../assignments/index.ts';
import { presentAssignment } from './presenter.ts';
import { ASSIGNMENT_READ_ONLY, ASSIGNMENT_WRITABLE } from './rules.ts';
import { TaskAssignmentCreateBody, TaskAssignmentPatchBody } from './schemas.ts';
import { createTaskAssignment, getTaskAssignment, listTaskAssignments, updateTaskAssignment } from './service.ts';


export const TaskAssignmentSchema = Type.Object(
  {
    project_id: Type.String(),
    task_id: Type.String(),
    task: Type.Object({ id: Type.String(), name: Type.String() }),
    is_active: Type.Boolean(),
    billable: Type.Boolean(),
    budget: BudgetProperty,
    ...RateProperties,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  {
    additionalProperties: false,
    description:
      '`budget` (may be 0 or null) appears only for callers who may view the project\'s budget; `hourly_rate` (the rate in force today in the workspace time zone) and the date it took effect only for callers who may view billable rates.',
  },
);

const ItemParams = Type.Object({ project_id: Type.String(), task_id: Type.String() }, { additionalProperties: false });
/** A PATCH names the task in its path: `task_id` in the body is read-only. */
const PATCH_READ_ONLY = [...ASSIGNMENT_READ_ONLY, 'task_id'];

const itemUrl = (projectId: string, taskId: string) => `/api/v2/projects/${projectId}/task_assignments/${taskId}`;

export async function taskAssignmentsRoutes(app: TypedApp) {
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
        querystring: AssignmentsQuery,
        response: {
          200: Type.Object({ task_assignments: Type.Array(TaskAssignmentSchema), ...EnvelopeSchema }),
          ...ErrorResponses,
        },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const { project_id } = request.params;
      const list = (filter: { isActive?: boolean }, page: PageParams) =>
        listTaskAssignments(app.db, p.companyId, p, project_id, filter, page, app.config.clock());
      const { items, envelope } = await assignmentsPage(request, request.query, list, presentAssignment);
      return { task_assignments: items, ...envelope };
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
      const { project_id, task_id } = request.params;
      const { row, view } = await getTaskAssignment(app.db, p.companyId, p, project_id, task_id, app.config.clock());
      return presentAssignment(row, view);
    },
  );

  app.post(
    '/api/v2/projects/:project_id/task_assignments',
    {
      config: { access: 'edit_clients_and_tasks' },
      preValidation: rejectReadOnly({ readOnly: ASSIGNMENT_READ_ONLY }),
      schema: {
        tags: ['tasks'],
        summary: 'Assign a task to a project',
        description:
          "Owners, administrators, and managers with Edit clients and tasks, on a project visible to them. `budget` needs permission to view the project's budget, `hourly_rate` the permission to view billable rates. Without `hourly_rate`, the task's default hourly rate becomes the assignment's rate from today. An archived task is 400; an existing assignment 409. Returns 201 with `Location`.",
        params: ProjectParams,
        body: TaskAssignmentCreateBody,
        response: { 201: { ...TaskAssignmentSchema, headers: { Location: { type: 'string' } } }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      const { project_id } = request.params;
      const input = request.body;
      const { row, view } = await createTaskAssignment(app.db, p.companyId, p, project_id, input, app.config.clock());
      return reply.code(201).header('Location', itemUrl(row.project_id, row.task_id)).send(presentAssignment(row, view));
    },
  );

  app.patch(
    '/api/v2/projects/:project_id/task_assignments/:task_id',
    {
      config: { access: 'edit_clients_and_tasks' },
      preValidation: rejectReadOnly({ readOnly: PATCH_READ_ONLY, requireOneOf: ASSIGNMENT_WRITABLE }),
      schema: {
        tags: ['tasks'],
        summary: 'Change a task assignment',
        description:
          "At least one writable property. `is_active: false` deactivates it. A new `hourly_rate` applies from `hourly_rate_effective_from` (default today in the workspace time zone) on; work dated earlier keeps its rate.",
        params: ItemParams,
        body: TaskAssignmentPatchBody,
        response: { 200: TaskAssignmentSchema, ...ErrorResponses },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const { project_id, task_id } = request.params;
      const { row, view } = await updateTaskAssignment(
        app.db,
        p.companyId,
        p,
        project_id,
        task_id,
        request.body,
        app.config.clock(),
      );
      return presentAssignment(row, view);
    },
  );
}
