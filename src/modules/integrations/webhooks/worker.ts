import type { Kysely } from 'kysely';
import type { Clock } from '../../../clock.ts';
import { withTenant } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { translator } from '../../../i18n/index.ts';
import { enqueueMail } from '../../../outbox/enqueue.ts';
import { repeatEvery } from '../../../repeat.ts';
import { activeHumanMembers } from '../../people/users/index.ts';
import { audit } from '../../workspace/audit/index.ts';
import type { Resolver } from './address.ts';
import { fanOutEvents } from './fan-out.ts';
import { holderProblem } from './holder.ts';
import { payloadOf } from './presenter.ts';
import { claimDue, pruneDeliveries, putBack, recordOutcome, type ClaimedDelivery } from './queries.ts';
import { LEASE_MS, LOG_RETENTION_DAYS, PER_ENDPOINT_LANES, messageId, retryAfter, type DisabledReason } from './rules.ts';
import { sendAttempt } from './sender.ts';

/**
 * Webhook delivery, in every server process (several at once are safe): the events the
 * writing transactions recorded are fanned out into deliveries (fan-out.ts), due deliveries are
 * claimed in the database (`FOR UPDATE SKIP LOCKED`, attempts + 1, held for LEASE_MS), sent
 * `concurrency` at a time, and their outcome recorded only while the claim is still this
 * worker's. At least once: a worker that dies mid-send leaves the claim to expire and the
 * delivery goes again with the same webhook-id and body, so receivers can drop the copy.
 * Per record in order: a delivery waits until the one before it, for the same endpoint and
 * record, was delivered or failed for good (queries.ts claimDue).
 */

export interface WebhookWorkerDeps {
  db: Kysely<DB>;
  clock: Clock;
  allowPrivate: boolean;
  /** The address people reach this server at (the link in the e-mail on disabling). */
  baseUrl: string;
  resolve?: Resolver;
  batchSize?: number;
  concurrency?: number;
  /** An attempt's deadline (REQUEST_TIMEOUT_MS; shorter in tests). */
  requestTimeoutMs?: number;
  /**
   * The endpoints whose last attempt answered 2xx within FAST_MS: they may take every lane, others
   * PER_ENDPOINT_LANES at once. Made by the first pass and kept here for the next ones.
   */
  fast?: Set<string>;
}

export interface DeliveryRunSummary {
  delivered: number;
  retried: number;
  failed: number;
}

type Outcome = keyof DeliveryRunSummary | 'held';

/** holderProblem (holder.ts), once per holder in a pass. */
async function creatorProblem(db: Kysely<DB>, d: ClaimedDelivery, cache: Map<string, DisabledReason | null>): Promise<DisabledReason | null> {
  if (d.created_by === null) return null;
  const key = `${d.company_id}:${d.created_by}`;
  if (!cache.has(key)) cache.set(key, await withTenant(db, d.company_id, (trx) => holderProblem(trx, d.company_id, d.created_by)));
  return cache.get(key)!;
}

/**
 * Turns an endpoint off, once (the first caller), and tells the workspace's active owners
 * and administrators by e-mail through the outbox and records it in the audit log, in the same transaction.
 */
export async function disableEndpoint(db: Kysely<DB>, companyId: string, endpointId: string, reason: DisabledReason, baseUrl: string, now: Date): Promise<boolean> {
  return withTenant(db, companyId, async (trx) => {
    const off = await trx
      .updateTable('webhook_endpoints')
      .set({ is_active: false, disabled_reason: reason, disabled_at: now, updated_at: now })
      .where('company_id', '=', companyId)
      .where('id', '=', endpointId)
      .where('is_active', '=', true)
      .returning(['url'])
      .executeTakeFirst();
    if (!off) return false;
    // Sheaf turned it off, not a person: no actor, as the schedules' entries (the page shows the operator).
    await audit(trx, { companyId, action: 'webhook_endpoint.disabled', subjectType: 'webhook_endpoint', subjectId: endpointId, details: { url: off.url, reason } });
    const admins = await activeHumanMembers(trx, companyId)
      .select(['u.email', 'u.first_name', 'u.last_name', 'u.language'])
      .where('m.role', 'in', ['owner', 'administrator'])
      .orderBy('u.email')
      .execute();
    for (const a of admins) {
      const t = translator(a.language);
      await enqueueMail(
        trx,
        companyId,
        'webhook_disabled',
        {
          to: [{ email: a.email, name: `${a.first_name} ${a.last_name}`.trim() }],
          subject: t('webhookMail.subject', { url: off.url }),
          text: [t('webhookMail.body', { url: off.url, reason: t(`webhookMail.reasons.${reason}`) }), t('webhookMail.open', { link: `${baseUrl}/settings/webhooks/${endpointId}` })].join('\n\n'),
        },
        now,
      );
    }
    return true;
  });
}

async function deliverOne(deps: WebhookWorkerDeps, d: ClaimedDelivery, creators: Map<string, DisabledReason | null>): Promise<Outcome> {
  const now = deps.clock();
  const problem = await creatorProblem(deps.db, d, creators);
  if (problem) {
    // Held, not sent: it goes once an administrator turns the endpoint on again, with its attempts intact.
    await putBack(deps.db, d);
    await disableEndpoint(deps.db, d.company_id, d.endpoint_id, problem, deps.baseUrl, now);
    return 'held';
  }
  const secrets = [d.secret, ...(d.previous_secret && d.previous_secret_expires_at && d.previous_secret_expires_at > now ? [d.previous_secret] : [])];
  const result = await sendAttempt({
    url: d.url, webhookId: messageId(d.id), body: payloadOf(d), secrets, now, allowPrivate: deps.allowPrivate, resolve: deps.resolve, timeoutMs: deps.requestTimeoutMs,
  });
  const done = deps.clock();
  if (result.ok) {
    await recordOutcome(deps.db, d, { state: 'delivered', status: result.status, error: null, nextAttemptAt: null, now: done });
    return 'delivered';
  }
  const next = retryAfter(d.attempts, done);
  await recordOutcome(deps.db, d, { state: next ? 'pending' : 'failed', status: result.status, error: result.error, nextAttemptAt: next, now: done });
  if (next) return 'retried';
  await disableEndpoint(deps.db, d.company_id, d.endpoint_id, 'delivery_failing', deps.baseUrl, done);
  return 'failed';
}

/** An endpoint that answered 2xx within this is fast: it may take every lane. */
const FAST_MS = 1_000;

/**
 * One pass: fans out the events recorded since the last, then claims a batch of due deliveries and
 * sends them, `concurrency` at a time; how each ended. An endpoint that is not known to answer
 * promptly (`fast`) gets PER_ENDPOINT_LANES at once: its further deliveries of the batch are put
 * back, due again for the next pass, rather than waited for. So a silent receiver holds a few
 * lanes for its deadline, and the pass (and the events that came meanwhile) waits at most that.
 */
export async function deliverDueWebhooks(deps: WebhookWorkerDeps): Promise<DeliveryRunSummary> {
  const behind = await fanOutEvents(deps.db);
  const now = deps.clock();
  const claimed = await claimDue(deps.db, now, new Date(now.getTime() + LEASE_MS), deps.batchSize ?? 200, behind);
  const summary: DeliveryRunSummary = { delivered: 0, retried: 0, failed: 0 };
  const creators = new Map<string, DisabledReason | null>();
  const fast = (deps.fast ??= new Set<string>());
  const busy = new Map<string, number>();
  let next = 0;
  const lane = async () => {
    while (next < claimed.length) {
      const d = claimed[next++]!;
      const sending = busy.get(d.endpoint_id) ?? 0;
      if (!fast.has(d.endpoint_id) && sending >= PER_ENDPOINT_LANES) {
        await putBack(deps.db, d);
        continue;
      }
      busy.set(d.endpoint_id, sending + 1);
      const started = performance.now();
      try {
        const outcome = await deliverOne(deps, d, creators);
        if (outcome !== 'held') summary[outcome]++;
        if (outcome === 'delivered' && performance.now() - started < FAST_MS) fast.add(d.endpoint_id);
        else fast.delete(d.endpoint_id);
      } finally {
        busy.set(d.endpoint_id, busy.get(d.endpoint_id)! - 1);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.concurrency ?? 32, claimed.length) }, lane));
  return summary;
}

/** Runs until nothing is due, then sleeps `intervalMs`; prunes the log hourly. Returns how to stop. */
export function startWebhookWorker(deps: WebhookWorkerDeps, intervalMs: number, onError: (err: unknown) => void): () => Promise<void> {
  let stopping = false;
  const stopDelivery = repeatEvery(
    intervalMs,
    async () => {
      while (!stopping) {
        const s = await deliverDueWebhooks(deps);
        if (s.delivered + s.retried + s.failed === 0) return;
      }
    },
    onError,
  );
  const prune = () => pruneDeliveries(deps.db, new Date(deps.clock().getTime() - LOG_RETENTION_DAYS * 86_400_000));
  const stopPruning = repeatEvery(3_600_000, prune, onError);
  return async () => {
    stopping = true;
    await Promise.all([stopDelivery(), stopPruning()]);
  };
}
