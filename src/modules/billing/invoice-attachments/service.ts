import type { Kysely } from 'kysely';
import { mayUseInvoices } from '../../../access/invoices.ts';
import { actingUserId, auditActor } from '../../../access/operator.ts';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { badRequest, conflict, forbidden, notFound } from '../../../errors.ts';
import { isId, newId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import { deleteFile, readFile, storeFile, type Upload } from '../../workspace/files/index.ts';
import { presentAttachment, type PresentedAttachment } from './presenter.ts';
import { attachmentsOf, deleteAttachmentRow, findAttachment, insertAttachment, invoiceInReach, pendingMailCarries } from './queries.ts';
import { ATTACHMENTS_PER_INVOICE_MAX } from './rules.ts';

/**
 * Invoice attachments: who may is who may see the invoice (owners, administrators,
 * managers in reach: access/invoices.ts), and an invoice out of reach, of another
 * workspace or unknown is 404, as are attachments of another invoice. The file is
 * stored in the same tenant transaction as the attachment row (workspace/files).
 */

function assertMayUseInvoices(p: Principal) {
  if (!mayUseInvoices(p)) throw forbidden('Invoices are for owners, administrators and managers.');
}

async function invoiceOf(trx: Tx, p: Principal, invoiceId: string, lock = false) {
  const invoice = isId(invoiceId) ? await invoiceInReach(trx, p.companyId, invoiceId, p, { lock }) : undefined;
  if (!invoice) throw notFound('invoice');
  return invoice;
}

async function attachmentOf(trx: Tx, companyId: string, invoiceId: string, id: string) {
  const row = isId(id) ? await findAttachment(trx, companyId, invoiceId, id) : undefined;
  if (!row) throw notFound('attachment');
  return row;
}

/** The invoice's attachments, oldest first. */
export async function listInvoiceAttachments(db: Kysely<DB>, p: Principal, invoiceId: string): Promise<PresentedAttachment[]> {
  assertMayUseInvoices(p);
  return withTenant(db, p.companyId, async (trx) => {
    const invoice = await invoiceOf(trx, p, invoiceId);
    return (await attachmentsOf(trx, p.companyId, invoice.id)).map(presentAttachment);
  });
}

/** Adds a checked upload to the invoice (at most ATTACHMENTS_PER_INVOICE_MAX; the invoice is locked, so two at once count right). */
export async function addInvoiceAttachment(db: Kysely<DB>, p: Principal, invoiceId: string, upload: Upload | null, now: Date): Promise<PresentedAttachment> {
  assertMayUseInvoices(p);
  return withTenant(db, p.companyId, async (trx) => {
    const invoice = await invoiceOf(trx, p, invoiceId, true);
    if (!upload) throw badRequest('Send the file as the `file` part of a multipart/form-data body.', { field: 'file' });
    const existing = await attachmentsOf(trx, p.companyId, invoice.id);
    if (existing.length >= ATTACHMENTS_PER_INVOICE_MAX) {
      throw conflict(`An invoice takes at most ${ATTACHMENTS_PER_INVOICE_MAX} attachments; remove one first.`);
    }
    const file = await storeFile(trx, p.companyId, { filename: upload.filename, contentType: upload.contentType, data: upload.data }, now);
    const id = newId(now.getTime());
    await insertAttachment(trx, p.companyId, { id, invoiceId: invoice.id, fileId: file.id, uploadedBy: actingUserId(p), now });
    await audit(trx, {
      ...auditActor(p),
      action: 'invoice.attachment_added',
      subjectType: 'invoice',
      subjectId: invoice.id,
      details: { attachment_id: id, file_name: file.filename, content_type: file.content_type, byte_size: file.byte_size, sha256: file.sha256 },
    });
    return presentAttachment((await findAttachment(trx, p.companyId, invoice.id, id))!);
  });
}

/**
 * Removes an attachment and its file, in any state of the invoice. An e-mail still
 * waiting in the outbox with the file would go out without it (or not at all), so
 * while one does, the removal is a 409.
 */
export async function removeInvoiceAttachment(db: Kysely<DB>, p: Principal, invoiceId: string, id: string): Promise<void> {
  assertMayUseInvoices(p);
  await withTenant(db, p.companyId, async (trx) => {
    const invoice = await invoiceOf(trx, p, invoiceId, true);
    const row = await attachmentOf(trx, p.companyId, invoice.id, id);
    if (await pendingMailCarries(trx, p.companyId, row.file_id)) {
      throw conflict('This file goes with an e-mail that is still waiting to be delivered; remove it once the e-mail has gone.');
    }
    await deleteAttachmentRow(trx, p.companyId, row.id);
    await deleteFile(trx, p.companyId, row.file_id);
    await audit(trx, {
      ...auditActor(p),
      action: 'invoice.attachment_removed',
      subjectType: 'invoice',
      subjectId: invoice.id,
      details: { attachment_id: row.id, file_name: row.filename },
    });
  });
}

/** The attachment's bytes, name and type (the download). */
export async function getAttachmentFile(db: Kysely<DB>, p: Principal, invoiceId: string, id: string) {
  assertMayUseInvoices(p);
  return withTenant(db, p.companyId, async (trx) => {
    const invoice = await invoiceOf(trx, p, invoiceId);
    const row = await attachmentOf(trx, p.companyId, invoice.id, id);
    const file = await readFile(trx, p.companyId, row.file_id);
    if (!file) throw notFound('attachment');
    return file;
  });
}

/** An attachment chosen for an e-mail: what the outbox needs to attach its bytes at delivery. */
export interface MailAttachmentChoice {
  id: string;
  file_id: string;
  filename: string;
  content_type: string;
}

/**
 * The invoice's attachments named by `ids` (a message's `attachment_ids`), in the
 * order given, for the caller's transaction that holds the invoice's lock: each must
 * be an attachment of this invoice (400 naming the element), none twice.
 */
export async function attachmentsForMail(trx: Tx, companyId: string, invoiceId: string, ids: readonly string[]): Promise<MailAttachmentChoice[]> {
  if (ids.length === 0) return [];
  const rows = new Map((await attachmentsOf(trx, companyId, invoiceId)).map((r) => [r.id, r]));
  const seen = new Set<string>();
  return ids.map((id, i) => {
    const field = `attachment_ids.${i}`;
    const row = rows.get(id);
    if (!row) throw badRequest(`${field} is not an attachment of this invoice.`, { field });
    if (seen.has(id)) throw badRequest(`${field}: the attachment is listed twice.`, { field });
    seen.add(id);
    return { id: row.id, file_id: row.file_id, filename: row.filename, content_type: row.content_type };
  });
}
