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

/**
 * One pass: fans out the events recorded since the last and sends what is due, `concurrency` at a
 * time, claiming more whenever a lane is free (never waiting for the slowest of a batch), until
 * nothing more is due or `keepGoing` says stop; how each ended. An endpoint gets at most
 * PER_ENDPOINT_LANES at once (claimDue) until it has answered promptly, and again once it does
 * not: a silent receiver holds a few lanes for its deadline, never the others' events, while a
 * receiver that keeps up gets all of them.
 */
export async function deliverDueWebhooks(deps: WebhookWorkerDeps, keepGoing: () => boolean = () => true): Promise<DeliveryRunSummary> {
  const concurrency = deps.concurrency ?? 32;
  const summary: DeliveryRunSummary = { delivered: 0, retried: 0, failed: 0 };
  const creators = new Map<string, DisabledReason | null>();
  const busy = new Map<string, number>();
  // Endpoints whose last attempt answered 2xx within FAST_MS: they may take every free lane.
  const fast = new Set<string>();
  const running = new Set<Promise<void>>();
  let failure: { err: unknown } | null = null;
  let finished = 0;
  let wake: (() => void) | null = null;
  let behind: Awaited<ReturnType<typeof fanOutEvents>> | null = null;
  let fannedOutAt = 0;
  const send = (d: ClaimedDelivery) => {
    busy.set(d.endpoint_id, (busy.get(d.endpoint_id) ?? 0) + 1);
    const started = performance.now();
    const task: Promise<void> = deliverOne(deps, d, creators)
      .then((outcome) => {
        if (outcome !== 'held') summary[outcome]++;
        if (outcome === 'delivered' && performance.now() - started < FAST_MS) fast.add(d.endpoint_id);
        else fast.delete(d.endpoint_id);
      })
      .catch((err: unknown) => {
        failure ??= { err };
      })
      .finally(() => {
        running.delete(task);
        busy.set(d.endpoint_id, busy.get(d.endpoint_id)! - 1);
        finished++;
        wake?.();
      });
    running.add(task);
  };
  /** Until `n` more sends finished (or all), or `ms` passed: a claim is a query, worth a few lanes. */
  const settle = (n: number, ms: number) =>
    new Promise<void>((resolve) => {
      const target = finished + n;
      const done = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      wake = () => {
        if (finished >= target || running.size === 0) done();
      };
    });
  for (;;) {
    const free = concurrency - running.size;
    let short = true;
    if (free > 0 && !failure && keepGoing()) {
      // New events are fanned out at most every FAN_OUT_EVERY_MS within a pass: a claim is worth a
      // few lanes, a fan-out many. Until the next one no delivery is added, so `behind` still holds.
      if (behind === null || performance.now() - fannedOutAt >= FAN_OUT_EVERY_MS) {
        behind = await fanOutEvents(deps.db);
        fannedOutAt = performance.now();
      }
      const now = deps.clock();
      const want = Math.min(free, deps.batchSize ?? 200);
      const claimed = await claimDue(deps.db, now, new Date(now.getTime() + LEASE_MS), want, behind, { busy, perEndpoint: PER_ENDPOINT_LANES, fast });
      for (const d of claimed) send(d);
      short = claimed.length < want;
    }
    if (running.size === 0) break;
    // Nothing more was due (or every lane is busy): claim again once a few lanes are free again,
    // or soon, for what falls due meanwhile (a running endpoint's next delivery, new events).
    if (short || running.size >= concurrency) await settle(Math.min(running.size, CLAIM_EVERY), CLAIM_WAIT_MS);
  }
  if (failure) throw (failure as { err: unknown }).err;
  return summary;
}

/** Within a pass, a new claim waits for this many sends to finish, or CLAIM_WAIT_MS. */
const CLAIM_EVERY = 8;
const CLAIM_WAIT_MS = 20;
const FAN_OUT_EVERY_MS = 100;
/** An endpoint that answered within this is fast: it may take every free lane. */
const FAST_MS = 1_000;

/** Runs until nothing is due, then sleeps `intervalMs`; prunes the log hourly. Returns how to stop. */
export function startWebhookWorker(deps: WebhookWorkerDeps, intervalMs: number, onError: (err: unknown) => void): () => Promise<void> {
  let stopping = false;
  const stopDelivery = repeatEvery(
    intervalMs,
    async () => {
      while (!stopping) {
        const s = await deliverDueWebhooks(deps, () => !stopping);
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
