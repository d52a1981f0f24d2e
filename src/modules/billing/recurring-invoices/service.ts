import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { isAdmin } from '../../../access/policy.ts';
import { auditActor } from '../../../access/operator.ts';
import type { DB } from '../../../db/types.ts';
import { insertRow, updateRow } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../../errors.ts';
import { isId, newId } from '../../../ids.ts';
import { isWorkDate, todayIn } from '../../../time/workspace-time.ts';
import { audit } from '../../workspace/audit/index.ts';
import { NOTES_MAX, SUBJECT_MAX, optionalText, percentValue, previewInvoice, validateMessage, type CreateInput, type LineInput } from '../invoices/index.ts';
import { presentSchedule, type PresentedSchedule } from './presenter.ts';
import {
  findClientRow,
  findSchedule,
  lastOccurrenceDate,
  listSchedules as listScheduleRows,
  occurrencesOf,
  projectsByIds,
  type ScheduleRow,
} from './queries.ts';
import { anchorDayFits, occurrenceOnOrAfter, type Action, type Calendar, type Frequency, type Source } from './rules.ts';
import type { ScheduleCreateInput, SchedulePatchInput } from './schemas.ts';

/**
 * Recurring invoice schedules: create, change, pause, resume and delete them
 * (the occurrences themselves are the scheduler's, scheduler.ts). Owners and
 * administrators only: the scheduler creates each invoice with a workspace-wide
 * reach (every project of the client), which a manager's own reach could not
 * promise when the invoice is made months later.
 */

/** How many occurrences of each schedule the list shows (the schedule itself shows all). */
export const LISTED_OCCURRENCES = 12;

export function assertMayManageRecurring(p: Principal) {
  if (!(isAdmin(p) && p.kind !== 'personal')) throw forbidden('Recurring invoices are for owners and administrators.');
}

/** What a schedule is, as its columns hold it. */
interface ScheduleState {
  client_id: string;
  frequency: Frequency;
  anchor_day: number;
  start_date: string;
  end_date: string | null;
  source: Source;
  line_items: LineInput[];
  project_ids: string[];
  time_summary: 'project' | 'task' | 'people' | 'detailed' | null;
  expense_summary: 'project' | 'category' | 'people' | 'detailed' | null;
  action: Action;
  recipients: Array<{ email: string; name?: string | null }>;
  subject: string | null;
  notes: string | null;
  tax: string | null;
  tax2: string | null;
  discount: string | null;
  is_paused: boolean;
}

const CALENDAR_FIELDS = ['frequency', 'anchor_day', 'start_date', 'end_date'] as const;

const stateOf = (row: ScheduleRow): ScheduleState => ({
  client_id: row.client_id,
  frequency: row.frequency,
  anchor_day: row.anchor_day,
  start_date: row.start_date,
  end_date: row.end_date,
  source: row.source,
  line_items: row.line_items as LineInput[],
  project_ids: row.project_ids,
  time_summary: row.time_summary,
  expense_summary: row.expense_summary,
  action: row.action,
  recipients: row.recipients,
  subject: row.subject,
  notes: row.notes,
  tax: row.tax,
  tax2: row.tax2,
  discount: row.discount,
  is_paused: row.is_paused,
});

const calendarOf = (s: Pick<ScheduleState, 'frequency' | 'anchor_day' | 'start_date' | 'end_date'>): Calendar => ({
  frequency: s.frequency,
  anchor_day: s.anchor_day,
  start_date: s.start_date,
  end_date: s.end_date,
});

const percentOrNull = (field: string, value: number | null | undefined, current: string | null) =>
  value === undefined ? current : value === null ? null : percentValue(field, value);

function dateValue(field: string, value: string): string {
  if (!isWorkDate(value)) throw badRequest(`${field} must be a date from 1900-01-01 to 2999-12-31.`, { field });
  return value;
}

/**
 * The state after `input`, checked without the database (400 naming the field).
 * Each source keeps only its own template: lines drop the projects, uninvoiced
 * work drops the lines.
 */
function merge(current: ScheduleState, input: SchedulePatchInput): ScheduleState {
  const next: ScheduleState = { ...current };
  for (const key of ['frequency', 'anchor_day', 'source', 'action', 'is_paused', 'time_summary', 'expense_summary'] as const) {
    if (input[key] !== undefined) (next as unknown as Record<string, unknown>)[key] = input[key];
  }
  if (input.start_date !== undefined) next.start_date = dateValue('start_date', input.start_date);
  if (input.end_date !== undefined) next.end_date = input.end_date === null ? null : dateValue('end_date', input.end_date);
  if (input.line_items !== undefined) next.line_items = input.line_items;
  if (input.project_ids !== undefined) next.project_ids = input.project_ids;
  if (input.recipients !== undefined) next.recipients = input.recipients;
  if (input.subject !== undefined) next.subject = optionalText('subject', input.subject, SUBJECT_MAX);
  if (input.notes !== undefined) next.notes = optionalText('notes', input.notes, NOTES_MAX);
  next.tax = percentOrNull('tax', input.tax, current.tax);
  next.tax2 = percentOrNull('tax2', input.tax2, current.tax2);
  next.discount = percentOrNull('discount', input.discount, current.discount);

  if (!anchorDayFits(next.frequency, next.anchor_day)) {
    const what = next.frequency === 'weekly' ? 'a weekday from 1 (Monday) to 7 (Sunday)' : 'a day of the month from 1 to 31';
    throw badRequest(`anchor_day must be ${what} for a ${next.frequency} schedule.`, { field: 'anchor_day' });
  }
  if (next.end_date !== null && next.end_date < next.start_date) {
    throw badRequest('end_date must be on or after start_date: the schedule would end before it starts.', { field: 'end_date' });
  }
  if (next.source === 'lines') {
    if (next.line_items.length === 0) throw badRequest('A schedule of template lines needs at least one line in line_items.', { field: 'line_items' });
    next.project_ids = [];
    next.time_summary = null;
    next.expense_summary = null;
  } else {
    if (next.time_summary === null && next.expense_summary === null) {
      throw badRequest('A schedule of uninvoiced work needs time_summary or expense_summary (or both).', { field: 'time_summary' });
    }
    if (next.project_ids.some((id) => !isId(id))) {
      const at = next.project_ids.findIndex((id) => !isId(id));
      throw new ApiError('not_found', `project_ids.${at}: the project was not found.`, { field: `project_ids.${at}` });
    }
    next.line_items = [];
  }
  if (next.action === 'send') {
    const checked = validateMessage({ recipients: next.recipients }).to;
    next.recipients = checked.map((r) => ({ email: r.email, name: r.name ?? null }));
  } else if (input.recipients !== undefined && input.recipients.length > 0) {
    next.recipients = validateMessage({ recipients: input.recipients }).to.map((r) => ({ email: r.email, name: r.name ?? null }));
  }
  return next;
}

/** The invoice body an occurrence of this schedule creates (dates and the import range added by the scheduler). */
export function invoiceBody(s: ScheduleState, period?: { start: string; end: string }): CreateInput {
  const percent = (v: string | null) => (v === null ? undefined : Number(v));
  const body: CreateInput = {
    client_id: s.client_id,
    subject: s.subject,
    notes: s.notes,
    tax: percent(s.tax),
    tax2: percent(s.tax2),
    discount: percent(s.discount),
  };
  for (const key of ['tax', 'tax2', 'discount'] as const) if (body[key] === undefined) delete body[key];
  if (s.source === 'lines') return { ...body, line_items: s.line_items };
  const range = period ? { from: period.start, to: period.end } : {};
  return {
    ...body,
    line_items_import: {
      ...(s.project_ids.length > 0 ? { project_ids: s.project_ids } : {}),
      ...(s.time_summary ? { time: { summary_type: s.time_summary, ...range } } : {}),
      ...(s.expense_summary ? { expenses: { summary_type: s.expense_summary, ...range } } : {}),
    },
  };
}

/**
 * The checks that need the database, before the write: template lines (and
 * taxes) go through the invoice create's own preview (rolled back: nothing is
 * made), so a schedule holds only lines an invoice accepts; uninvoiced work
 * needs an active client and projects of that client.
 */
async function checkAgainstInvoices(db: Kysely<DB>, p: Principal, s: ScheduleState, now: Date) {
  if (s.source === 'lines') {
    await previewInvoice(db, p, invoiceBody(s), now);
    return;
  }
  await withTenant(db, p.companyId, async (trx) => {
    const client = isId(s.client_id) ? await findClientRow(trx, p.companyId, s.client_id) : undefined;
    if (!client) throw new ApiError('not_found', 'The client was not found.', { field: 'client_id' });
    if (!client.is_active) throw badRequest('The client is archived; restore it before invoicing it.', { field: 'client_id' });
    const found = new Map((await projectsByIds(trx, p.companyId, s.project_ids)).map((r) => [r.id, r.client_id]));
    s.project_ids.forEach((id, i) => {
      const field = `project_ids.${i}`;
      if (!found.has(id)) throw new ApiError('not_found', `${field}: the project '${id}' was not found.`, { field });
      if (found.get(id) !== s.client_id) throw badRequest(`${field}: '${id}' is not a project of the schedule's client.`, { field });
    });
  });
}

const columnsOf = (s: ScheduleState) => ({
  ...s,
  line_items: JSON.stringify(s.line_items),
  project_ids: JSON.stringify(s.project_ids),
  recipients: JSON.stringify(s.recipients),
});

async function workspaceToday(trx: Tx, companyId: string, now: Date): Promise<string> {
  const w = await trx.selectFrom('companies').select('timezone').where('id', '=', companyId).executeTakeFirstOrThrow();
  return todayIn(w.timezone, now);
}

/**
 * The next occurrence a (re)started calendar makes: the first on or after
 * today, and after the last one made (an occurrence date is never made twice;
 * the unique key says so too). Past dates are not made up for: a new, changed
 * or resumed schedule starts from today.
 */
async function nextRunFrom(trx: Tx, companyId: string, id: string, s: ScheduleState, now: Date): Promise<string | null> {
  const today = await workspaceToday(trx, companyId, now);
  const last = await lastOccurrenceDate(trx, companyId, id);
  const from = last !== null && last >= today ? dayAfter(last) : today;
  return occurrenceOnOrAfter(calendarOf(s), from);
}

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

async function loadPresented(trx: Tx, companyId: string, id: string, perSchedule?: number): Promise<PresentedSchedule> {
  const row = await findSchedule(trx, companyId, id);
  if (!row) throw notFound('recurring invoice');
  return presentSchedule(row, await occurrencesOf(trx, companyId, [row.id], perSchedule));
}

// ---------------------------------------------------------------- read

export async function listSchedules(db: Kysely<DB>, p: Principal): Promise<PresentedSchedule[]> {
  assertMayManageRecurring(p);
  return withTenant(db, p.companyId, async (trx) => {
    const rows = await listScheduleRows(trx, p.companyId);
    const occurrences = await occurrencesOf(trx, p.companyId, rows.map((r) => r.id), LISTED_OCCURRENCES);
    return rows.map((r) => presentSchedule(r, occurrences.filter((o) => o.schedule_id === r.id)));
  });
}

export async function getSchedule(db: Kysely<DB>, p: Principal, id: string): Promise<PresentedSchedule> {
  assertMayManageRecurring(p);
  if (!isId(id)) throw notFound('recurring invoice');
  return withTenant(db, p.companyId, (trx) => loadPresented(trx, p.companyId, id));
}

// ---------------------------------------------------------------- write

const NEW_SCHEDULE: Omit<ScheduleState, 'client_id' | 'frequency' | 'anchor_day' | 'start_date' | 'source'> = {
  end_date: null,
  line_items: [],
  project_ids: [],
  time_summary: null,
  expense_summary: null,
  action: 'draft',
  recipients: [],
  subject: null,
  notes: null,
  tax: null,
  tax2: null,
  discount: null,
  is_paused: false,
};

export async function createSchedule(db: Kysely<DB>, p: Principal, input: ScheduleCreateInput, now: Date): Promise<PresentedSchedule> {
  assertMayManageRecurring(p);
  const { client_id, ...rest } = input;
  const state = merge({ ...NEW_SCHEDULE, client_id, frequency: input.frequency, anchor_day: input.anchor_day, start_date: input.start_date, source: input.source }, rest);
  await checkAgainstInvoices(db, p, state, now);
  return withTenant(db, p.companyId, async (trx) => {
    const id = newId(now.getTime());
    const nextRun = state.is_paused ? null : await nextRunFrom(trx, p.companyId, id, state, now);
    await insertRow(trx, 'recurring_invoice_schedules', p.companyId, id, { ...columnsOf(state), next_run_date: nextRun, created_by: p.kind === 'operator' ? null : p.userId }, now);
    await audit(trx, {
      ...auditActor(p),
      action: 'recurring_invoice.created',
      subjectType: 'recurring_invoice',
      subjectId: id,
      details: { client_id: state.client_id, frequency: state.frequency, source: state.source, action: state.action, next_run_date: nextRun },
    });
    return loadPresented(trx, p.companyId, id);
  });
}

/**
 * PATCH: the merged state is checked as a create is (the template against the
 * invoice rules first, outside the write's transaction), then written if the
 * schedule did not change meanwhile (409 otherwise). Changing the calendar or
 * resuming recomputes the next occurrence from today; pausing keeps it, so
 * nothing is made while paused.
 */
export async function updateSchedule(db: Kysely<DB>, p: Principal, id: string, input: SchedulePatchInput, now: Date): Promise<PresentedSchedule> {
  assertMayManageRecurring(p);
  if (!isId(id)) throw notFound('recurring invoice');
  const current = await withTenant(db, p.companyId, (trx) => findSchedule(trx, p.companyId, id));
  if (!current) throw notFound('recurring invoice');
  const before = stateOf(current);
  const next = merge(before, input);
  await checkAgainstInvoices(db, p, next, now);
  return withTenant(db, p.companyId, async (trx) => {
    const locked = await findSchedule(trx, p.companyId, id, { lock: true });
    if (!locked) throw notFound('recurring invoice');
    if (locked.updated_at.getTime() !== current.updated_at.getTime()) {
      throw conflict('The recurring invoice changed while this change was checked; load it again and repeat the change.');
    }
    const changes: Record<string, unknown> = {};
    const columns = columnsOf(next);
    const previous = columnsOf(before);
    for (const key of Object.keys(columns) as Array<keyof typeof columns>) {
      if (JSON.stringify(columns[key]) !== JSON.stringify(previous[key])) changes[key] = columns[key];
    }
    if (Object.keys(changes).length === 0) return loadPresented(trx, p.companyId, id);
    const recalendared = CALENDAR_FIELDS.some((f) => f in changes);
    const resumed = before.is_paused && !next.is_paused;
    if (!next.is_paused && (recalendared || resumed)) changes.next_run_date = await nextRunFrom(trx, p.companyId, id, next, now);
    else if (recalendared) changes.next_run_date = null; // paused: set on resume
    await updateRow(trx, 'recurring_invoice_schedules', p.companyId, id, changes, now);
    const action = resumed ? 'recurring_invoice.resumed' : !before.is_paused && next.is_paused ? 'recurring_invoice.paused' : 'recurring_invoice.updated';
    await audit(trx, { ...auditActor(p), action, subjectType: 'recurring_invoice', subjectId: id, details: { changes: Object.keys(changes) } });
    return loadPresented(trx, p.companyId, id);
  });
}

/** Deletes the schedule and its occurrence records; the invoices it made stay. */
export async function deleteSchedule(db: Kysely<DB>, p: Principal, id: string) {
  assertMayManageRecurring(p);
  if (!isId(id)) throw notFound('recurring invoice');
  await withTenant(db, p.companyId, async (trx) => {
    const row = await findSchedule(trx, p.companyId, id, { lock: true });
    if (!row) throw notFound('recurring invoice');
    await trx.deleteFrom('recurring_invoice_schedules').where('company_id', '=', p.companyId).where('id', '=', id).execute();
    await audit(trx, { ...auditActor(p), action: 'recurring_invoice.deleted', subjectType: 'recurring_invoice', subjectId: id, details: { client_id: row.client_id } });
  });
}

export { calendarOf, stateOf };
export type { ScheduleState };
