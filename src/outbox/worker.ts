import { sql, type Kysely, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { DB } from '../db/types.ts';
import type { Clock } from '../clock.ts';
import type { MailAttachment, MailMessage } from './enqueue.ts';
import { afterFailure, LEASE_MS } from './retry-policy.ts';
import { repeatEvery } from '../repeat.ts';

export interface SentAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** Which outbox message is being sent: the transport derives its Message-ID from it (mailer.ts). */
export interface OutboxRef {
  companyId: string;
  outboxId: string;
}

export interface Transport {
  /** Resolves once the server accepted the message for every recipient; throws otherwise. */
  send(message: MailMessage, attachments: SentAttachment[], ref: OutboxRef): Promise<void>;
}

/** Renders an attachment at send time (e.g. an invoice PDF), by name. */
export type Renderer = (db: Kysely<DB>, companyId: string, params: Record<string, string>) => Promise<Buffer>;

/** Where the worker says that it gave up on a message (pino's signature: the server passes its logger). */
export interface WorkerLog {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface WorkerDeps {
  db: Kysely<DB>;
  transport: Transport;
  renderers: Record<string, Renderer>;
  clock: Clock;
  log: WorkerLog;
  batchSize?: number;
}

/**
 * Delivers due outbox messages once; returns how many were sent.
 *
 * The guarantee is at-least-once delivery, with duplicates made recognisable:
 * a message is claimed (attempts + 1, due again LEASE_MS later) before it is
 * sent and marked sent after the server accepted it. A worker that dies in
 * between leaves the claim to expire, and the message is sent again with the
 * same Message-ID, so the recipient's mail system can tell the copies for one.
 * Nothing is ever lost: a failed send is retried with backoff
 * (retry-policy.ts) and marked failed, with a warning, only after three days.
 *
 * Messages are claimed with `FOR UPDATE SKIP LOCKED`, so any number of API
 * nodes run the worker. The attempt count (with first_attempt_at) fences a
 * claim: right before sending, a worker renews its claim only while they are
 * still what it set, so a message whose claim expired while it waited in this worker's
 * batch (and that another worker claimed since) is left to that worker, and a
 * late failure never overwrites a newer claim's outcome.
 */
export async function deliverDueMessages(deps: WorkerDeps): Promise<number> {
  const now = deps.clock();
  let sent = 0;
  const batch = await deps.db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('outbox')
      .select(['company_id', 'id', 'kind', 'payload', 'attempts', 'first_attempt_at'])
      .where('status', '=', 'pending')
      .where('available_at', '<=', now)
      .orderBy('available_at')
      .limit(deps.batchSize ?? 20)
      .forUpdate()
      .skipLocked()
      .execute();
    if (rows.length) {
      await trx
        .updateTable('outbox')
        .set({
          available_at: new Date(now.getTime() + LEASE_MS),
          attempts: sql`attempts + 1`,
          first_attempt_at: sql`coalesce(first_attempt_at, ${now})`,
        })
        .where((eb) => eb.or(rows.map((r) => eb.and([eb('company_id', '=', r.company_id), eb('id', '=', r.id)]))))
        .execute();
    }
    return rows;
  });

  for (const row of batch) {
    // What this claim wrote: together they fence it (an operator's retry resets both).
    const attempts = row.attempts + 1;
    const firstAttemptAt = row.first_attempt_at ?? now;
    const ours = (q: UpdateOutbox) =>
      q
        .where('company_id', '=', row.company_id)
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .where('attempts', '=', attempts)
        .where('first_attempt_at', '=', firstAttemptAt);
    // The claim may have expired while earlier messages of the batch were sent: renew it, or skip the message if it was taken over.
    const renewed = await ours(deps.db.updateTable('outbox').set({ available_at: new Date(deps.clock().getTime() + LEASE_MS) })).executeTakeFirst();
    if (renewed.numUpdatedRows === 0n) continue;

    let failure: unknown;
    let delivered = false;
    try {
      const message = row.payload as unknown as MailMessage;
      const attachments = await Promise.all((message.attachments ?? []).map((a) => resolveAttachment(deps, row.company_id, a)));
      await deps.transport.send(message, attachments, { companyId: row.company_id, outboxId: row.id });
      delivered = true;
    } catch (err) {
      failure = err;
    }

    if (delivered) {
      // Not fenced: the message went out, whoever holds the claim now. Should this
      // fail (the database went away), the error ends the batch: sending more that
      // cannot be marked would only make more duplicates.
      await deps.db
        .updateTable('outbox')
        .set({ status: 'sent', sent_at: deps.clock(), last_error: null })
        .where('company_id', '=', row.company_id)
        .where('id', '=', row.id)
        .execute();
      sent++;
      continue;
    }

    const failedAt = deps.clock();
    const next = afterFailure(attempts, firstAttemptAt, failedAt);
    const lastError = String((failure as Error)?.message ?? failure).slice(0, 2000);
    const recorded = await ours(
      deps.db.updateTable('outbox').set({
        status: next.status,
        last_error: lastError,
        ...(next.status === 'pending' ? { available_at: next.availableAt } : {}),
      }),
    ).executeTakeFirst();
    if (next.status === 'failed' && recorded.numUpdatedRows > 0n) {
      deps.log.warn(
        {
          workspace_id: row.company_id,
          outbox_id: row.id,
          kind: row.kind,
          attempts,
          first_attempt_at: firstAttemptAt.toISOString(),
          last_error: lastError,
        },
        `e-mail ${row.id} marked failed after ${attempts} attempts over ${hoursBetween(firstAttemptAt, failedAt)} hours; ` +
          `send it again with "sheaf admin outbox retry ${row.id}"`,
      );
    }
  }
  return sent;
}

type UpdateOutbox = UpdateQueryBuilder<DB, 'outbox', 'outbox', UpdateResult>;

const hoursBetween = (from: Date, to: Date) => Math.floor((to.getTime() - from.getTime()) / 3_600_000);

async function resolveAttachment(deps: WorkerDeps, companyId: string, a: MailAttachment): Promise<SentAttachment> {
  if ('file_id' in a) {
    const file = await deps.db
      .selectFrom('files')
      .select(['data'])
      .where('company_id', '=', companyId)
      .where('id', '=', a.file_id)
      .executeTakeFirstOrThrow();
    return { filename: a.filename, contentType: a.content_type, content: file.data };
  }
  const render = deps.renderers[a.render];
  if (!render) throw new Error(`no renderer named ${a.render}`);
  return { filename: a.filename, contentType: a.content_type, content: await render(deps.db, companyId, a.params) };
}

/** Runs the worker every `intervalMs` until stopped. */
export function startOutboxWorker(deps: WorkerDeps, intervalMs = 5000, onError: (err: unknown) => void = () => {}) {
  return repeatEvery(intervalMs, () => deliverDueMessages(deps), onError);
}
