import { Type } from '@sinclair/typebox';
import { EnvelopeSchema, PageQuery } from '../../../http/pagination.ts';
import { plainJsonSerializer } from '../../../http/serializers.ts';
import { ErrorResponses, OrNull } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { IdParams, readById, type TypedApp } from '../../../http/route-kit.ts';
import { projectsPage } from './routes.ts';
import { ProjectListItemSchema } from './schemas.ts';
import { projectChoices, projectRateHistory } from './service.ts';

/**
 * The web app's project screens (issue 16 item 4): a searchable list (the API's
 * list has no search), what the forms pick from with what the caller may do, and
 * a project's rate history (the API shows only the rate in force today). Writes
 * go to /api/v2/projects and its task and user assignments. Session only.
 */

const tags = ['web'];

const ListQuery = Type.Object(
  {
    search: Type.Optional(Type.String({ maxLength: 255, description: 'Part of the name or code, ignoring case.' })),
    is_active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    client_id: Type.Optional(Type.String({ format: 'uuid' })),
    owner_id: Type.Optional(Type.String({ format: 'uuid' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

const ChoicesQuery = Type.Object(
  { project_id: Type.Optional(Type.String({ description: 'A project the caller sees: `may` then says what they may do to it (404 otherwise).' })) },
  { additionalProperties: false },
);

const MaySchema = Type.Object(
  {
    create: Type.Boolean({ description: 'Create projects.' }),
    see_rates: Type.Boolean({ description: 'See (and so set) hourly rates and fees.' }),
    set_commercial: Type.Boolean({ description: 'Set billing and budget properties.' }),
    see_internal_costs: Type.Boolean({ description: 'See and set the cost budget.' }),
    update: Type.Boolean({ description: 'Change, archive and restore this project, and manage its people (with project_id).' }),
    delete: Type.Boolean({ description: 'Delete archived projects.' }),
    edit_tasks: Type.Boolean({ description: "Add and change this project's task assignments." }),
  },
  { additionalProperties: false },
);

const ChoicesSchema = Type.Object(
  {
    today: Type.String({ format: 'date', description: 'Today in the workspace time zone (the default date a new rate takes effect).' }),
    currency: Type.String({ description: "The workspace's currency: what the form prices in until a client is picked." }),
    clients: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), currency: Type.String() }, { additionalProperties: false }), {
      description: 'Active clients the caller sees.',
    }),
    people: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          may_manage: Type.Boolean({ description: 'Whether the person can be made a project manager (the manager role).' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Active internal members: owners and project people.' },
    ),
    tasks: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), billable_by_default: Type.Boolean() }, { additionalProperties: false }), {
      description: 'Active tasks of the workspace.',
    }),
    may: MaySchema,
  },
  { additionalProperties: false },
);

const RateRow = Type.Object(
  {
    effective_from: OrNull(
      Type.String({ format: 'date', description: 'null: from the start (a rate given when the project or assignment was created prices all its work).' }),
    ),
    hourly_rate: Type.Number(),
  },
  { additionalProperties: false },
);

const RateHistorySchema = Type.Object(
  {
    currency: Type.String(),
    project: Type.Array(RateRow, { description: "The project's own rate (bill_by project), oldest first." }),
    tasks: Type.Array(
      Type.Object({ task_id: Type.String(), name: Type.String(), rates: Type.Array(RateRow) }, { additionalProperties: false }),
      { description: 'Task assignment rates (bill_by tasks), by task name.' },
    ),
    people: Type.Array(
      Type.Object({ user_id: Type.String(), name: Type.String(), rates: Type.Array(RateRow) }, { additionalProperties: false }),
      { description: "People's rates on the project (bill_by people), by name." },
    ),
  },
  { additionalProperties: false },
);

export async function projectsWebRoutes(app: TypedApp) {
  app.get(
    '/web/api/projects',
    {
      config: { access: 'authenticated', web: true },
      serializerCompiler: plainJsonSerializer,
      schema: {
        tags,
        operationId: 'searchProjects',
        summary: 'Search the projects the caller sees',
        description:
          "The API's project list (same items, same permission filtering, same order) with a `search` over name and code. One page at a time: the web app never loads every project.",
        querystring: ListQuery,
        response: { 200: Type.Object({ projects: Type.Array(ProjectListItemSchema), ...EnvelopeSchema }), ...ErrorResponses },
      },
    },
    async (request) => projectsPage(app, request, request.query),
  );

  app.get(
    '/web/api/project_choices',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getProjectChoices',
        summary: 'What the project forms pick from, and what the caller may do',
        description:
          'Active clients, people and tasks, today in the workspace zone, and the caller\'s permissions (asked of the same rules the API applies). With `project_id`, `update` and `edit_tasks` are for that project (404 when the caller does not see it).',
        querystring: ChoicesQuery,
        response: { 200: ChoicesSchema, ...ErrorResponses },
      },
    },
    async (request) => projectChoices(app.db, principalOf(request), request.query.project_id, app.config.clock()),
  );

  app.get(
    '/web/api/projects/:id/rate_history',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getProjectRateHistory',
        summary: "A project's billable rates over time",
        description:
          "Every billable rate of the project, its task assignments and its people, each with the date it took effect (a rate applies until the next; work dated earlier keeps its rate). Only for callers who may see billable rates (403); a project the caller does not see, or of another workspace, is 404.",
        params: IdParams,
        response: { 200: RateHistorySchema, ...ErrorResponses },
      },
    },
    readById(app, projectRateHistory),
  );
}
