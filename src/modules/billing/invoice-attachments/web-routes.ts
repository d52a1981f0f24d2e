import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { INVOICE_ACCESS } from '../../../access/invoices.ts';
import { badRequest } from '../../../errors.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { IdParams, NoQuery, type TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { MULTIPART_LIMITS, readUploadForm, type Upload } from '../../workspace/files/index.ts';
import { ATTACHMENT_UPLOAD, ATTACHMENTS_PER_INVOICE_MAX } from './rules.ts';
import { AttachmentParams, AttachmentSchema } from './schemas.ts';
import { addInvoiceAttachment, listInvoiceAttachments, removeInvoiceAttachment } from './service.ts';

/** The uploads of requests, from the body's preValidation to the handler. */
const uploads = new WeakMap<FastifyRequest, Upload>();

/**
 * A multipart body of one `file` part and nothing else becomes the JSON-shaped body
 * its schema validates (the file described, its bytes kept aside); a JSON body, or
 * another field, is a 400 naming it.
 */
const readUpload: preValidationAsyncHookHandler = async (request) => {
  if (!request.isMultipart()) throw badRequest('Upload the file as the `file` part of a multipart/form-data body.', { field: 'file' });
  const form = await readUploadForm(request, ATTACHMENT_UPLOAD);
  const extra = Object.keys(form.fields)[0];
  if (extra !== undefined) throw badRequest(`Unknown form field '${extra}': an upload has one part, named file.`, { field: extra });
  if (!form.file) throw badRequest('The form has no file part named file.', { field: 'file' });
  uploads.set(request, form.file);
  request.body = { file: { file_name: form.file.filename, content_type: form.file.contentType, byte_size: form.file.data.length } };
};

const UploadForm = Type.Object(
  {
    file: Type.Object(
      { file_name: Type.String(), content_type: Type.String(), byte_size: Type.Integer() },
      { additionalProperties: false, description: 'The file part: at most 10 MiB, a PDF, PNG, JPEG, GIF or HEIC file.' },
    ),
  },
  { additionalProperties: false },
);

/**
 * The web app's attachment routes (issue 25 item 4): list, upload and remove, for
 * whoever may see the invoice. The download is the API's (routes.ts).
 */
export async function invoiceAttachmentsWebRoutes(app: TypedApp) {
  // Multipart parsing for this plugin's routes only; every other route still answers 415 to it.
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  const tags = ['web'];

  app.get(
    '/web/api/invoices/:id/attachments',
    {
      config: { access: INVOICE_ACCESS, web: true },
      schema: {
        tags,
        operationId: 'listInvoiceAttachments',
        summary: "The invoice's attachments, oldest first",
        params: IdParams,
        querystring: NoQuery,
        response: { 200: Type.Object({ attachments: Type.Array(AttachmentSchema) }, { additionalProperties: false }), ...ErrorResponses },
      },
    },
    async (request) => ({ attachments: await listInvoiceAttachments(app.db, principalOf(request), request.params.id) }),
  );

  app.post(
    '/web/api/invoices/:id/attachments',
    {
      config: { access: INVOICE_ACCESS, web: true, idempotent: true },
      preValidation: readUpload,
      schema: {
        tags,
        operationId: 'addInvoiceAttachment',
        summary: 'Attach a file to the invoice',
        description:
          `multipart/form-data with one \`file\` part, checked as receipts are: at most 10 MiB (413), a PDF, PNG, JPEG, GIF or HEIC file by its bytes and its declared type (415; 400 when they disagree). ` +
          `In any state of the invoice; at most ${ATTACHMENTS_PER_INVOICE_MAX} per invoice (409). 201 with the attachment.`,
        params: IdParams,
        body: { content: { 'multipart/form-data': { schema: UploadForm } } },
        response: { 201: AttachmentSchema, ...ErrorResponses },
      },
    },
    async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
      const attachment = await addInvoiceAttachment(requestDb(request), principalOf(request), request.params.id, uploads.get(request) ?? null, app.config.clock());
      return reply.code(201).send(attachment);
    },
  );

  app.delete(
    '/web/api/invoices/:invoice_id/attachments/:attachment_id',
    {
      config: { access: INVOICE_ACCESS, web: true },
      schema: {
        tags,
        operationId: 'removeInvoiceAttachment',
        summary: 'Remove an attachment and its file',
        description: 'In any state of the invoice; 409 while an e-mail that carries the file is still waiting to be delivered. 204.',
        params: AttachmentParams,
        querystring: NoQuery,
        response: { 204: Type.Null({ description: 'Removed.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      await removeInvoiceAttachment(app.db, principalOf(request), request.params.invoice_id, request.params.attachment_id);
      return reply.code(204).send(null);
    },
  );
}
