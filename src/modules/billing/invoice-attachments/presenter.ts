import type { AttachmentRow } from './queries.ts';
import { attachmentDownloadUrl } from './rules.ts';

/** An attachment as the web app and the backup show it: never the storage key (the file's id) or the bytes. */
export function presentAttachment(row: AttachmentRow) {
  return {
    id: row.id,
    invoice_id: row.invoice_id,
    file_name: row.filename,
    content_type: row.content_type,
    byte_size: row.byte_size,
    created_at: row.created_at.toISOString(),
    download_url: attachmentDownloadUrl(row.invoice_id, row.id),
  };
}

export type PresentedAttachment = ReturnType<typeof presentAttachment>;
