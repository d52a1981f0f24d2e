import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import type { Clock } from '../clock.ts';
import type { MailAttachment, MailMessage } from './enqueue.ts';

export interface SentAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface Transport {
  send(message: MailMessage, attachments: SentAttachment[]): Promise<void>;
}

/** Renders an attachment at send time (e.g. an invoice PDF), by name. */
export type Renderer = (db: Kysely<DB>, companyId: string, params: Record<string, string>) => Promise<Buffer>;

export const MAX_ATTEMPTS = 8;

/** Exponential backoff: 1, 2, 4 … minutes, capped at one hour. */
export const retryDelayMs = (attempts: number) => Math.min(60, 2 ** Math.max(0, attempts - 1)) * 60_000;

export interface WorkerDeps {
  db: Kysely<DB>;
  transport: Transport;
  renderers: Record<string, Renderer>;
  clock: Clock;
  batchSize?: number;
}

/**
 * Delivers due outbox messages once. Messages are claimed with
 * `FOR UPDATE SKIP LOCKED`, so any number of API nodes can run the worker
 * without sending a message twice. A failed send is retried later with backoff
 * and marked failed after MAX_ATTEMPTS. Returns how many messages were sent.
 */
export async function deliverDueMessages(deps: WorkerDeps): Promise<number> {
  const now = deps.clock();
  let sent = 0;
  const batch = await deps.db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('outbox')
      .select(['company_id', 'id', 'payload', 'attempts'])
      .where('status', '=', 'pending')
      .where('available_at', '<=', now)
      .orderBy('available_at')
      .limit(deps.batchSize ?? 20)
      .forUpdate()
      .skipLocked()
      .execute();
    // Claim them by pushing their availability out while we send; a crash mid-send retries later.
    if (rows.length) {
      await trx
        .updateTable('outbox')
        .set({ available_at: new Date(now.getTime() + 5 * 60_000), attempts: sql`attempts + 1` })
        .where(
          (eb) => eb.or(rows.map((r) => eb.and([eb('company_id', '=', r.company_id), eb('id', '=', r.id)]))),
        )
        .execute();
    }
    return rows;
  });

  for (const row of batch) {
    const attempts = row.attempts + 1;
    try {
      const message = row.payload as unknown as MailMessage;
      const attachments = await Promise.all((message.attachments ?? []).map((a) => resolveAttachment(deps, row.company_id, a)));
      await deps.transport.send(message, attachments);
      await deps.db
        .updateTable('outbox')
        .set({ status: 'sent', sent_at: deps.clock(), last_error: null })
        .where('company_id', '=', row.company_id)
        .where('id', '=', row.id)
        .execute();
      sent++;
    } catch (err) {
      const failed = attempts >= MAX_ATTEMPTS;
      await deps.db
        .updateTable('outbox')
        .set({
          status: failed ? 'failed' : 'pending',
          last_error: String((err as Error)?.message ?? err).slice(0, 2000),
          available_at: new Date(deps.clock().getTime() + retryDelayMs(attempts)),
        })
        .where('company_id', '=', row.company_id)
        .where('id', '=', row.id)
        .execute();
    }
  }
  return sent;
}

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
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = async () => {
    if (stopped) return;
    running = deliverDueMessages(deps).catch(onError);
    await running;
    if (!stopped) timer = setTimeout(tick, intervalMs);
  };
  let timer = setTimeout(tick, intervalMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
