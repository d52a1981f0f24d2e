import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';
import { feedHorizon } from '../changes/index.ts';

/**
 * The events' fan-out (migration 0100): the change feed's trigger records each change's
 * webhook events and payload on its change row, in the writing transaction; here they
 * become one delivery per endpoint that wants the event and was on when the change was
 * made. Per workspace, in the feed's order and only below its horizon (a change committed
 * late is never passed), behind a cursor (webhook_fan_out) that moves in the transaction
 * that makes the deliveries: every event becomes its deliveries exactly once, whichever
 * process gets there, and none is lost if one dies mid-way. The cursor row is locked
 * `SKIP LOCKED`: two processes fan out different workspaces.
 */

export interface Unfanned {
  company_id: string;
  record_id: string;
  first_seq: string;
}

/** What the claim holds back: the later deliveries of `records`, and every delivery of `workspaces`. */
export interface Behind {
  records: Unfanned[];
  /**
   * Workspaces with more than `recordsMax` records behind their cursor (a long transaction
   * holds the horizon while writes go on, or another process fans out a backlog): all their
   * deliveries wait, rather than the claim carrying thousands of records.
   */
  workspaces: string[];
}

/** The record's name in event kinds, for the changes' table names. */
const RECORD_NAME = sql`case c.record_type when 'time_entries' then 'time_entry' when 'expenses' then 'expense' when 'invoices' then 'invoice'
  when 'clients' then 'client' when 'projects' then 'project' when 'estimates' then 'estimate' when 'approvals' then 'approval' end`;

/** One batch of one workspace's changes after its cursor: how many it read; undefined when another process holds the workspace. */
async function fanOutBatch(db: Kysely<DB>, companyId: string, limit: number): Promise<number | undefined> {
  return db.transaction().execute(async (trx) => {
    const cursor = await sql<{ xid: string; seq: string }>`
      select xid::text, seq::text from webhook_fan_out where company_id = ${companyId} for update skip locked`.execute(trx);
    if (cursor.rows.length === 0) return undefined;
    const { xid, seq } = cursor.rows[0]!;
    const horizon = await feedHorizon(trx);
    // Deliveries are made in the changes' own order (seq: the order writes took their row
    // locks in), which for one record is the order its writes happened.
    const r = await sql<{ scanned: number }>`
      with batch as (
        select c.xid, c.seq, c.record_type, c.record_id, c.events, c.data, c.changed_at
        from changes c
        where c.company_id = ${companyId} and (c.xid, c.seq) > (${xid}::xid8, ${seq}::bigint) and c.xid < ${horizon}::xid8
        order by c.xid, c.seq
        limit ${limit}
      ), made as (
        insert into webhook_deliveries (company_id, endpoint_id, event_type, record_type, record_id, data, occurred_at, change_seq)
        select ${companyId}, e.id, k.event, ${RECORD_NAME}, c.record_id, c.data, c.changed_at, c.seq
        from batch c
        cross join lateral unnest(c.events) with ordinality as k(event, n)
        join webhook_endpoints e on e.company_id = ${companyId} and k.event = any(e.events)
          and c.changed_at <@ e.active_periods
        where c.events is not null
        order by c.seq, k.n, e.id
      ), last as (
        select xid, seq from batch order by xid desc, seq desc limit 1
      ), moved as (
        update webhook_fan_out f set xid = last.xid, seq = last.seq from last where f.company_id = ${companyId}
      )
      select count(*)::int as scanned from batch`.execute(trx);
    return r.rows[0]!.scanned;
  });
}

/**
 * Of each record with events still behind its workspace's cursor, the first such change:
 * a delivery of a later change of that record waits for it (queries.ts claimDue). A later
 * write's transaction can hold a lower id than an earlier write's, and so pass the feed's
 * horizon, and be fanned out, first. The cursor is read first and passed as a value, so
 * the tail is read through the feed's index (joined, the planner scans the whole table).
 */
async function unfannedOf(db: Kysely<DB>, companyId: string, max: number): Promise<Unfanned[]> {
  const cursor = await sql<{ xid: string; seq: string }>`select xid::text, seq::text from webhook_fan_out where company_id = ${companyId}`.execute(db);
  if (cursor.rows.length === 0) return [];
  const { xid, seq } = cursor.rows[0]!;
  const r = await sql<Unfanned>`
    select company_id, record_id, min(seq)::text as first_seq from changes
    where company_id = ${companyId} and xid >= ${xid}::xid8 and (xid, seq) > (${xid}::xid8, ${seq}::bigint) and events is not null
    group by company_id, record_id
    limit ${max + 1}`.execute(db);
  return r.rows;
}

/**
 * Fans out every workspace's settled events (`batch` at a time, each in its own
 * transaction). The worker runs it before each claim: what the claim must hold back
 * because earlier events are still to be fanned out.
 */
export async function fanOutEvents(db: Kysely<DB>, { batch = 1000, recordsMax = 500 } = {}): Promise<Behind> {
  const workspaces = await sql<{ company_id: string }>`select company_id from webhook_fan_out`.execute(db);
  const behind: Behind = { records: [], workspaces: [] };
  for (const { company_id } of workspaces.rows) {
    for (;;) {
      const scanned = await fanOutBatch(db, company_id, batch);
      if (scanned === undefined || scanned < batch) break;
    }
    // Also for a workspace another process is fanning out: its cursor as it stands is behind or at the truth.
    const records = await unfannedOf(db, company_id, recordsMax);
    if (records.length > recordsMax) behind.workspaces.push(company_id);
    else behind.records.push(...records);
  }
  return behind;
}
