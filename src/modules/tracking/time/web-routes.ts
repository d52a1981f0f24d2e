import { Type } from '@sinclair/typebox';
import { etagOf, matchesIfNoneMatch } from '../../../http/etag.ts';
import { EtagHeader, IdParams, readById, type TypedApp } from '../../../http/route-kit.ts';
import { Enum, ErrorResponses, OrNull } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { NOTES_MAX } from './rules.ts';
import { TimeEntrySchema } from './schemas.ts';
import { RECENT_PAIRS, getPrivateNotes, putPrivateNotes, runningTimer, timeChoices, timesheet } from './service.ts';

/**
 * The web app's time screens (issue 16): one request per screen (the week with its
 * entries, the workspace's week settings and the type-ahead's choices; the running
 * timer), and the private internal notes, which exist only here: no /api/v2 route,
 * report, backup or e-mail reads the column (docs/decisions.md, "Private notes").
 */

const ChoiceSchema = Type.Object(
  {
    project_id: Type.String(),
    project_name: Type.String(),
    project_code: OrNull(Type.String()),
    client_id: Type.String(),
    client_name: Type.String(),
    task_id: Type.String(),
    task_name: Type.String(),
    billable: Type.Boolean(),
  },
  { additionalProperties: false },
);

const WebEntrySchema = Type.Object(
  {
    ...TimeEntrySchema.properties,
    project: Type.Object({ id: Type.String(), name: Type.String(), code: OrNull(Type.String()) }, { additionalProperties: false }),
    client: Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }),
    private_notes: OrNull(Type.String({ description: 'Private internal notes: only here, for those who may edit the entry.' })),
    earlier_seconds: Type.Integer({
      minimum: 0,
      description:
        'A running timer\u2019s seconds before its current run (its earlier runs when restarted, else 0): the browser shows earlier_seconds + (now \u2212 timer_started_at), since duration_seconds already holds the run up to the answer. A stopped entry\u2019s duration_seconds.',
    }),
  },
  { additionalProperties: false },
);

const SheetQuery = Type.Object(
  {
    date: Type.Optional(Type.String({ format: 'date', description: 'A day of the week to show (default: today in the workspace time zone).' })),
    user_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'Whose week (default: the caller). Entries as GET /api/v2/time_entries?user_id= shows them to the caller; 403 for a caller who sees only their own time, 404 for someone not in the workspace.',
      }),
    ),
  },
  { additionalProperties: false },
);

const Sheet = Type.Object({
  from: Type.String({ description: 'The first day of the week (the workspace week_start).' }),
  to: Type.String(),
  today: Type.String({ description: 'Today in the workspace time zone.' }),
  settings: Type.Object({
    timezone: Type.String(),
    week_start: Enum(['monday', 'sunday', 'saturday']),
    rounding: Enum(['none', 'up', 'nearest', 'down']),
    rounding_minutes: Type.Integer(),
    allow_past_timer_starts: Type.Boolean(),
  }),
  user: Type.Object({ id: Type.String(), name: Type.String() }, { description: 'Whose week this is.' }),
  entries: Type.Array(WebEntrySchema),
});

const PairSchema = Type.Object({ project_id: Type.String(), task_id: Type.String() }, { additionalProperties: false });

const PrivateNotes = Type.Object({ id: Type.String(), private_notes: OrNull(Type.String()) }, { additionalProperties: false });
const PrivateNotesBody = Type.Object(
  { private_notes: OrNull(Type.String({ maxLength: NOTES_MAX, description: 'Blank or null clears them.' })) },
  { additionalProperties: false },
);

export async function timeWebRoutes(app: TypedApp) {
  const tags = ['web'];

  app.get(
    '/web/api/timesheet',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getTimesheet',
        summary: 'A week (the caller\u2019s, or a person\u2019s the caller may see): entries and week settings',
        description: 'The projects and tasks to record on come from GET /web/api/time_choices (cached: ETag and 304), not with every week.',
        querystring: SheetQuery,
        response: { 200: Sheet, ...ErrorResponses },
      },
    },
    async (request) => timesheet(app.db, principalOf(request), request.query, app.config.clock()),
  );

  app.get(
    '/web/api/timer',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getTimer',
        summary: 'The caller\u2019s running timer, with its project and client, and the project-task pairs they used last',
        response: {
          200: Type.Object({
            running: Type.Union([WebEntrySchema, Type.Null()]),
            recent: Type.Array(PairSchema, {
              description: `The caller\u2019s last ${RECENT_PAIRS} distinct project-task pairs, most recently used first (by the entries\u2019 day, then creation): the type-aheads offer them first.`,
            }),
          }),
          ...ErrorResponses,
        },
      },
    },
    async (request) => runningTimer(app.db, principalOf(request), app.config.clock()),
  );

  app.get(
    '/web/api/time_choices',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getTimeChoices',
        summary: 'The projects and tasks the caller may record time on',
        description:
          'With a strong `ETag` of the body; `If-None-Match` with the current tag answers 304 without a body, so the web app keeps its copy for as long as no project, task, client or assignment changed.',
        response: {
          200: { ...Type.Object({ choices: Type.Array(ChoiceSchema) }), headers: EtagHeader },
          304: Type.Null({ description: 'Not modified: the copy with this ETag is current.' }),
          ...ErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const body = await timeChoices(app.db, principalOf(request));
      const etag = etagOf(body);
      reply.header('ETag', etag);
      if (matchesIfNoneMatch(request, etag)) return reply.code(304).send(null);
      return body;
    },
  );

  app.get(
    '/web/api/time_entries/:id/private_notes',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getPrivateNotes',
        summary: 'A time entry\u2019s private internal notes',
        description: 'For those who may edit the entry (its person, administrators, their manager...); 404 or 403 as an edit would answer.',
        params: IdParams,
        response: { 200: PrivateNotes, ...ErrorResponses },
      },
    },
    readById(app, getPrivateNotes),
  );

  app.put(
    '/web/api/time_entries/:id/private_notes',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'putPrivateNotes',
        summary: 'Replace a time entry\u2019s private internal notes',
        description:
          'For those who may edit the entry. Allowed on approved and billed entries too: the notes are no part of what was approved or invoiced.',
        params: IdParams,
        body: PrivateNotesBody,
        response: { 200: PrivateNotes, ...ErrorResponses },
      },
    },
    async (request) => putPrivateNotes(app.db, principalOf(request), request.params.id, request.body.private_notes),
  );
}
