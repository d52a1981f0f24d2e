import { sql, type InferResult, type Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';
import type { Tx } from '../../../db/tenant.ts';

/** The schedules' and occurrences' SQL; every function takes the workspace id first (but the scheduler's scan, across workspaces). */

const scheduleSelect = (trx: Tx, companyId: string) =>
  trx
    .selectFrom('recurring_invoice_schedules as s')
    .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 's.company_id').onRef('c.id', '=', 's.client_id'))
    .selectAll('s')
    .select(['c.name as client_name'])
    .where('s.company_id', '=', companyId);

export type ScheduleRow = InferResult<ReturnType<typeof scheduleSelect>>[number];

export function findSchedule(trx: Tx, companyId: string, id: string, { lock = false, skipLocked = false } = {}) {
  let query = scheduleSelect(trx, companyId).where('s.id', '=', id);
  if (lock) query = query.forUpdate('s');
  if (skipLocked) query = query.skipLocked();
  return query.executeTakeFirst();
}

export function listSchedules(trx: Tx, companyId: string) {
  return scheduleSelect(trx, companyId).orderBy('c.name').orderBy('s.created_at').orderBy('s.id').execute();
}

const occurrenceSelect = (trx: Tx, companyId: string) =>
  trx
    .selectFrom('recurring_invoice_occurrences as o')
    .leftJoin('invoices as i', (j) => j.onRef('i.company_id', '=', 'o.company_id').onRef('i.id', '=', 'o.invoice_id'))
    .select([
      'o.id',
      'o.schedule_id',
      'o.occurrence_date',
      'o.period_start',
      'o.period_end',
      'o.outcome',
      'o.note',
      'o.invoice_id',
      'o.created_at',
      'i.number as invoice_number',
      'i.state as invoice_state',
    ])
    .where('o.company_id', '=', companyId);

export type OccurrenceRow = InferResult<ReturnType<typeof occurrenceSelect>>[number];

/** The occurrences of the schedules, newest first; at most `perSchedule` of each when given. */
export async function occurrencesOf(trx: Tx, companyId: string, scheduleIds: string[], perSchedule?: number): Promise<OccurrenceRow[]> {
  if (scheduleIds.length === 0) return [];
  const ranked = occurrenceSelect(trx, companyId)
    .where('o.schedule_id', 'in', scheduleIds)
    .select(sql<number>`row_number() over (partition by o.schedule_id order by o.occurrence_date desc)`.as('rank'));
  const rows = await trx
    .selectFrom(ranked.as('r'))
    .selectAll('r')
    .$if(perSchedule !== undefined, (q) => q.where('r.rank', '<=', perSchedule!))
    .orderBy('r.occurrence_date', 'desc')
    .execute();
  return rows;
}

/** The last occurrence date made for a schedule (null before the first). */
export async function lastOccurrenceDate(trx: Tx, companyId: string, scheduleId: string): Promise<string | null> {
  const row = await trx
    .selectFrom('recurring_invoice_occurrences')
    .select((eb) => eb.fn.max('occurrence_date').as('last'))
    .where('company_id', '=', companyId)
    .where('schedule_id', '=', scheduleId)
    .executeTakeFirst();
  return row?.last ?? null;
}

export interface NewOccurrence {
  id: string;
  scheduleId: string;
  date: string;
  period: { start: string; end: string };
  invoiceId: string | null;
  outcome: 'drafted' | 'sent' | 'skipped';
  note: string | null;
}

/** Records an occurrence; false when one for that date exists already (the unique key), which then is left as it is. */
export async function insertOccurrence(trx: Tx, companyId: string, o: NewOccurrence, now: Date): Promise<boolean> {
  const result = await trx
    .insertInto('recurring_invoice_occurrences')
    .values({
      company_id: companyId,
      id: o.id,
      schedule_id: o.scheduleId,
      occurrence_date: o.date,
      period_start: o.period.start,
      period_end: o.period.end,
      invoice_id: o.invoiceId,
      outcome: o.outcome,
      note: o.note,
      created_at: now,
    })
    .onConflict((c) => c.columns(['company_id', 'schedule_id', 'occurrence_date']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return result !== undefined;
}

/** The projects of the workspace among `ids`, with their client: a schedule's `project_ids` are checked against them. */
export function projectsByIds(trx: Tx, companyId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return trx.selectFrom('projects').select(['id', 'client_id']).where('company_id', '=', companyId).where('id', 'in', ids).execute();
}

export function findClientRow(trx: Tx, companyId: string, id: string) {
  return trx.selectFrom('clients').select(['id', 'name', 'is_active']).where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
}

/** Who made a schedule, when they are still a member (users are visible through a membership). */
export function findCreator(trx: Tx, userId: string) {
  return trx.selectFrom('users').select(['id', 'email', 'first_name', 'last_name']).where('id', '=', userId).executeTakeFirst();
}

export interface DueCandidate {
  company_id: string;
  id: string;
  timezone: string;
}

/**
 * The scheduler's scan, across workspaces (as the database owner, like the
 * outbox worker): running schedules whose next date has come in their
 * workspace's time zone, in key order after `after`. Only candidates: each is
 * claimed (and re-checked) in its own transaction.
 */
export function dueCandidates(db: Kysely<DB>, now: Date, limit: number, after: { company_id: string; id: string } | null, workspaceId?: string) {
  return db
    .selectFrom('recurring_invoice_schedules as s')
    .innerJoin('companies as w', 'w.id', 's.company_id')
    .select(['s.company_id', 's.id', 'w.timezone'])
    .where('s.is_paused', '=', false)
    .where('s.next_run_date', 'is not', null)
    .where(sql<boolean>`s.next_run_date <= (${now}::timestamptz at time zone w.timezone)::date`)
    .$if(after !== null, (q) => q.where(sql<boolean>`(s.company_id, s.id) > (${after!.company_id}::uuid, ${after!.id}::uuid)`))
    .$if(workspaceId !== undefined, (q) => q.where('s.company_id', '=', workspaceId!))
    .orderBy('s.company_id')
    .orderBy('s.id')
    .limit(limit)
    .execute();
}
