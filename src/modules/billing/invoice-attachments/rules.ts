import type { UploadKind } from '../../workspace/files/index.ts';

/**
 * Invoice attachments (issue 25 item 4): files added to an invoice in the web app,
 * checked as receipts are (workspace/files/uploads.ts: 10 MiB, PDF/PNG/JPEG/GIF/HEIC
 * by bytes and declared type), downloaded through the spec's `download_url`, and
 * chosen per e-mail. They can be added and removed in every state of the invoice
 * (Harvest lets you remove them at any time), except that a file still waiting in
 * the outbox to go out with an e-mail is kept until it went.
 */

/** The upload's form part is named `file`. */
export const ATTACHMENT_UPLOAD: UploadKind = { part: 'file', article: 'An attachment', noun: 'attachment' };

/**
 * At most this many files per invoice: every one may go with one e-mail, and a
 * mail server refuses a message much beyond 25 MB, so the list stays one a person
 * can choose from.
 */
export const ATTACHMENTS_PER_INVOICE_MAX = 20;

/** The spec's link to an attachment's bytes (the backup's `download_url`). */
export const attachmentDownloadUrl = (invoiceId: string, attachmentId: string) =>
  `/api/v2/invoices/${invoiceId}/attachments/${attachmentId}/download`;
