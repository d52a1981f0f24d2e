import { updateRow } from '../../../db/rows.ts';
import { sql, type Expression, type ExpressionBuilder, type InferResult, type Kysely, type RawBuilder } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { teammateOf } from '../../../access/teammates.ts';
import type { BudgetBy, DB, Role, TimeSource } from '../../../db/types.ts';
import { type TimeSettings, findRecord, listRecords, recordConditions, type RecordFilter, type RecordTable } from '../week/index.ts';
import type { Tx } from '../../../db/tenant.ts';
import type { PageParams } from '../../../http/pagination.ts';
import { isId } from '../../../ids.ts';

/** Every query takes the workspace id first and filters on it (row-level security is the second wall). */

const ENTRY_COLUMNS = [
  'te.id',
  'te.user_id',
  'te.project_id',
  'te.task_id',
  'te.spent_date',
  'te.duration_seconds',
  'te.hours_entered',
  'te.is_running',
  'te.timer_started_at',
  'te.started_time',
  'te.ended_time',
  'te.notes',
  'te.billable',
  'te.billable_rate',
  'te.source',
  'te.metadata',
  'te.external_reference',
  'te.approval_status',
  'te.is_billed',
  'te.created_at',
  'te.updated_at',
  't.name as task_name',
  'p.budget_by as project_budget_by',
] as const;

const TIME_ENTRIES: RecordTable = { table: 'time_entries', alias: 'te' };

function entrySelect(trx: Tx, companyId: string) {
  return trx
    .selectFrom('time_entries as te')
    .innerJoin('tasks as t', (j) => j.onRef('t.company_id', '=', 'te.company_id').onRef('t.id', '=', 'te.task_id'))
    .innerJoin('projects as p', (j) => j.onRef('p.company_id', '=', 'te.company_id').onRef('p.id', '=', 'te.project_id'))
    .select(ENTRY_COLUMNS)
    .where('te.company_id', '=', companyId);
}

/**
 * A time entry as the queries load it, with its task's name and its project's budget
 * setting. The external reference holds text fields only (checkExternalReference stores it).
 */
export type EntryRow = Omit<InferResult<ReturnType<typeof entrySelect>>[number], 'external_reference'> & {
  external_reference: Record<string, string> | null;
};

/**
 * One entry of the workspace, or undefined: when `visibleTo` is given, only if
 * that principal may see it. `lock` takes a row lock on the entry (not its task
 * or project).
 */
export function findEntry(trx: Tx, companyId: string, id: string, options: { visibleTo?: Principal; lock?: boolean } = {}) {
  return findRecord(entrySelect(trx, companyId), 'te', id, options) as Promise<EntryRow | undefined>;
}

export interface EntryFilter extends RecordFilter {
  taskId?: string;
  isRunning?: boolean;
  source?: TimeSource;
  externalReference?: { id: string; service: string };
}

/** The shared filters (recordConditions) and the ones only time entries have. */
function entryFilters(p: Principal, filter: EntryFilter) {
  return (eb: ExpressionBuilder<DB & { te: DB['time_entries'] }, 'te'>) => {
    const conditions = recordConditions(eb, 'te', p, filter);
    if (filter.taskId) conditions.push(eb('te.task_id', '=', filter.taskId));
    if (filter.isRunning !== undefined) conditions.push(eb('te.is_running', '=', filter.isRunning));
    if (filter.externalReference) {
      conditions.push(eb('te.external_reference_id', '=', filter.externalReference.id));
      conditions.push(eb('te.external_reference_service', '=', filter.externalReference.service));
    }
    return eb.and(conditions);
  };
}

/**
 * One page of the entries the principal may see, newest work first: spent_date
 * descending, then created_at descending, then id descending (ids are unique, so
 * the order is total and pages are stable; time_entries_list_order_idx gives it).
 * The total is counted on its own (fetchCountedPage).
 */
export function listEntries(trx: Tx, companyId: string, p: Principal, filter: EntryFilter, page: PageParams) {
  const select = entrySelect(trx, companyId);
  return listRecords(trx, companyId, TIME_ENTRIES, select, entryFilters(p, filter), page) as Promise<{ rows: EntryRow[]; total: number }>;
}

/**
 * Everything a create (or a change of project or task) checks, read in one
 * query: the workspace's time settings, the person's membership and whether
 * they are the caller's teammate, the project, the person's and the caller's
 * assignments to it, and the task with its assignment. Project and task columns
 * are null when there is no such project (or task) in the workspace.
 */
export interface WriteContext extends TimeSettings {
  person_role: Role | null;
  person_active: boolean | null;
  /** The person is assigned as a teammate to the caller (the caller is their manager). */
  person_is_teammate: boolean;
  project_id: string | null;
  project_active: boolean | null;
  project_billable: boolean | null;
  project_budget_by: BudgetBy | null;
  /** The person's own assignment to the project (null: none). */
  person_assignment_active: boolean | null;
  /** The caller's own assignment (null: none). */
  caller_assignment_active: boolean | null;
  caller_is_project_manager: boolean | null;
  /** The task's assignment to the project (null: none, or the task id is malformed or unknown). */
  task_assignment_active: boolean | null;
  task_assignment_billable: boolean | null;
  task_active: boolean | null;
  task_name: string | null;
}

const uuidOrNull = (id: string | undefined): RawBuilder<string | null> => sql`${id !== undefined && isId(id) ? id : null}::uuid`;

/**
 * The context query (see WriteContext) for ids that are values or SQL (the create
 * statement binds them later: create-statement.ts). Malformed ids must already be null.
 */
export function writeContextQuery(
  trx: Kysely<DB>,
  companyId: Operand,
  ids: { projectId: Operand; taskId: Operand; personId: Operand; callerId: Operand },
) {
  const { projectId, taskId, personId, callerId } = ids;
  return trx
    .selectFrom('companies as c')
    .leftJoin('memberships as m', (j) => j.onRef('m.company_id', '=', 'c.id').on('m.user_id', '=', personId))
    .leftJoin('projects as p', (j) => j.onRef('p.company_id', '=', 'c.id').on('p.id', '=', projectId))
    .leftJoin('project_user_assignments as person', (j) =>
      j.onRef('person.company_id', '=', 'p.company_id').onRef('person.project_id', '=', 'p.id').on('person.user_id', '=', personId),
    )
    .leftJoin('project_user_assignments as caller', (j) =>
      j.onRef('caller.company_id', '=', 'p.company_id').onRef('caller.project_id', '=', 'p.id').on('caller.user_id', '=', callerId),
    )
    .leftJoin('project_task_assignments as pta', (j) =>
      j.onRef('pta.company_id', '=', 'p.company_id').onRef('pta.project_id', '=', 'p.id').on('pta.task_id', '=', taskId),
    )
    .leftJoin('tasks as t', (j) => j.onRef('t.company_id', '=', 'p.company_id').on('t.id', '=', taskId))
    .select((eb) => [
      'c.timezone',
      'c.week_start',
      'c.rounding',
      'c.rounding_minutes',
      'c.allow_past_timer_starts',
      'm.role as person_role',
      'm.is_active as person_active',
      teammateOf(eb, sql.ref('c.id'), callerId, personId).as('person_is_teammate'),
      'p.id as project_id',
      'p.is_active as project_active',
      'p.is_billable as project_billable',
      'p.budget_by as project_budget_by',
      'person.is_active as person_assignment_active',
      'caller.is_active as caller_assignment_active',
      'caller.is_project_manager as caller_is_project_manager',
      'pta.is_active as task_assignment_active',
      'pta.billable as task_assignment_billable',
      't.is_active as task_active',
      't.name as task_name',
    ])
    .where('c.id', '=', companyId);
}

/** A value, or SQL standing for one. */
type Operand = string | Expression<string | null>;

export async function loadWriteContext(
  trx: Tx,
  companyId: string,
  ids: { projectId: string; taskId: string; personId: string; callerId: string },
): Promise<WriteContext> {
  // No explicit row lock: the entry's foreign key already key-share-locks the
  // project, so a racing delete waits; an explicit FOR SHARE on one hot project
  // row would serialize every create on it through a MultiXact.
  const query = writeContextQuery(trx, companyId, {
    projectId: uuidOrNull(ids.projectId),
    taskId: uuidOrNull(ids.taskId),
    personId: uuidOrNull(ids.personId),
    callerId: ids.callerId,
  });
  return (await query.executeTakeFirstOrThrow()) as WriteContext;
}

/** Whether the caller actively manages a project (their assignment has is_project_manager). */
export async function callerAssignment(trx: Tx, companyId: string, projectId: string, userId: string) {
  return (
    (await trx
      .selectFrom('project_user_assignments')
      .select(['is_active', 'is_project_manager'])
      .where('company_id', '=', companyId)
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .executeTakeFirst()) ?? null
  );
}

/** A person's running timers (at most one, by the partial unique index), locked when asked. */
export async function runningEntries(trx: Tx, companyId: string, userId: string, { lock = false, exceptId }: { lock?: boolean; exceptId?: string } = {}) {
  let query = trx
    .selectFrom('time_entries')
    .select(['id', 'project_id', 'duration_seconds', 'timer_started_at', 'spent_date', 'started_time'])
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('is_running', '=', true);
  if (exceptId) query = query.where('id', '<>', exceptId);
  if (lock) query = query.forUpdate();
  return query.orderBy('timer_started_at').execute();
}

/**
 * The billable rate in force for the work, as SQL (null unless billable), so it is
 * read in the write itself.
 *
 * It is billable_rate() of migration 0002 written out (the project's bill_by picks
 * the project's, the task assignment's, or the person's rate on the project and
 * else their default rate; null for a project that is not billable), not a call
 * of it: PostgreSQL cannot inline that SQL function, so every INSERT planned its
 * body and the nested effective_rate() calls afresh (a third of the insert's
 * time), while this is planned once with the prepared statement and reads the
 * rates through rates_lookup_idx. A change to billable_rate() must change this too.
 */
export function billableRateSql(
  companyId: string,
  work: {
    billable: boolean | RawBuilder<boolean>;
    projectId: string | RawBuilder<string>;
    taskId: string | RawBuilder<string>;
    userId: string | RawBuilder<string>;
    date: string | RawBuilder<string>;
  },
) {
  // A value is a parameter; SQL (the import's columns of many rows) is used as it is.
  const value = (v: string | RawBuilder<string>, type: 'uuid' | 'date') => (typeof v === 'string' ? sql`${v}::${sql.raw(type)}` : v);
  const c = sql`${companyId}::uuid`;
  const project = value(work.projectId, 'uuid');
  const date = value(work.date, 'date');
  // effective_rate(company, 'billable', project, task, user, date) for non-null ids; null ones are `is null`.
  const rate = (scope: { project?: RawBuilder<unknown>; task?: RawBuilder<unknown>; user?: RawBuilder<unknown> }) => sql`(
    select r.hourly_rate from rates r
    where r.company_id = ${c} and r.kind = 'billable'
      and ${scope.project ? sql`r.project_id = ${scope.project}` : sql`r.project_id is null`}
      and ${scope.task ? sql`r.task_id = ${scope.task}` : sql`r.task_id is null`}
      and ${scope.user ? sql`r.user_id = ${scope.user}` : sql`r.user_id is null`}
      and r.effective_from <= ${date}
    order by r.effective_from desc
    limit 1)`;
  const task = value(work.taskId, 'uuid');
  const user = value(work.userId, 'uuid');
  return sql<string | null>`case when ${work.billable} then (
    select case p.bill_by
        when 'project' then ${rate({ project })}
        when 'tasks' then ${rate({ project, task })}
        when 'people' then coalesce(${rate({ project, user })}, ${rate({ user })})
      end
    from projects p
    where p.company_id = ${c} and p.id = ${project} and p.is_billable) end`;
}

export interface NewEntry {
  id: string;
  user_id: string;
  project_id: string;
  task_id: string;
  spent_date: string;
  duration_seconds: number;
  hours_entered: string | null;
  is_running: boolean;
  timer_started_at: Date | null;
  started_time: string | null;
  ended_time: string | null;
  notes: string | null;
  billable: boolean;
  source: TimeSource;
  metadata: string | null;
  external_reference: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** The stored columns of an entry as EntryRow has them (without its task's name and project's budget). */
export const STORED_COLUMNS = ENTRY_COLUMNS.filter((c) => c.startsWith('te.')).map((c) => c.slice(3)) as Array<
  'id' | 'user_id' | 'project_id' | 'task_id' | 'spent_date' | 'duration_seconds' | 'hours_entered' | 'is_running' | 'timer_started_at'
  | 'started_time' | 'ended_time' | 'notes' | 'billable' | 'billable_rate' | 'source' | 'metadata' | 'external_reference'
  | 'approval_status' | 'is_billed' | 'created_at' | 'updated_at'
>;

/** Inserts an entry (its billable_rate read in the same statement) and returns its stored columns. */
export async function insertEntry(trx: Tx, companyId: string, entry: NewEntry) {
  return trx
    .insertInto('time_entries')
    .values({
      company_id: companyId,
      ...entry,
      billable_rate: billableRateSql(companyId, {
        billable: entry.billable,
        projectId: entry.project_id,
        taskId: entry.task_id,
        userId: entry.user_id,
        date: entry.spent_date,
      }),
    })
    .returning(STORED_COLUMNS)
    .executeTakeFirstOrThrow() as Promise<Omit<EntryRow, 'task_name' | 'project_budget_by'>>;
}

/** The columns a change of an entry may set; billable_rate as SQL (billableRateSql), read in the write itself. */
export type EntryChanges = Partial<
  Omit<NewEntry, 'id' | 'user_id' | 'source' | 'created_by' | 'created_at' | 'updated_at'> & { billable_rate: RawBuilder<string | null> }
>;

export function updateEntryColumns(trx: Tx, companyId: string, id: string, changes: EntryChanges, now: Date) {
  return updateRow(trx, 'time_entries', companyId, id, changes, now);
}

export async function deleteEntryRow(trx: Tx, companyId: string, id: string) {
  await trx.deleteFrom('time_entries').where('company_id', '=', companyId).where('id', '=', id).execute();
}

/**
 * Where an export's batch starts: after this entry in the list's order. created_at is
 * the database's text of it (microseconds; a Date keeps only milliseconds, and a
 * keyset on it would skip entries created within the same millisecond).
 */
export interface ListPosition {
  spent_date: string;
  created_at: string;
  id: string;
}

/**
 * The export's rows (GET /api/v2/time_entries/export): the list's visibility and
 * filters (entryFilters) in the list's order, after `after`, joined to the names a
 * spreadsheet shows; the caller selects the columns. Keyset paging along
 * time_entries_list_order_idx, so every batch is an index range however deep into a
 * million entries it is, and the export never holds more than one batch.
 */
export function exportRows(trx: Tx, companyId: string, p: Principal, filter: EntryFilter, after: ListPosition | null) {
  let query = trx
    .selectFrom('time_entries as te')
    .innerJoin('tasks as t', (j) => j.onRef('t.company_id', '=', 'te.company_id').onRef('t.id', '=', 'te.task_id'))
    .innerJoin('projects as p', (j) => j.onRef('p.company_id', '=', 'te.company_id').onRef('p.id', '=', 'te.project_id'))
    .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 'p.company_id').onRef('c.id', '=', 'p.client_id'))
    .innerJoin('companies as co', 'co.id', 'te.company_id')
    .innerJoin('users as u', 'u.id', 'te.user_id')
    .where('te.company_id', '=', companyId)
    .where(entryFilters(p, filter));
  if (after) {
    query = query.where((eb) =>
      eb(
        eb.refTuple('te.spent_date', 'te.created_at', 'te.id'),
        '<',
        eb.tuple(sql<string>`${after.spent_date}::date`, sql<Date>`${after.created_at}::timestamptz`, sql<string>`${after.id}::uuid`),
      ),
    );
  }
  return query.orderBy('te.spent_date', 'desc').orderBy('te.created_at', 'desc').orderBy('te.id', 'desc');
}

/** An exported entry's currency over exportRows' joins: its client's, else the workspace's. */
export const exportCurrency = () => sql<string>`coalesce(c.currency, co.currency)`;

/** The rows exportRows gives, joined to the names a spreadsheet shows. */
export type ExportRows = ReturnType<typeof exportRows>;

/** Where the entry `id` stands in the list's order (the next batch starts after it); undefined when it is gone. */
export function listPositionOf(trx: Tx, companyId: string, id: string): Promise<ListPosition | undefined> {
  return trx
    .selectFrom('time_entries')
    .select(['id', sql<string>`spent_date::text`.as('spent_date'), sql<string>`created_at::text`.as('created_at')])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * The export's next batch as rows for the Node.js writer (export.ts): only the columns
 * the file has are read (no JSON columns to parse per row).
 */
export function exportBatch(trx: Tx, companyId: string, p: Principal, filter: EntryFilter, after: ListPosition | null, limit: number) {
  return exportRows(trx, companyId, p, filter, after)
    .select([
      'te.id',
      'te.spent_date',
      'te.duration_seconds',
      'te.hours_entered',
      'te.timer_started_at',
      'te.notes',
      'te.billable',
      'te.billable_rate',
      'te.is_billed',
      'te.approval_status',
      'te.is_running',
      't.name as task_name',
      'p.name as project_name',
      'c.name as client_name',
      'u.first_name',
      'u.last_name',
      exportCurrency().as('currency'),
      sql<string>`te.created_at::text`.as('created_key'),
    ])
    .limit(limit)
    .execute();
}
