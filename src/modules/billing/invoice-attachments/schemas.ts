import { Type } from '@sinclair/typebox';

/** An invoice's attachment as the web routes answer it (the backup's record has the same fields). */
export const AttachmentSchema = Type.Object(
  {
    id: Type.String(),
    invoice_id: Type.String(),
    file_name: Type.String(),
    content_type: Type.String(),
    byte_size: Type.Integer(),
    created_at: Type.String({ format: 'date-time' }),
    download_url: Type.String({ description: 'GET it (same credentials as the invoice) for the bytes with their content type.' }),
  },
  { additionalProperties: false },
);

/** `/invoices/:invoice_id/attachments/:attachment_id/…` */
export const AttachmentParams = Type.Object({ invoice_id: Type.String(), attachment_id: Type.String() }, { additionalProperties: false });
