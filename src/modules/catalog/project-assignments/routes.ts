import { Type } from '@sinclair/typebox';
import { EnvelopeSchema, type PageParams } from '../../../http/pagination.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { NoQuery, rejectReadOnly, type TypedApp } from '../../../http/route-kit.ts';
import { assignmentsPage, AssignmentsQuery, BudgetProperty, ProjectParams, RateProperties } from '../assignments/index.ts';
import { presentUserAssignment } from './presenter.ts';
import { USER_ASSIGNMENT_READ_ONLY, USER_ASSIGNMENT_WRITABLE } from './rules.ts';
import { UserAssignmentCreateBody, UserAssignmentPatchBody } from './schemas.ts';
import {
  createProjectUserAssignment,
  deleteProjectUserAssignment,
  getProjectUserAssignment,
  listProjectUserAssignments,
  updateProjectUserAssignment,
} from './service.ts';


export const UserAssignmentSchema = Type.Object(
  {
    project_id: Type.String(),
    user_id: Type.String(),
    user: Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() }, { additionalProperties: false }),
    is_project_manager: Type.Boolean(),
    is_active: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    ...RateProperties,
    budget: BudgetProperty,
  },
  {
    additionalProperties: false,
    description:
      "`hourly_rate` (in force today, workspace time zone) and `hourly_rate_effective_from` appear only for callers who may view billable rates; `budget` only for those who may view the project's budget.",
  },
);

const ItemParams = Type.Object({ project_id: Type.String(), user_id: Type.String() }, { additionalProperties: false });
/** A PATCH names the person in its path: `user_id` in the body is read-only. */
const PATCH_READ_ONLY = [...USER_ASSIGNMENT_READ_ONLY, 'user_id'];

const itemUrl = (projectId: string, userId: string) => `/api/v2/projects/${projectId}/user_assignments/${userId}`;
const WHO = 'Owners, administrators and the managers of the project (403 for anyone else who sees it; 404 for a project the caller does not see).';

export async function projectAssignmentsRoutes(app: TypedApp) {
  app.get(
    '/api/v2/projects/:project_id/user_assignments',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['projects'],
        summary: "List a project's people",
        description: `Active and inactive assignments, by last name, first name. ${WHO} Rates and budgets appear by permission.`,
        params: ProjectParams,
        querystring: AssignmentsQuery,
        response: {
          200: Type.Object({ user_assignments: Type.Array(UserAssignmentSchema), ...EnvelopeSchema }),
          ...ErrorResponses,
        },
      },
    },
    async (request) => {
      const { project_id } = request.params;
      const list = (filter: { isActive?: boolean }, page: PageParams) =>
        listProjectUserAssignments(app.db, principalOf(request), project_id, filter, page, app.config.clock());
      const { items, envelope } = await assignmentsPage(request, request.query, list, presentUserAssignment);
      return { user_assignments: items, ...envelope };
    },
  );

  app.get(
    '/api/v2/projects/:project_id/user_assignments/:user_id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['projects'],
        summary: "Get a person's project assignment",
        description: WHO,
        params: ItemParams,
        querystring: NoQuery,
        response: { 200: UserAssignmentSchema, ...ErrorResponses },
      },
    },
    async (request) => {
      const { project_id, user_id } = request.params;
      const { row, view } = await getProjectUserAssignment(app.db, principalOf(request), project_id, user_id, app.config.clock());
      return presentUserAssignment(row, view);
    },
  );

  app.post(
    '/api/v2/projects/:project_id/user_assignments',
    {
      config: { access: 'authenticated', idempotent: true },
      preValidation: rejectReadOnly({ readOnly: USER_ASSIGNMENT_READ_ONLY }),
      schema: {
        tags: ['projects'],
        summary: 'Assign a person to a project',
        description: `${WHO} The person must be an active internal member (400 naming user_id); an existing assignment is 409. \`hourly_rate\` and \`budget\` need the permission to view billable rates. Accepts an \`Idempotency-Key\`. Returns 201 with \`Location\`.`,
        params: ProjectParams,
        body: UserAssignmentCreateBody,
        response: { 201: { ...UserAssignmentSchema, headers: { Location: { type: 'string' } } }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { project_id } = request.params;
      const input = request.body;
      const { row, view } = await createProjectUserAssignment(requestDb(request), principalOf(request), project_id, input, app.config.clock());
      return reply.code(201).header('Location', itemUrl(row.project_id, row.user_id)).send(presentUserAssignment(row, view));
    },
  );

  app.patch(
    '/api/v2/projects/:project_id/user_assignments/:user_id',
    {
      config: { access: 'authenticated', idempotent: true },
      preValidation: rejectReadOnly({ readOnly: PATCH_READ_ONLY, requireOneOf: USER_ASSIGNMENT_WRITABLE }),
      schema: {
        tags: ['projects'],
        summary: "Change a person's project assignment",
        description: `${WHO} At least one writable property. \`is_active: false\` takes the project out of the person's sight on their next request. A new \`hourly_rate\` applies from \`hourly_rate_effective_from\` (default today) on. Accepts an \`Idempotency-Key\`.`,
        params: ItemParams,
        body: UserAssignmentPatchBody,
        response: { 200: UserAssignmentSchema, ...ErrorResponses },
      },
    },
    async (request) => {
      const { project_id, user_id } = request.params;
      const { row, view } = await updateProjectUserAssignment(
        requestDb(request),
        principalOf(request),
        project_id,
        user_id,
        request.body,
        app.config.clock(),
      );
      return presentUserAssignment(row, view);
    },
  );

  app.delete(
    '/api/v2/projects/:project_id/user_assignments/:user_id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['projects'],
        summary: 'Remove a person from a project',
        description: `${WHO} The person loses sight of the project on their next request; the rate history stays. 204 without a body.`,
        params: ItemParams,
        querystring: NoQuery,
        response: { 204: Type.Null({ description: 'Removed.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { project_id, user_id } = request.params;
      await deleteProjectUserAssignment(app.db, principalOf(request), project_id, user_id);
      return reply.code(204).send(null);
    },
  );
}
