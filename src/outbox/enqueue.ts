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
 */
export async function enqueueMail(trx: Tx, companyId: string, kind: string, message: MailMessage): Promise<string> {
  const id = newId();
  await trx
    .insertInto('outbox')
    .values({ company_id: companyId, id, kind, payload: JSON.stringify(message), available_at: new Date() })
    .execute();
  return id;
}
