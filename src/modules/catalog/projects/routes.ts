import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { ApiError, badRequest } from '../../../errors.ts';
import { checkIfMatch, etagOf } from '../../../http/etag.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { plainJsonSerializer } from '../../../http/serializers.ts';
import { Enum, ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { MAX_BUDGET, MAX_HOURLY_RATE } from '../rates/rules.ts';
import { presentProject } from './presenter.ts';
import { BILL_BY, BUDGET_BY, CODE_MAX, CREATE_ONLY, NAME_MAX, NOTES_MAX, PROJECT_READ_ONLY, PROJECT_WRITABLE, type ProjectInput } from './rules.ts';
import { createProject, deleteProject, getProject, listProjects, projectView, updateProject, type ProjectItem } from './service.ts';

const Money = (max: number, description: string) =>
  Type.Number({ minimum: 0, maximum: max, description: `${description} At least 0, at most 2 decimal places.` });
const IsoDate = (description: string) => Nullable(Type.String({ format: 'date', description: `YYYY-MM-DD. ${description}` }));

/** The writable properties; POST requires `client_id` and `name`, PATCH at least one property. */
const writable = {
  client_id: Type.String({ description: 'An active client of the workspace.' }),
  name: Type.String({ minLength: 1, maxLength: NAME_MAX }),
  code: Nullable(Type.String({ maxLength: CODE_MAX, description: 'A short reference; blank is null.' })),
  notes: Nullable(Type.String({ maxLength: NOTES_MAX })),
  owner_id: Nullable(Type.String({ description: 'An active member of the workspace, or null.' })),
  starts_on: IsoDate('The first day of the project.'),
  ends_on: IsoDate('The last day of the project, on or after starts_on.'),
  is_active: Type.Boolean({ description: 'false archives the project, true restores it.' }),
  is_billable: Type.Boolean({ description: "Default true. A non-billable project bills by 'none' and is not fixed-fee." }),
  bill_by: Enum(BILL_BY, "Which hourly rate prices the project's time: the project's, its tasks', its people's, or none."),
  hourly_rate: Money(
    MAX_HOURLY_RATE.toNumber(),
    "The project's billable hourly rate (used with bill_by project), from hourly_rate_effective_from on; earlier dates keep their rate. Not with bill_by none.",
  ),
  hourly_rate_effective_from: Type.String({
    format: 'date',
    description: "YYYY-MM-DD, only with hourly_rate. Default on update: today in the workspace time zone; on create: none, the rate prices all the project's work whatever its date (shown as null).",
  }),
  is_fixed_fee: Type.Boolean({ description: 'Invoiced for a fixed fee; needs `fee`.' }),
  fee: Nullable(Money(MAX_BUDGET.toNumber(), 'The fixed fee; only with is_fixed_fee.')),
  cost_budget: Nullable(Money(MAX_BUDGET.toNumber(), 'The internal cost budget (money at cost rates); needs the permission to view internal costs.')),
  budget_by: Enum(BUDGET_BY, 'project (hours), project_cost (money), task (hours per task), task_fees (money per task), person (per person), none.'),
  budget: Nullable(
    Money(MAX_BUDGET.toNumber(), 'The project budget, required with budget_by project or project_cost and refused otherwise (task and person budgets live on the assignments).'),
  ),
  budget_is_monthly: Type.Boolean({ description: 'The budget resets every month; not with budget_by none.' }),
  show_budget_to_all: Type.Boolean({ description: 'Everyone assigned sees the (hours) budget, not only its managers.' }),
};

const ProjectCreateBody = Type.Object(
  {
    client_id: writable.client_id,
    name: writable.name,
    code: Type.Optional(writable.code),
    notes: Type.Optional(writable.notes),
    owner_id: Type.Optional(writable.owner_id),
    starts_on: Type.Optional(writable.starts_on),
    ends_on: Type.Optional(writable.ends_on),
    is_active: Type.Optional(writable.is_active),
    is_billable: Type.Optional(writable.is_billable),
    bill_by: Type.Optional(writable.bill_by),
    hourly_rate: Type.Optional(writable.hourly_rate),
    hourly_rate_effective_from: Type.Optional(writable.hourly_rate_effective_from),
    is_fixed_fee: Type.Optional(writable.is_fixed_fee),
    fee: Type.Optional(writable.fee),
    cost_budget: Type.Optional(writable.cost_budget),
    budget_by: Type.Optional(writable.budget_by),
    budget: Type.Optional(writable.budget),
    budget_is_monthly: Type.Optional(writable.budget_is_monthly),
    show_budget_to_all: Type.Optional(writable.show_budget_to_all),
    task_ids: Type.Optional(
      Type.Array(Type.String(), {
        uniqueItems: true,
        maxItems: 1000,
        description: 'Active tasks of the workspace to assign. Omitted: the workspace default tasks; []: none.',
      }),
    ),
  },
  { additionalProperties: false },
);

const ProjectPatchBody = Type.Partial(Type.Object(writable), { additionalProperties: false, minProperties: 1 });

const OwnerSchema = Nullable(Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() }, { additionalProperties: false }));

const ProjectTaskSchema = Type.Object(
  {
    task_id: Type.String(),
    name: Type.String(),
    is_active: Type.Boolean({ description: "The assignment's state." }),
    billable: Type.Boolean(),
    budget: Type.Optional(Nullable(Type.Number())),
  },
  { additionalProperties: false },
);

/** Property order is the serializer's and the presenter's: required properties, then optional ones. */
export const ProjectSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    code: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    is_active: Type.Boolean(),
    client: Type.Object({ id: Type.String(), name: Type.String(), currency: Type.String() }, { additionalProperties: false }),
    owner_id: Nullable(Type.String()),
    owner: OwnerSchema,
    is_billable: Type.Boolean(),
    bill_by: Enum(BILL_BY, ''),
    is_fixed_fee: Type.Boolean(),
    budget_by: Enum(BUDGET_BY, ''),
    budget_is_monthly: Type.Boolean(),
    show_budget_to_all: Type.Boolean(),
    starts_on: Nullable(Type.String({ format: 'date' })),
    ends_on: Nullable(Type.String({ format: 'date' })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    hourly_rate: Type.Optional(Nullable(Type.Number({ description: 'The project rate in force today (workspace time zone).' }))),
    hourly_rate_effective_from: Type.Optional(Nullable(Type.String({ format: 'date' }))),
    fee: Type.Optional(Nullable(Type.Number())),
    cost_budget: Type.Optional(Nullable(Type.Number())),
    budget: Type.Optional(Nullable(Type.Number())),
    tasks: Type.Optional(Type.Array(ProjectTaskSchema, { description: "Item reads only: the project's task assignments." })),
  },
  {
    additionalProperties: false,
    description:
      '`hourly_rate`, `hourly_rate_effective_from` and `fee` appear only for callers who may view billable rates; `cost_budget` only for those who may view internal costs; `budget` (and the nested task budgets, for active assignments) only for those who may view the project\'s budget.',
  },
);

/** The personal sync key's project directory item: exactly these properties. */
export const DirectoryProjectSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    code: Nullable(Type.String()),
    is_active: Type.Boolean(),
    owner_id: Nullable(Type.String()),
    owner: OwnerSchema,
    client: Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }),
  },
  { additionalProperties: false, description: 'Personal sync key: the project directory item.' },
);

const AnyProject = Type.Union([ProjectSchema, DirectoryProjectSchema]);

/**
 * A list item: the directory properties always, everything else of the full
 * project as optional properties. One flat schema rather than the item's union,
 * because the serializer would otherwise validate each of up to 2,000 items
 * against the union's branches to pick one (a measured tenth of the list's time).
 */
export const ProjectListItemSchema = Type.Object(
  {
    ...Type.Omit(DirectoryProjectSchema, ['client']).properties,
    client: Type.Object(
      { id: Type.String(), name: Type.String(), currency: Type.Optional(Type.String()) },
      { additionalProperties: false },
    ),
    ...Type.Partial(Type.Omit(ProjectSchema, ['id', 'name', 'code', 'is_active', 'owner_id', 'owner', 'client', 'tasks'])).properties,
  },
  {
    additionalProperties: false,
    description:
      'A personal sync key gets exactly the directory properties (`id`, `name`, `code`, `is_active`, `owner_id`, `owner`, `client` with `id` and `name`). Every other caller gets the project as in `GET /api/v2/projects/{id}` without `tasks`: `client.currency` and the other properties always, rates, fees, costs and budgets by permission.',
  },
);

const ProjectsQuery = Type.Object(
  {
    is_active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    client_id: Type.Optional(Type.String({ format: 'uuid', description: 'Not for personal sync keys.' })),
    updated_since: Type.Optional(
      Type.String({ format: 'date-time', description: 'ISO 8601 date-time: projects changed (or whose client or owner changed) at or after it. Not for personal sync keys.' }),
    ),
    owner_id: Type.Optional(Type.String({ format: 'uuid' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);
/** The only query parameters a personal sync key may use. */
const PERSONAL_QUERY = new Set(['is_active', 'owner_id', 'page', 'per_page']);

const IdParams = Type.Object({ id: Type.String() }, { additionalProperties: false });
const NoQuery = Type.Object({}, { additionalProperties: false });
const EtagHeader = { ETag: { type: 'string', description: 'Strong ETag of this (permission-filtered) body.' } };

/**
 * Read-only and create-only properties get a 400 naming them (rather than a
 * generic unknown field), and an empty PATCH says what it may contain.
 */
const rejectReadOnly =
  ({ patch }: { patch: boolean }): preValidationAsyncHookHandler =>
  async (request) => {
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return;
    for (const field of PROJECT_READ_ONLY) {
      if (Object.hasOwn(body, field)) throw new ApiError('unknown_field', `'${field}' is read-only and cannot be set.`, { field });
    }
    if (!patch) return;
    for (const field of CREATE_ONLY) {
      if (Object.hasOwn(body, field)) {
        throw new ApiError('unknown_field', `'${field}' applies only on create; change a project's tasks through its task_assignments.`, { field });
      }
    }
    if (Object.keys(body).length === 0) throw badRequest(`Send at least one writable property: ${PROJECT_WRITABLE.join(', ')}.`);
  };

export async function projectsRoutes(app: FastifyInstance) {
  const present = (item: ProjectItem) => presentProject(item.row, item.view, item.tasks);
  const ifMatch = (request: FastifyRequest, required: boolean) => (item: ProjectItem) =>
    checkIfMatch(request, etagOf(present(item)), { required });

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
      const query = request.query as Static<typeof ProjectsQuery>;
      if (p.kind === 'personal') {
        const refused = Object.keys(query).find((k) => !PERSONAL_QUERY.has(k));
        if (refused) {
          throw new ApiError('unknown_field', `A personal sync key cannot use the query parameter '${refused}'.`, { field: refused });
        }
      }
      const page = pageParams(query);
      const { rows, total } = await listProjects(
        app.db,
        p,
        {
          isActive: query.is_active === undefined ? undefined : query.is_active === 'true',
          clientId: query.client_id,
          ownerId: query.owner_id,
          updatedSince: query.updated_since ? new Date(query.updated_since) : undefined,
        },
        page,
        app.config.clock(),
      );
      return { projects: rows.map((row) => presentProject(row, projectView(p, row))), ...pageEnvelope(request, page, total) };
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
      const { id } = request.params as Static<typeof IdParams>;
      const body = present(await getProject(app.db, principalOf(request), id, app.config.clock()));
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.post(
    '/api/v2/projects',
    {
      config: { access: 'edit_projects', idempotent: true },
      preValidation: rejectReadOnly({ patch: false }),
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
      const input = request.body as ProjectInput & { client_id: string; name: string };
      const item = await createProject(requestDb(request), principalOf(request), input, app.config.clock());
      const body = present(item);
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
      config: { access: 'authenticated', idempotent: true },
      preValidation: rejectReadOnly({ patch: true }),
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
      const { id } = request.params as Static<typeof IdParams>;
      const item = await updateProject(requestDb(request), principalOf(request), id, request.body as ProjectInput, {
        now: app.config.clock(),
        precondition: ifMatch(request, false),
      });
      const body = present(item);
      reply.header('ETag', etagOf(body));
      return body;
    },
  );

  app.delete(
    '/api/v2/projects/:id',
    {
      config: { access: 'administrator' },
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
      const { id } = request.params as Static<typeof IdParams>;
      await deleteProject(app.db, principalOf(request), id, { now: app.config.clock(), precondition: ifMatch(request, true) });
      return reply.code(204).send();
    },
  );
}
