import { sql } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { invoiceVisible } from '../../../access/invoices.ts';
import type { Tx } from '../../../db/tenant.ts';

/**
 * The invoice an attachment belongs to, in the principal's reach (access/invoices.ts),
 * locked when attachments change or go with an e-mail, so an upload, a removal and a
 * send of one invoice happen one after the other.
 */
export function invoiceInReach(trx: Tx, companyId: string, id: string, p: Principal, { lock = false } = {}) {
  let query = trx
    .selectFrom('invoices as i')
    .select(['i.id', 'i.number', 'i.state'])
    .where('i.company_id', '=', companyId)
    .where('i.id', '=', id)
    .where(invoiceVisible(p, 'i'));
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

function attachmentSelect(trx: Tx, companyId: string) {
  return trx
    .selectFrom('invoice_attachments as a')
    .innerJoin('files as f', (j) => j.onRef('f.company_id', '=', 'a.company_id').onRef('f.id', '=', 'a.file_id'))
    .select(['a.id', 'a.invoice_id', 'a.file_id', 'f.filename', 'f.content_type', 'f.byte_size', 'a.created_at'])
    .where('a.company_id', '=', companyId);
}

export type AttachmentRow = NonNullable<Awaited<ReturnType<ReturnType<typeof attachmentSelect>['executeTakeFirst']>>>;

/** An invoice's attachments, oldest first. */
export function attachmentsOf(trx: Tx, companyId: string, invoiceId: string) {
  return attachmentSelect(trx, companyId).where('a.invoice_id', '=', invoiceId).orderBy('a.created_at').orderBy('a.id').execute();
}

/** One attachment of this invoice (an attachment of another invoice is not found). */
export function findAttachment(trx: Tx, companyId: string, invoiceId: string, id: string) {
  return attachmentSelect(trx, companyId).where('a.invoice_id', '=', invoiceId).where('a.id', '=', id).executeTakeFirst();
}

export async function insertAttachment(
  trx: Tx,
  companyId: string,
  row: { id: string; invoiceId: string; fileId: string; uploadedBy: string | null; now: Date },
) {
  await trx
    .insertInto('invoice_attachments')
    .values({ company_id: companyId, id: row.id, invoice_id: row.invoiceId, file_id: row.fileId, uploaded_by: row.uploadedBy, created_at: row.now })
    .execute();
}

export async function deleteAttachmentRow(trx: Tx, companyId: string, id: string) {
  await trx.deleteFrom('invoice_attachments').where('company_id', '=', companyId).where('id', '=', id).execute();
}

/** Whether an e-mail still waiting in the outbox (pending) carries the file. */
export async function pendingMailCarries(trx: Tx, companyId: string, fileId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('outbox')
    .select('id')
    .where('company_id', '=', companyId)
    .where('status', '=', 'pending')
    .where(sql<boolean>`payload @> ${JSON.stringify({ attachments: [{ file_id: fileId }] })}::jsonb`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
