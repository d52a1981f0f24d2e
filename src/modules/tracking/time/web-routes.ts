import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../../auth/principal.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { ApiError, badRequest } from '../../../errors.ts';
import { etagOf, matchesIfNoneMatch } from '../../../http/etag.ts';
import { Enum, ErrorResponses, OrNull } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { isWorkDate, todayIn } from '../../../time/workspace-time.ts';
import { presentEntry, type EntryRow, type PresentContext } from './presenter.ts';
import { listEntries, loadTimeSettings } from './queries.ts';
import { TimeEntrySchema } from './routes.ts';
import { NOTES_MAX, checkNotes, isRuleError, weekEndOf, weekStartOf } from './rules.ts';
import { editableEntryId, presentOf } from './service.ts';
import { sheetPerson } from '../week/person.ts';
import { choicesFor, privateNotesOf, projectNames, recentPairs, writePrivateNotes } from './web-queries.ts';

/** How many recently used project-task pairs the timer's answer carries (the type-aheads offer them first). */
const RECENT_PAIRS = 10;

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

const EtagHeader = { ETag: { type: 'string', description: 'Strong ETag of this body.' } };

const IdParams = Type.Object({ id: Type.String() }, { additionalProperties: false });
const PrivateNotes = Type.Object({ id: Type.String(), private_notes: OrNull(Type.String()) }, { additionalProperties: false });
const PrivateNotesBody = Type.Object(
  { private_notes: OrNull(Type.String({ maxLength: NOTES_MAX, description: 'Blank or null clears them.' })) },
  { additionalProperties: false },
);

/** The most entries one person has in a week that the sheet shows (the API's page maximum). */
const SHEET_MAX = 2000;

/**
 * Entries as the web app shows them: the API's presentation plus project and client
 * names and, only for the caller's own entries (which the caller may always edit),
 * the private notes.
 */
async function decorate(trx: Tx, p: Principal, rows: EntryRow[], present: PresentContext) {
  const names = await projectNames(trx, p.companyId, [...new Set(rows.map((r) => r.project_id))]);
  const own = rows.filter((r) => r.user_id === p.userId).map((r) => r.id);
  const notes = await privateNotesOf(trx, p.companyId, own);
  return rows.map((row) => {
    const where = names.get(row.project_id)!;
    const presented = presentEntry(row, present);
    // The stored seconds of a running entry are its earlier runs (the presenter adds the current one).
    const earlier = row.timer_started_at ? row.duration_seconds : presented.duration_seconds;
    return { ...presented, project: where.project, client: where.client, private_notes: notes.get(row.id) ?? null, earlier_seconds: earlier };
  });
}

export async function timeWebRoutes(app: FastifyInstance) {
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
    async (request) => {
      const p = principalOf(request);
      const { date, user_id } = request.query as Static<typeof SheetQuery>;
      if (date !== undefined && !isWorkDate(date)) throw badRequest('date must be a date between 1900 and 2999.', { field: 'date' });
      const now = app.config.clock();
      return withTenant(app.db, p.companyId, async (trx) => {
        const user = await sheetPerson(trx, p, user_id);
        const settings = await loadTimeSettings(trx, p.companyId);
        const today = todayIn(settings.timezone, now);
        const from = weekStartOf(date ?? today, settings.week_start);
        const to = weekEndOf(from);
        const { rows } = await listEntries(trx, p.companyId, p, { userId: user.id, from, to }, { page: 1, perPage: SHEET_MAX });
        const entries = await decorate(trx, p, rows, presentOf(p, settings, now));
        return { from, to, today, settings, user, entries };
      });
    },
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
    async (request) => {
      const p = principalOf(request);
      return withTenant(app.db, p.companyId, async (trx) => {
        const settings = await loadTimeSettings(trx, p.companyId);
        const { rows } = await listEntries(trx, p.companyId, p, { userId: p.userId, isRunning: true }, { page: 1, perPage: 1 });
        const [running] = await decorate(trx, p, rows, presentOf(p, settings, app.config.clock()));
        return { running: running ?? null, recent: await recentPairs(trx, p, RECENT_PAIRS) };
      });
    },
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
      const p = principalOf(request);
      const body = { choices: await withTenant(app.db, p.companyId, (trx) => choicesFor(trx, p)) };
      const etag = etagOf(body);
      reply.header('ETag', etag);
      if (matchesIfNoneMatch(request, etag)) return reply.code(304).send();
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
    async (request) => {
      const p = principalOf(request);
      const { id } = request.params as Static<typeof IdParams>;
      return withTenant(app.db, p.companyId, async (trx) => {
        const entryId = await editableEntryId(trx, p, id);
        const notes = await privateNotesOf(trx, p.companyId, [entryId]);
        return { id: entryId, private_notes: notes.get(entryId) ?? null };
      });
    },
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
    async (request) => {
      const p = principalOf(request);
      const { id } = request.params as Static<typeof IdParams>;
      const checked = checkNotes((request.body as Static<typeof PrivateNotesBody>).private_notes);
      if (isRuleError(checked)) throw new ApiError('invalid_request', checked.message.replace(/^notes/, 'private_notes'), { field: 'private_notes' });
      return withTenant(app.db, p.companyId, async (trx) => {
        const entryId = await editableEntryId(trx, p, id);
        await writePrivateNotes(trx, p.companyId, entryId, checked);
        return { id: entryId, private_notes: checked };
      });
    },
  );
}
