import { INVOICE_ACCESS } from '../../../access/invoices.ts';
import { sendStoredFile } from '../../../http/files.ts';
import { NoQuery, type TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { UPLOAD_TYPES } from '../../workspace/files/index.ts';
import { AttachmentParams } from './schemas.ts';
import { getAttachmentFile } from './service.ts';

/** The spec's `download_url` of an invoice attachment (uploads and removals are the web app's: web-routes.ts). */
export async function invoiceAttachmentsRoutes(app: TypedApp) {
  app.get(
    '/api/v2/invoices/:invoice_id/attachments/:attachment_id/download',
    {
      config: { access: INVOICE_ACCESS },
      schema: {
        tags: ['invoices'],
        summary: "An invoice attachment's file",
        description:
          'The original bytes with their content type (not JSON), as an attachment with the uploaded file name; private and uncached. ' +
          'Whoever may read the invoice may download its attachments; an unknown, other-workspace or out-of-reach invoice, and an attachment of another invoice, are 404. ' +
          'Attachments are added and removed in the web app; the backup lists them with this link as `download_url`.',
        params: AttachmentParams,
        querystring: NoQuery,
        response: {
          200: {
            description: 'The attached file.',
            content: Object.fromEntries(UPLOAD_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
          },
          ...ErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { invoice_id, attachment_id } = request.params;
      return sendStoredFile(reply, await getAttachmentFile(app.db, principalOf(request), invoice_id, attachment_id));
    },
  );
}
