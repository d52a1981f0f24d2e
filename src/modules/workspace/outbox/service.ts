import type { Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';
import { ApiError } from '../../../errors.ts';
import { audit } from '../audit/index.ts';
import type { MailMessage } from '../../../outbox/enqueue.ts';

/**
 * The operator's view of the outbox (`sheaf admin outbox list|retry`): every
 * workspace's messages, or one workspace's, with what became of them; and a
 * retry that gives a failed (or waiting) message a fresh delivery schedule.
 * It works across workspaces, as the worker does, so it runs outside
 * withTenant; each retry is recorded in its workspace's audit log.
 */

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

export interface OutboxListing {
  id: string;
  workspace_id: string;
  kind: string;
  to: string[];
  subject: string;
  status: OutboxStatus;
  attempts: number;
  last_error: string | null;
  /** When a pending message is next due (after its backoff, or when a claim on it expires); null otherwise. */
  next_attempt_at: Date | null;
  first_attempt_at: Date | null;
  created_at: Date;
  sent_at: Date | null;
}

export interface ListFilter {
  status?: OutboxStatus;
  workspaceId?: string;
  limit: number;
}

/** Messages newest first, at most `limit`; `more` says whether older ones were left out. */
export async function listOutbox(db: Kysely<DB>, filter: ListFilter): Promise<{ messages: OutboxListing[]; more: boolean }> {
  let query = db
    .selectFrom('outbox')
    .select(['id', 'company_id', 'kind', 'payload', 'status', 'attempts', 'last_error', 'available_at', 'first_attempt_at', 'created_at', 'sent_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit + 1);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.workspaceId) query = query.where('company_id', '=', filter.workspaceId);
  const rows = await query.execute();
  const messages = rows.slice(0, filter.limit).map((r) => {
    const mail = r.payload as unknown as Partial<MailMessage>;
    return {
      id: r.id,
      workspace_id: r.company_id,
      kind: r.kind,
      to: (mail.to ?? []).map((a) => a.email),
      subject: mail.subject ?? '',
      status: r.status,
      attempts: r.attempts,
      last_error: r.last_error,
      next_attempt_at: r.status === 'pending' ? r.available_at : null,
      first_attempt_at: r.first_attempt_at,
      created_at: r.created_at,
      sent_at: r.sent_at,
    };
  });
  return { messages, more: rows.length > filter.limit };
}

export type Retried = {
  id: string;
  workspace_id: string;
  previous_status: OutboxStatus;
  previous_attempts: number;
};

/**
 * Makes messages due now with a fresh schedule (no attempts yet, a new
 * three-day window); the last error stays until the next attempt replaces it.
 * One message by id (pending or failed; a sent one is a conflict), or every
 * failed message (of one workspace). Nothing changes when the message is
 * unknown or already sent.
 */
export async function retryOutbox(
  db: Kysely<DB>,
  target: { id: string; workspaceId?: string } | { allFailed: true; workspaceId?: string },
  now: Date,
): Promise<Retried[]> {
  return db.transaction().execute(async (trx) => {
    let query = trx.selectFrom('outbox').select(['company_id', 'id', 'status', 'attempts', 'sent_at']).forUpdate();
    query = 'id' in target ? query.where('id', '=', target.id) : query.where('status', '=', 'failed');
    if (target.workspaceId) query = query.where('company_id', '=', target.workspaceId);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    if ('id' in target) {
      if (rows.length === 0) {
        throw new ApiError('not_found', `No outbox message ${target.id}${target.workspaceId ? ' in this workspace' : ''} (see "sheaf admin outbox list").`);
      }
      const sent = rows.find((r) => r.status === 'sent');
      if (sent) {
        throw new ApiError('conflict', `Outbox message ${target.id} was already sent (${sent.sent_at?.toISOString() ?? 'earlier'}); there is nothing to retry.`);
      }
    }
    const retried: Retried[] = [];
    for (const row of rows) {
      await trx
        .updateTable('outbox')
        .set({ status: 'pending', available_at: now, attempts: 0, first_attempt_at: null })
        .where('company_id', '=', row.company_id)
        .where('id', '=', row.id)
        .execute();
      await audit(trx, {
        companyId: row.company_id,
        action: 'outbox.retried',
        subjectType: 'outbox',
        subjectId: row.id,
        details: { previous_status: row.status, previous_attempts: row.attempts },
      });
      retried.push({ id: row.id, workspace_id: row.company_id, previous_status: row.status, previous_attempts: row.attempts });
    }
    return retried;
  });
}
