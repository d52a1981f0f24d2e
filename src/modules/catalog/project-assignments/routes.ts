import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import { ApiError, badRequest } from '../../../errors.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { MAX_BUDGET, MAX_HOURLY_RATE } from '../rates/rules.ts';
import { presentUserAssignment } from './presenter.ts';
import { USER_ASSIGNMENT_READ_ONLY, USER_ASSIGNMENT_WRITABLE, type UserAssignmentInput } from './rules.ts';
import {
  createProjectUserAssignment,
  deleteProjectUserAssignment,
  getProjectUserAssignment,
  listProjectUserAssignments,
  updateProjectUserAssignment,
} from './service.ts';


const writable = {
  is_project_manager: Type.Boolean({ description: 'The person manages the project (members with the manager role only).' }),
  is_active: Type.Boolean({ description: 'false deactivates the assignment: the person no longer sees the project.' }),
  hourly_rate: Type.Number({
    minimum: 0,
    maximum: MAX_HOURLY_RATE.toNumber(),
    description:
      "The person's billable hourly rate on this project (used when it bills by people), from `hourly_rate_effective_from` on; earlier dates keep their rate. Needs the permission to view billable rates.",
  }),
  hourly_rate_effective_from: Type.String({ format: 'date', description: 'YYYY-MM-DD; only with `hourly_rate`. Default on a change: today in the workspace time zone; when the assignment is created: none, the rate prices all its work whatever its date (shown as null).' }),
  budget: Nullable(
    Type.Number({
      minimum: 0,
      maximum: MAX_BUDGET.toNumber(),
      description: "The person's budget (budget_by person), at most 2 decimal places; needs the permission to view billable rates and the project's budget.",
    }),
  ),
};

const CreateBody = Type.Object(
  {
    user_id: Type.String({ description: 'An active internal member of the workspace.' }),
    is_project_manager: Type.Optional(writable.is_project_manager),
    is_active: Type.Optional(writable.is_active),
    hourly_rate: Type.Optional(writable.hourly_rate),
    hourly_rate_effective_from: Type.Optional(writable.hourly_rate_effective_from),
    budget: Type.Optional(writable.budget),
  },
  { additionalProperties: false },
);

const PatchBody = Type.Partial(Type.Object(writable), { additionalProperties: false, minProperties: 1 });

export const UserAssignmentSchema = Type.Object(
  {
    project_id: Type.String(),
    user_id: Type.String(),
    user: Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() }, { additionalProperties: false }),
    is_project_manager: Type.Boolean(),
    is_active: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    hourly_rate: Type.Optional(Nullable(Type.Number())),
    hourly_rate_effective_from: Type.Optional(Nullable(Type.String({ format: 'date' }))),
    budget: Type.Optional(Nullable(Type.Number())),
  },
  {
    additionalProperties: false,
    description:
      "`hourly_rate` (in force today, workspace time zone) and `hourly_rate_effective_from` appear only for callers who may view billable rates; `budget` only for those who may view the project's budget.",
  },
);

const ListQuery = Type.Object(
  { is_active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])), ...PageQuery },
  { additionalProperties: false },
);
const NoQuery = Type.Object({}, { additionalProperties: false });
const ProjectParams = Type.Object({ project_id: Type.String() }, { additionalProperties: false });
const ItemParams = Type.Object({ project_id: Type.String(), user_id: Type.String() }, { additionalProperties: false });

const rejectReadOnly =
  ({ patch }: { patch: boolean }): preValidationAsyncHookHandler =>
  async (request) => {
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return;
    const readOnly: readonly string[] = patch ? [...USER_ASSIGNMENT_READ_ONLY, 'user_id'] : USER_ASSIGNMENT_READ_ONLY;
    for (const field of readOnly) {
      if (Object.hasOwn(body, field)) throw new ApiError('unknown_field', `'${field}' is read-only and cannot be set.`, { field });
    }
    if (patch && Object.keys(body).length === 0) {
      throw badRequest(`Send at least one writable property: ${USER_ASSIGNMENT_WRITABLE.join(', ')}.`);
    }
  };

const itemUrl = (projectId: string, userId: string) => `/api/v2/projects/${projectId}/user_assignments/${userId}`;
const WHO = 'Owners, administrators and the managers of the project (403 for anyone else who sees it; 404 for a project the caller does not see).';

export async function projectAssignmentsRoutes(app: FastifyInstance) {
  app.get(
    '/api/v2/projects/:project_id/user_assignments',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['projects'],
        summary: "List a project's people",
        description: `Active and inactive assignments, by last name, first name. ${WHO} Rates and budgets appear by permission.`,
        params: ProjectParams,
        querystring: ListQuery,
        response: {
          200: Type.Object({ user_assignments: Type.Array(UserAssignmentSchema), ...EnvelopeSchema }),
          ...ErrorResponses,
        },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const { project_id } = request.params as Static<typeof ProjectParams>;
      const query = request.query as Static<typeof ListQuery>;
      const page = pageParams(query);
      const { rows, total, view } = await listProjectUserAssignments(
        app.db,
        p,
        project_id,
        { isActive: query.is_active === undefined ? undefined : query.is_active === 'true' },
        page,
        app.config.clock(),
      );
      return { user_assignments: rows.map((row) => presentUserAssignment(row, view)), ...pageEnvelope(request, page, total) };
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
      const { project_id, user_id } = request.params as Static<typeof ItemParams>;
      const { row, view } = await getProjectUserAssignment(app.db, principalOf(request), project_id, user_id, app.config.clock());
      return presentUserAssignment(row, view);
    },
  );

  app.post(
    '/api/v2/projects/:project_id/user_assignments',
    {
      config: { access: 'authenticated', idempotent: true },
      preValidation: rejectReadOnly({ patch: false }),
      schema: {
        tags: ['projects'],
        summary: 'Assign a person to a project',
        description: `${WHO} The person must be an active internal member (400 naming user_id); an existing assignment is 409. \`hourly_rate\` and \`budget\` need the permission to view billable rates. Accepts an \`Idempotency-Key\`. Returns 201 with \`Location\`.`,
        params: ProjectParams,
        body: CreateBody,
        response: { 201: { ...UserAssignmentSchema, headers: { Location: { type: 'string' } } }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { project_id } = request.params as Static<typeof ProjectParams>;
      const input = request.body as UserAssignmentInput & { user_id: string };
      const { row, view } = await createProjectUserAssignment(requestDb(request), principalOf(request), project_id, input, app.config.clock());
      return reply.code(201).header('Location', itemUrl(row.project_id, row.user_id)).send(presentUserAssignment(row, view));
    },
  );

  app.patch(
    '/api/v2/projects/:project_id/user_assignments/:user_id',
    {
      config: { access: 'authenticated', idempotent: true },
      preValidation: rejectReadOnly({ patch: true }),
      schema: {
        tags: ['projects'],
        summary: "Change a person's project assignment",
        description: `${WHO} At least one writable property. \`is_active: false\` takes the project out of the person's sight on their next request. A new \`hourly_rate\` applies from \`hourly_rate_effective_from\` (default today) on. Accepts an \`Idempotency-Key\`.`,
        params: ItemParams,
        body: PatchBody,
        response: { 200: UserAssignmentSchema, ...ErrorResponses },
      },
    },
    async (request) => {
      const { project_id, user_id } = request.params as Static<typeof ItemParams>;
      const { row, view } = await updateProjectUserAssignment(
        requestDb(request),
        principalOf(request),
        project_id,
        user_id,
        request.body as UserAssignmentInput,
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
      const { project_id, user_id } = request.params as Static<typeof ItemParams>;
      await deleteProjectUserAssignment(app.db, principalOf(request), project_id, user_id);
      return reply.code(204).send();
    },
  );
}
