import { Type, type Static } from '@sinclair/typebox';
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { Principal } from '../../../auth/principal.ts';
import { ApiError, badRequest, forbidden } from '../../../errors.ts';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { principalOf } from '../../../http/security.ts';
import { plainJsonSerializer } from '../../../http/serializers.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { IdParams, type TypedApp, UpdatedSince, updatedSinceOf } from '../../../http/route-kit.ts';
import { isId } from '../../../ids.ts';
import { FormatQuery, fileResponse, sendExport } from '../../../http/exports.ts';
import { exportEntries } from './export.ts';
import { presentEntry } from './presenter.ts';
import type { EntryFilter } from './queries.ts';
import { CreateBody, Id, PATCH_WRITABLE, PatchBody, RestartBody, StopBody, TimeEntrySchema, TimeSourceSchema } from './schemas.ts';
import { createEntry, deleteEntry, getEntry, listEntries, removeExternalReference, restartEntry, stopEntry, updateEntry } from './service.ts';

// ---- schemas ----

/** The list's filters, which its export shares. */
const LIST_FILTERS = {
    source: Type.Optional(TimeSourceSchema('Only entries from this source.')),
    project_id: Type.Optional(Id('Only entries on this project.')),
    task_id: Type.Optional(Id('Only entries on this task.')),
    task: Type.Optional(Id('Alias of task_id; when both are sent they must match.')),
    user_id: Type.Optional(Id("Only this person's entries.")),
    client_id: Type.Optional(Id("Only entries on this client's projects.")),
    from: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD, inclusive.' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD, inclusive; not before from.' })),
    is_billed: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    is_running: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    updated_since: UpdatedSince('entries updated at or after it.'),
    external_reference_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'With external_reference_service.' })),
    external_reference_service: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'With external_reference_id.' })),
};
const ListQuery = Type.Object({ ...LIST_FILTERS, ...PageQuery }, { additionalProperties: false });
/** The export: every page of the list's filters, as a file. */
const ExportQuery = Type.Object({ format: FormatQuery, ...LIST_FILTERS }, { additionalProperties: false });
type ListQueryT = Static<typeof ListQuery>;

/** The filters a personal sync key may use (the spec's list); anything else is a 400. */
const PERSONAL_FILTERS = new Set(['client_id', 'user_id', 'task_id', 'task', 'from', 'to', 'updated_since', 'page', 'per_page']);

// ---- request shaping ----

/** PATCH: the fields that are not writable get a 400 that says why; an empty body lists what is. */
const FORBIDDEN_PATCH_FIELDS: Record<string, string> = {
  source: 'source cannot change after the entry is created.',
  is_billed: 'is_billed is owned by the server (invoices set it); it cannot be set.',
  is_running: 'is_running cannot be set: stop a timer with PATCH /api/v2/time_entries/{id}/stop and restart it with .../restart.',
  user_id: "An entry's person cannot change; delete it and create one for the other person.",
  replace_running: 'replace_running belongs to creating a timer or restarting one.',
};

const rejectPatchFields: preValidationAsyncHookHandler = async (request) => {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  for (const [field, message] of Object.entries(FORBIDDEN_PATCH_FIELDS)) {
    if (Object.hasOwn(body, field)) throw badRequest(message, { field });
  }
  if (Object.keys(body).length === 0) throw badRequest(`Send at least one writable field: ${PATCH_WRITABLE.join(', ')}.`);
};

/** Stop: no body, `{}` or `{notes}`; a client trying to stop by sending hours or times is told how it works. */
const STOP_REFUSED = ['hours', 'ended_time', 'is_running', 'started_time', 'spent_date'];
const shapeStopBody: preValidationAsyncHookHandler = async (request) => {
  if (request.body === undefined || request.body === null) request.body = {};
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  for (const field of STOP_REFUSED) {
    if (Object.hasOwn(body, field)) {
      throw badRequest(
        `Do not send ${field} to stop a timer: the server measures the elapsed time. Send an empty body, or only notes.`,
        { field },
      );
    }
  }
};
const emptyBodyIsObject: preValidationAsyncHookHandler = async (request) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

function listFilter(p: Principal, query: Omit<ListQueryT, 'page' | 'per_page'>, rawKeys: string[]): EntryFilter {
  if (p.kind === 'personal') {
    const refused = rawKeys.find((k) => !PERSONAL_FILTERS.has(k));
    if (refused) {
      throw new ApiError('unknown_field', `A personal sync key cannot filter by '${refused}'.`, { field: refused });
    }
  }
  const id = (field: 'project_id' | 'task_id' | 'task' | 'user_id' | 'client_id') => {
    const value = query[field];
    if (value === undefined) return undefined;
    if (!isId(value)) throw badRequest(`${field} must be an id.`, { field });
    return value.toLowerCase();
  };
  const taskId = id('task_id');
  const taskAlias = id('task');
  if (taskId !== undefined && taskAlias !== undefined && taskId !== taskAlias) {
    throw badRequest('task and task_id name different tasks; send one, or the same id in both.', { field: 'task' });
  }
  const userId = id('user_id');
  if (p.kind === 'personal' && userId !== undefined && userId !== p.userId) {
    throw forbidden("A personal sync key reads only its owner's time entries.");
  }
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
    throw badRequest('from must be on or before to.', { field: 'from' });
  }
  const refId = query.external_reference_id;
  const refService = query.external_reference_service;
  if ((refId === undefined) !== (refService === undefined)) {
    throw badRequest('external_reference_id and external_reference_service go together.', {
      field: refId === undefined ? 'external_reference_id' : 'external_reference_service',
    });
  }
  for (const field of ['external_reference_id', 'external_reference_service'] as const) {
    if (query[field] !== undefined && query[field]!.trim() === '') throw badRequest(`${field} cannot be blank.`, { field });
  }
  return {
    userId: p.kind === 'personal' ? p.userId : userId,
    projectId: id('project_id'),
    taskId: taskId ?? taskAlias,
    clientId: id('client_id'),
    from: query.from,
    to: query.to,
    isBilled: query.is_billed === undefined ? undefined : query.is_billed === 'true',
    isRunning: query.is_running === undefined ? undefined : query.is_running === 'true',
    source: query.source,
    updatedSince: updatedSinceOf(query.updated_since),
    externalReference: refId !== undefined ? { id: refId, service: refService! } : undefined,
  };
}

const rawQueryKeys = (request: FastifyRequest) => {
  const search = request.url.split('?')[1] ?? '';
  return [...new URLSearchParams(search).keys()];
};

// ---- routes ----

export async function timeEntriesRoutes(app: TypedApp) {
  // PATCH .../stop and .../restart exist.
  app.features.add('timer-stop', 'timer-restart');

  const Item = { 200: TimeEntrySchema, ...ErrorResponses };
  const tags = ['time entries'];

  app.get(
    '/api/v2/time_entries',
    {
      config: { access: 'authenticated' },
      // Up to 2,000 entries, each built exactly by presentEntry.
      serializerCompiler: plainJsonSerializer,
      schema: {
        tags,
        summary: 'List time entries',
        description:
          "The entries the caller may see: administrators everyone's; managers their own, their teammates' and those on projects they manage; everyone else their own. Newest work first (spent_date, then created_at, then id, all descending). A personal sync key sees only its owner's entries with the fields every credential sees, and may filter only by client_id, user_id (its owner's id; another is 403), task_id, task, from, to, updated_since, page and per_page.",
        querystring: ListQuery,
        response: { 200: Type.Object({ time_entries: Type.Array(TimeEntrySchema), ...EnvelopeSchema }), ...ErrorResponses },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const query = request.query;
      const filter = listFilter(p, query, rawQueryKeys(request));
      const page = pageParams(query);
      const result = await listEntries(app.db, p, filter, page, app.config.clock());
      return { time_entries: result.rows.map((row) => presentEntry(row, result.present)), ...pageEnvelope(request, page, result.total) };
    },
  );

  app.get(
    '/api/v2/time_entries/export',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Export time entries as CSV or XLSX',
        description:
          "Every entry GET /api/v2/time_entries gives the caller with the same filters (all pages, the same order and visibility, the same 400s), as a streamed file named in Content-Disposition. Columns: Date, Person, Client, Project, Task, Notes, Hours, Rounded hours, Billable, Billed, Approval, Running, then for callers who may see billable rates Currency, Billable rate and Billable amount (rounded hours × the entry's stored rate, to cents), and Entry ID. Hours and money are exact decimals: text in CSV, numbers in XLSX; a running timer's hours run to the export's start. Not for personal sync keys.",
        querystring: ExportQuery,
        response: fileResponse('The entries as a file (streamed), named in Content-Disposition.'),
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      const { format, ...query } = request.query;
      const filter = listFilter(p, query, rawQueryKeys(request));
      return sendExport(reply, await exportEntries(app.db, p, filter, format, app.config.clock()));
    },
  );

  app.get(
    '/api/v2/time_entries/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Get a time entry',
        description: 'One entry the caller may see (404 otherwise).',
        params: IdParams,
        response: Item,
      },
    },
    async (request) => {
      const { id } = request.params;
      const result = await getEntry(app.db, principalOf(request), id, app.config.clock());
      return presentEntry(result.row, result.present);
    },
  );

  app.post(
    '/api/v2/time_entries',
    {
      config: { access: 'authenticated', idempotent: true },
      schema: {
        tags,
        summary: 'Create a time entry or start a timer',
        description:
          "A completed entry (hours, or started_time and ended_time) or a running timer (is_running: true). The project must be active and the person actively assigned to it (owners and administrators: any project), the task actively assigned to it. A timer cannot start in the future; one that started in the past needs the workspace setting allow_past_timer_starts. Another running timer of the person gives 409 running_timer_conflict unless replace_running is true. Time in a week with approved time gives 409 approved_timesheet_week_locked. Returns 201 with Location.",
        body: CreateBody,
        response: { 201: { ...TimeEntrySchema, headers: { Location: { type: 'string' } } }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const result = await createEntry(requestDb(request), principalOf(request), request.body, app.config.clock());
      return reply
        .code(201)
        .header('Location', `/api/v2/time_entries/${result.row.id}`)
        .send(presentEntry(result.row, result.present));
    },
  );

  app.patch(
    '/api/v2/time_entries/:id',
    {
      config: { access: 'authenticated', idempotent: true },
      preValidation: rejectPatchFields,
      schema: {
        tags,
        summary: 'Update a time entry',
        description:
          'Writable: project_id, task_id, spent_date, hours, started_time, ended_time, notes, billable, metadata, external_reference. source, is_billed, is_running and user_id are refused (400). A week with approved time, the approved entries included, is 409 approved_timesheet_week_locked; a billed entry 409 time_entry_locked. A running timer changes its date and duration only by stopping.',
        params: IdParams,
        body: PatchBody,
        response: Item,
      },
    },
    async (request) => {
      const { id } = request.params;
      const result = await updateEntry(requestDb(request), principalOf(request), id, request.body, app.config.clock());
      return presentEntry(result.row, result.present);
    },
  );

  app.delete(
    '/api/v2/time_entries/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Delete a time entry',
        description: 'Returns 204. Approved entries and entries in a week with approved time (409 approved_timesheet_week_locked) and billed entries (409 time_entry_locked) cannot be deleted.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await deleteEntry(app.db, principalOf(request), id);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/v2/time_entries/:id/external_reference',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: "Remove a time entry's external reference",
        description: 'Returns 204 (also when none is stored). Locked entries cannot be changed (409).',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Removed.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await removeExternalReference(app.db, principalOf(request), id, app.config.clock());
      return reply.code(204).send(null);
    },
  );

  // Stop and restart accept no body at all, an empty body (whatever its type, json-body.ts), or a JSON object.
  app.patch(
    '/api/v2/time_entries/:id/stop',
    {
      config: { access: 'authenticated', idempotent: true },
      preValidation: shapeStopBody,
      schema: {
        tags,
        summary: 'Stop a running timer',
        description:
          'No body, an empty object, or only notes (which replace the notes). The server measures the elapsed time and sets ended_time. Do not send hours, ended_time or is_running (400). A stopped entry gives 409 timer_not_running.',
        params: IdParams,
        body: StopBody,
        response: Item,
      },
    },
    async (request) => {
      const { id } = request.params;
      const result = await stopEntry(requestDb(request), principalOf(request), id, request.body, app.config.clock());
      return presentEntry(result.row, result.present);
    },
  );

  app.patch(
    '/api/v2/time_entries/:id/restart',
    {
      config: { access: 'authenticated', idempotent: true },
      preValidation: emptyBodyIsObject,
      schema: {
        tags,
        summary: 'Restart a stopped time entry',
        description:
          "The entry runs again from now and keeps its time so far. Another running timer of the person gives 409 running_timer_conflict with running_entry unless replace_running is true. A running entry gives 409 timer_already_running; an approved one, or one in a week with approved time, 409 approved_timesheet_week_locked; a billed one 409 time_entry_locked.",
        params: IdParams,
        body: RestartBody,
        response: Item,
      },
    },
    async (request) => {
      const { id } = request.params;
      const result = await restartEntry(requestDb(request), principalOf(request), id, request.body, app.config.clock());
      return presentEntry(result.row, result.present);
    },
  );
}
