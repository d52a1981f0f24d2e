import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../errors.ts';
import { checkIfMatch, etagOf } from '../../../http/etag.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { plainJsonSerializer } from '../../../http/serializers.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { etagHeader, IdParams, NoQuery, rejectReadOnly, type TypedApp, UpdatedSince } from '../../../http/route-kit.ts';
import { presentFullProject, presentProject } from './presenter.ts';
import { CREATE_ONLY, PROJECT_READ_ONLY, PROJECT_WRITABLE, projectListFilter } from './rules.ts';
import { DirectoryProjectSchema, ProjectCreateBody, ProjectListItemSchema, ProjectPatchBody, ProjectSchema } from './schemas.ts';
import { createProject, deleteProject, getProject, listProjects, projectView, updateProject, type ProjectItem } from './service.ts';

const AnyProject = Type.Union([ProjectSchema, DirectoryProjectSchema]);

const ProjectsQuery = Type.Object(
  {
    is_active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    client_id: Type.Optional(Type.String({ format: 'uuid', description: 'Not for personal sync keys.' })),
    updated_since: UpdatedSince('projects changed (or whose client or owner changed) at or after it. Not for personal sync keys.'),
    owner_id: Type.Optional(Type.String({ format: 'uuid' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);
/** The only query parameters a personal sync key may use. */
const PERSONAL_QUERY = new Set(['is_active', 'owner_id', 'page', 'per_page']);

const EtagHeader = etagHeader('Strong ETag of this (permission-filtered) body.');

/** Read-only and create-only properties get a 400 naming them (rather than a generic unknown field). */
const POST_RULE = { readOnly: PROJECT_READ_ONLY };
/** An empty PATCH says what it may contain; `task_ids` changes through the task assignments. */
const PATCH_RULE = {
  readOnly: PROJECT_READ_ONLY,
  refused: {
    fields: CREATE_ONLY,
    message: (field: string) => `'${field}' applies only on create; change a project's tasks through its task_assignments.`,
  },
  requireOneOf: PROJECT_WRITABLE,
};

/** One page of the projects the caller sees, as the API's list and the web app's search answer it. */
export async function projectsPage(
  app: FastifyInstance,
  request: FastifyRequest,
  query: Parameters<typeof projectListFilter>[0] & { page?: number; per_page?: number },
) {
  const p = principalOf(request);
  const page = pageParams(query);
  const { rows, total } = await listProjects(app.db, p, projectListFilter(query), page, app.config.clock());
  return { projects: rows.map((row) => presentProject(row, projectView(p, row))), ...pageEnvelope(request, page, total) };
}

export async function projectsRoutes(app: TypedApp) {
  const present = (item: ProjectItem) => presentProject(item.row, item.view, item.tasks);
  /** What a write returns: the full project (a personal sync key, the directory's only reader, never writes). */
  const presentWritten = (item: ProjectItem) => presentFullProject(item.row, item.view, item.tasks);
  const ifMatch = (request: FastifyRequest) => (item: ProjectItem) =>
    checkIfMatch(request, etagOf(present(item)));

  app.get(
    '/api/v2/projects',
    {
      config: { access: 'authenticated' },
      // The presenter builds every item exactly (see presenter.ts).
      serializerCompiler: plainJsonSerializer,
      schema: {
        tags: ['projects'],
        summary: 'List projects',
        description:
          'Projects the caller sees, by name then id: owners and administrators all, everybody else those they are actively assigned to. A personal sync key gets the directory item of its owner\'s actively assigned projects (active and archived) and accepts only `is_active`, `owner_id`, `page`, `per_page`. Properties follow the caller\'s permissions; list items carry no nested `tasks`.',
        querystring: ProjectsQuery,
        response: { 200: Type.Object({ projects: Type.Array(ProjectListItemSchema), ...EnvelopeSchema }), ...ErrorResponses },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const query = request.query;
      if (p.kind === 'personal') {
        const refused = Object.keys(query).find((k) => !PERSONAL_QUERY.has(k));
        if (refused) {
          throw new ApiError('unknown_field', `A personal sync key cannot use the query parameter '${refused}'.`, { field: refused });
        }
      }
      return projectsPage(app, request, query);
    },
  );

  app.get(
    '/api/v2/projects/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['projects'],
        summary: 'Get a project',
        description:
          'A project the caller sees, with its task assignments and an `ETag` of the permission-filtered body (callers who see different properties get different tags). Unassigned, other-workspace and unknown ids are 404. A personal sync key gets the directory item.',
        params: IdParams,
        querystring: NoQuery,
        response: { 200: { ...AnyProject, headers: EtagHeader }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const body = present(await getProject(app.db, principalOf(request), id, app.config.clock()));
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.post(
    '/api/v2/projects',
    {
      config: { access: 'edit_projects', idempotent: true },
      preValidation: rejectReadOnly(POST_RULE),
      schema: {
        tags: ['projects'],
        summary: 'Create a project',
        description:
          'Owners, administrators, and managers with Edit projects (a manager becomes the project\'s manager). Billing and budget properties need the permission to view billable rates (403). `task_ids` omitted assigns the workspace default tasks, `[]` none. Accepts an `Idempotency-Key`. Returns 201 with `Location` and `ETag`.',
        body: ProjectCreateBody,
        response: { 201: { ...ProjectSchema, headers: { ...EtagHeader, Location: { type: 'string' } } }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const item = await createProject(requestDb(request), principalOf(request), input, app.config.clock());
      const body = presentWritten(item);
      return reply
        .code(201)
        .header('Location', `/api/v2/projects/${item.row.id}`)
        .header('ETag', etagOf(body))
        .send(body);
    },
  );

  app.patch(
    '/api/v2/projects/:id',
    {
      config: { access: 'authenticated', idempotent: true, ifMatch: 'optional' },
      preValidation: rejectReadOnly(PATCH_RULE),
      schema: {
        tags: ['projects'],
        summary: 'Update, archive or restore a project',
        description:
          'Owners, administrators, and managers of the project. At least one writable property; unknown, read-only and create-only (`task_ids`) properties are 400. `is_active: false` archives, `true` restores (409 while the client is archived). Billing and budget properties need the permission to view billable rates. A new `hourly_rate` applies from `hourly_rate_effective_from` (default today) on. Optional `If-Match` (412 when stale) and `Idempotency-Key`.',
        params: IdParams,
        body: ProjectPatchBody,
        response: { 200: { ...ProjectSchema, headers: EtagHeader }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const item = await updateProject(requestDb(request), principalOf(request), id, request.body, {
        now: app.config.clock(),
        precondition: ifMatch(request),
      });
      const body = presentWritten(item);
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.delete(
    '/api/v2/projects/:id',
    {
      config: { access: 'administrator', ifMatch: 'required' },
      schema: {
        tags: ['projects'],
        summary: 'Delete an archived project',
        description:
          'Owners and administrators. The project must be archived (409), `If-Match` must carry its current ETag (428 when missing, 412 when stale), and no timer may be running on it (409). Its time entries, expenses, task and user assignments and rates are deleted with it. 204 without a body.',
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await deleteProject(app.db, principalOf(request), id, { now: app.config.clock(), precondition: ifMatch(request) });
      return reply.code(204).send(null);
    },
  );
}
