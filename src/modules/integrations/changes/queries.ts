import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { clientVisible, projectVisible } from '../../../access/catalog.ts';
import { seesFullUserRecords } from '../../../access/policy.ts';
import { invoiceVisible } from '../../../access/invoices.ts';
import { timeRecordVisible } from '../../../access/time.ts';
import type { Principal } from '../../../auth/principal.ts';
import type { Tx } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import type { Action, Cursor, RecordType } from './rules.ts';

export interface ChangeRow {
  xid: string;
  seq: string;
  record_type: RecordType;
  record_id: string;
  action: Action;
  changed_at: Date;
}

/** The change's person is in the workspace's directory: a human member who is not a client (the users list's rule for members). */
const inDirectory = (eb: ExpressionBuilder<any, any>) =>
  eb.exists(
    eb
      .selectFrom('memberships as dir_m')
      .innerJoin('users as dir_u', 'dir_u.id', 'dir_m.user_id')
      .select(sql`1`.as('one'))
      .whereRef('dir_m.company_id', '=', 'c.company_id')
      .whereRef('dir_m.user_id', '=', 'c.record_id')
      .where('dir_m.role', '<>', 'client')
      .where('dir_u.user_type', '=', 'human'),
  );

/**
 * Whether the principal may see the change aliased `c`, by the same rules as the lists of its
 * record type (src/access): time and expenses by the person and project stored with the change
 * (so a deletion is shown to whoever saw the record); projects and clients by the record as it
 * is now, and their deletions to everyone who reads the feed (a tombstone carries only an id);
 * invoices by their creator and the invoice permissions; tasks to everyone; people as the users
 * list shows them: everyone to administrators and managers, to others the directory (human members
 * who are not clients, as they are now).
 */
function changeVisible(p: Principal) {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    const type = (t: RecordType) => eb('c.record_type', '=', t);
    const deleted = eb('c.action', '=', 'deleted');
    const current = (table: 'projects' | 'clients', visible: (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>) =>
      eb.exists(
        eb
          .selectFrom(`${table} as cur`)
          .select(sql`1`.as('one'))
          .whereRef('cur.company_id', '=', 'c.company_id')
          .whereRef('cur.id', '=', 'c.record_id')
          .where(visible),
      );
    return eb.or([
      eb.and([eb.or([type('time_entries'), type('expenses')]), timeRecordVisible(p, 'c')(eb)]),
      eb.and([type('projects'), eb.or([deleted, current('projects', projectVisible(p, 'cur'))])]),
      eb.and([type('clients'), eb.or([deleted, current('clients', clientVisible(p, 'cur'))])]),
      eb.and([type('invoices'), invoiceVisible(p, 'c')(eb)]),
      type('tasks'),
      eb.and([type('users'), seesFullUserRecords(p) ? sql<SqlBool>`true` : inDirectory(eb)]),
    ]);
  };
}

/**
 * The feed's horizon now: the oldest transaction still running (the xmin of a fresh
 * snapshot). Every change below it belongs to a transaction that has ended, and no
 * transaction can add one below it any more (see the migration 0089). Read once per
 * request and passed to each query: under READ COMMITTED each statement has its own
 * snapshot, and a horizon that moved between two statements would let the second
 * pass changes the first never returned.
 */
export async function feedHorizon(trx: Tx): Promise<string> {
  const r = await sql<{ horizon: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as horizon`.execute(trx);
  return r.rows[0].horizon;
}

/** The workspace's changes after `after` and below `horizon`, with their positions: what a read may return. */
function settledAfter(trx: Tx, companyId: string, after: Cursor, horizon: string) {
  return trx
    .selectFrom('changes as c')
    .select([sql<string>`c.xid::text`.as('xid'), sql<string>`c.seq::text`.as('seq')])
    .where('c.company_id', '=', companyId)
    .where(sql<SqlBool>`(c.xid, c.seq) > (${after.xid}::xid8, ${after.seq}::bigint)`)
    .where(sql<SqlBool>`c.xid < ${horizon}::xid8`);
}

/** The next `limit` changes after `after` and below `horizon` that the principal may see, of `types`. */
export function changesAfter(trx: Tx, p: Principal, after: Cursor, horizon: string, types: readonly RecordType[], limit: number): Promise<ChangeRow[]> {
  return settledAfter(trx, p.companyId, after, horizon)
    .select(['c.record_type', 'c.record_id', 'c.action', 'c.changed_at'])
    .where('c.record_type', 'in', types)
    // The rows of estimates and approvals carry only webhook events (migration 0100); the feed never names them.
    .$narrowType<{ record_type: RecordType }>()
    .where(changeVisible(p))
    .orderBy('c.xid')
    .orderBy('c.seq')
    .limit(limit)
    .execute();
}

/** The last change of the workspace below `horizon` (whatever its type or visibility), after `after`: where a caught-up reader may move to; undefined when none. */
export function lastSettledChange(trx: Tx, companyId: string, after: Cursor, horizon: string): Promise<Cursor | undefined> {
  return settledAfter(trx, companyId, after, horizon)
    .orderBy('c.xid', 'desc')
    .orderBy('c.seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The last position the retention job deleted in the workspace; undefined when it never deleted any. */
export function prunedThrough(trx: Tx, companyId: string): Promise<Cursor | undefined> {
  return trx
    .selectFrom('change_horizons')
    .select([sql<string>`xid::text`.as('xid'), sql<string>`seq::text`.as('seq')])
    .where('company_id', '=', companyId)
    .executeTakeFirst();
}

/**
 * Deletes changes older than `before` (but none the webhooks' fan-out has yet to read),
 * across workspaces, a batch at a time, and moves each
 * workspace's horizon (change_horizons) to the last position it deleted, in the same
 * statement: a cursor below it is answered 410. Returns how many changes went.
 */
export async function pruneChanges(db: Kysely<DB>, before: Date, batch = 10_000): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await sql<{ n: string }>`
      with gone as (
        delete from changes where seq in (
          select c.seq from changes c where c.changed_at < ${before}
            -- Events the webhooks' worker has not fanned out yet stay (webhooks/fan-out.ts).
            and not exists (select 1 from webhook_fan_out f where f.company_id = c.company_id and (c.xid, c.seq) > (f.xid, f.seq))
          order by c.changed_at limit ${batch})
        returning company_id, xid, seq
      ), last as (
        select distinct on (company_id) company_id, xid, seq from gone order by company_id, xid desc, seq desc
      ), moved as (
        insert into change_horizons as h (company_id, xid, seq) select company_id, xid, seq from last
        on conflict (company_id) do update set xid = excluded.xid, seq = excluded.seq
          where (excluded.xid, excluded.seq) > (h.xid, h.seq)
        returning 1
      )
      select count(*)::text as n from gone`.execute(db);
    const n = Number(r.rows[0].n);
    total += n;
    if (n < batch) return total;
  }
}
