import type { Tx } from '../db/tenant.ts';
import { newId } from '../ids.ts';

export interface MailAddress {
  email: string;
  name?: string | null;
}

/** An attachment: stored bytes (a `files` row) or a document rendered at send time. */
export type MailAttachment =
  | { filename: string; content_type: string; file_id: string }
  | { filename: string; content_type: string; render: string; params: Record<string, string> };

export interface MailMessage {
  to: MailAddress[];
  cc?: MailAddress[];
  bcc?: MailAddress[];
  reply_to?: MailAddress | null;
  subject: string;
  text: string;
  attachments?: MailAttachment[];
}

/**
 * Records an e-mail in the outbox, in the caller's transaction: the message
 * exists exactly when the state change that caused it commits, and the worker
 * delivers it afterwards (with retries), surviving a crash in between.
 * `now` (the app clock; default the real time) makes it due at once for a
 * worker running on the same clock.
 */
export async function enqueueMail(trx: Tx, companyId: string, kind: string, message: MailMessage, now: Date = new Date()): Promise<string> {
  const id = newId(now.getTime());
  await trx
    .insertInto('outbox')
    .values({ company_id: companyId, id, kind, payload: JSON.stringify(message), available_at: now, created_at: now })
    .execute();
  return id;
}
