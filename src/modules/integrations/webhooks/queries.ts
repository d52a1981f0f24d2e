import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';
import type { DB, WebhookDeliveries, WebhookEndpoints } from '../../../db/types.ts';
import type { Behind } from './fan-out.ts';

/** SQL of webhooks; every function of a workspace takes its id first. */

export type EndpointRow = Selectable<WebhookEndpoints>;
export type DeliveryRow = Selectable<WebhookDeliveries>;

/** The endpoint's row with its administrator's name (null for the operator, or one who left). */
export function endpointsOf(trx: Tx, companyId: string) {
  return trx
    .selectFrom('webhook_endpoints as e')
    .leftJoin('users as u', 'u.id', 'e.created_by')
    .selectAll('e')
    .select(sql<string | null>`nullif(trim(u.first_name || ' ' || u.last_name), '')`.as('created_by_name'))
    .where('e.company_id', '=', companyId);
}
export type EndpointView = EndpointRow & { created_by_name: string | null };

export function findEndpoint(trx: Tx, companyId: string, id: string, lock = false): Promise<EndpointView | undefined> {
  return endpointsOf(trx, companyId)
    .where('e.id', '=', id)
    .$if(lock, (q) => q.forUpdate('e'))
    .executeTakeFirst();
}

/** Counts of an endpoint's deliveries still to go and failed, for the list. */
export async function deliveryCounts(trx: Tx, companyId: string): Promise<Map<string, { pending: number; failed: number }>> {
  const rows = await trx
    .selectFrom('webhook_deliveries')
    .select(['endpoint_id', 'state', sql<string>`count(*)`.as('n')])
    .where('company_id', '=', companyId)
    .where('state', 'in', ['pending', 'failed'])
    .groupBy(['endpoint_id', 'state'])
    .execute();
  const counts = new Map<string, { pending: number; failed: number }>();
  for (const r of rows) {
    const c = counts.get(r.endpoint_id) ?? { pending: 0, failed: 0 };
    c[r.state as 'pending' | 'failed'] = Number(r.n);
    counts.set(r.endpoint_id, c);
  }
  return counts;
}

/** One page of an endpoint's delivery log, newest first, before `beforeSeq` when given. */
export function deliveryLog(trx: Tx, companyId: string, endpointId: string, limit: number, beforeSeq?: string) {
  return trx
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('endpoint_id', '=', endpointId)
    .$if(beforeSeq !== undefined, (q) => q.where('seq', '<', beforeSeq!))
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
}

export function findDelivery(trx: Tx, companyId: string, endpointId: string, id: string) {
  return trx
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', id)
    .executeTakeFirst();
}

// ---- The worker's queries: across workspaces, on the owner's connection (no tenant). ----

export interface ClaimedDelivery {
  company_id: string;
  seq: string;
  id: string;
  endpoint_id: string;
  event_type: string;
  record_type: string;
  occurred_at: Date;
  data: unknown;
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_by: string | null;
}

/**
 * Claims up to `limit` due deliveries of active endpoints (attempts + 1, held for the lease):
 * per endpoint and record only the oldest one still pending (by the change it comes from),
 * and none while an earlier change of the record is `behind` the fan-out, so a record's events go out
 * in the order they were made, each after the one before it was delivered or gave up.
 * `FOR UPDATE SKIP LOCKED`: several processes claim disjoint batches.
 */
export async function claimDue(db: Kysely<DB>, now: Date, leaseUntil: Date, limit: number, behind: Behind): Promise<ClaimedDelivery[]> {
  const { records, workspaces } = behind;
  const result = await sql<ClaimedDelivery>`
    with due as (
      select d.company_id, d.endpoint_id, d.seq
      from webhook_deliveries d
      join webhook_endpoints e on e.company_id = d.company_id and e.id = d.endpoint_id and e.is_active
      where d.state = 'pending'
        and (d.next_attempt_at is null or d.next_attempt_at <= ${now})
        -- Endpoint and record ids are unique across workspaces and record types: matched on
        -- them alone, this can only be read through webhook_deliveries_record_idx (with the
        -- workspace too, a planner with stale statistics reads every delivery of the endpoint
        -- through the primary key, for every candidate).
        and not exists (
          select 1 from webhook_deliveries p
          where p.endpoint_id = d.endpoint_id and p.record_id = d.record_id and p.state = 'pending' and (p.change_seq, p.seq) < (d.change_seq, d.seq)
        )
        -- An earlier change of the record whose events are not fanned out yet (fan-out.ts).
        and d.company_id <> all(${workspaces}::uuid[])
        and not exists (
          select 1 from unnest(${records.map((u) => u.company_id)}::uuid[], ${records.map((u) => u.record_id)}::uuid[], ${records.map((u) => u.first_seq)}::bigint[])
            as u(company_id, record_id, first_seq)
          where u.company_id = d.company_id and u.record_id = d.record_id and u.first_seq < d.change_seq
        )
      order by d.seq
      limit ${limit}
      for update of d skip locked
    ), claimed as (
      update webhook_deliveries d
      set attempts = d.attempts + 1, next_attempt_at = ${leaseUntil}, first_attempt_at = coalesce(d.first_attempt_at, ${now}), last_attempt_at = ${now}
      from due
      where d.company_id = due.company_id and d.endpoint_id = due.endpoint_id and d.seq = due.seq
      returning d.*
    )
    -- Numbers as strings (the trigger stores the row as to_jsonb made it): as JSON numbers they
    -- would reach Node as floats, and money must keep its digits. Done here, on the way out, so
    -- the writing transaction does not pay for it.
    select c.company_id, c.seq::text as seq, c.id, c.endpoint_id, c.event_type, c.record_type, c.occurred_at, c.attempts,
      (select jsonb_object_agg(key, case when jsonb_typeof(value) = 'number' then to_jsonb(value #>> '{}') else value end) from jsonb_each(c.data)) as data,
      e.url, e.secret, e.previous_secret, e.previous_secret_expires_at, e.created_by
    from claimed c join webhook_endpoints e on e.company_id = c.company_id and e.id = c.endpoint_id`.execute(db);
  return result.rows.map((r) => ({ ...r, occurred_at: new Date(r.occurred_at) }));
}

type Claim = Pick<ClaimedDelivery, 'company_id' | 'endpoint_id' | 'seq' | 'attempts'>;

/** The delivery while it is still this claim's: pending, with the attempt count the claim set. */
const ownClaim = (d: Claim) => (eb: ExpressionBuilder<DB, 'webhook_deliveries'>) =>
  eb.and([eb('company_id', '=', d.company_id), eb('endpoint_id', '=', d.endpoint_id), eb('seq', '=', d.seq), eb('attempts', '=', d.attempts), eb('state', '=', 'pending')]);

/**
 * Records an attempt's outcome, only while the claim is still this worker's (the attempt
 * count it set): a late answer never overwrites a newer claim's.
 */
export async function recordOutcome(
  db: Kysely<DB>,
  d: Claim,
  outcome: { state: 'pending' | 'delivered' | 'failed'; status: number | null; error: string | null; nextAttemptAt: Date | null; now: Date },
): Promise<boolean> {
  const r = await db
    .updateTable('webhook_deliveries')
    .set({
      state: outcome.state,
      last_status: outcome.status,
      last_error: outcome.error,
      next_attempt_at: outcome.nextAttemptAt,
      delivered_at: outcome.state === 'delivered' ? outcome.now : null,
    })
    .where(ownClaim(d))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Puts a claimed delivery back unsent, as if it had not been claimed: its attempt is given back
 * (the retry budget counts what was sent), and a delivery never sent before has no attempt times
 * again. Its last status and error stay those of its last real attempt. Only while the claim is
 * still this worker's. Its next attempt is none: due at once while its endpoint is on (a delivery
 * a pass left for the next, worker.ts), else once it is turned on again (a held one).
 */
export async function putBack(db: Kysely<DB>, d: Claim): Promise<boolean> {
  const first = d.attempts === 1;
  const r = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      attempts: eb('attempts', '-', 1),
      next_attempt_at: null,
      ...(first ? { first_attempt_at: null, last_attempt_at: null } : {}),
    }))
    .where(ownClaim(d))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Deletes delivered and failed deliveries older than the cutoff, in every workspace; how many. */
export async function pruneDeliveries(db: Kysely<DB>, cutoff: Date): Promise<number> {
  const r = await db.deleteFrom('webhook_deliveries').where('state', '<>', 'pending').where('occurred_at', '<', cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}
