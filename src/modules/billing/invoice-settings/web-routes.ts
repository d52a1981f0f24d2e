import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { ApiError, badRequest } from '../../../errors.ts';
import { sendStoredFile } from '../../../http/files.ts';
import { NoQuery, type TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { LOGO_MAX_BYTES, LOGO_TYPES } from './logo-limits.ts';
import { InvoiceSettingsPatchBody, InvoiceSettingsSchema } from './schemas.ts';
import { getInvoiceLogo, getInvoiceSettings, removeInvoiceLogo, setInvoiceLogo, updateInvoiceSettings, type LogoUpload } from './service.ts';

/**
 * The web app's Settings -> Invoicing (session-only routes). Owners,
 * administrators and managers read the settings (creating an invoice applies
 * them); owners and administrators change them and the logo, which is uploaded
 * as the one `logo` file part of a multipart/form-data body.
 */

const tags = ['web'];
/** `v`: the upload time the page adds, so a new logo is a new address and no cached image shows. */
const LogoQuery = Type.Object({ v: Type.Optional(Type.String({ maxLength: 64 })) }, { additionalProperties: false });
const PATH = '/web/api/invoice-settings';

/** The SVG logo is served to the browser only as an image: nothing in it may run, even opened directly. */
const LOGO_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** Reads the one `logo` file part (413 over the limit, 400 for anything else sent). */
async function readLogoPart(request: FastifyRequest): Promise<LogoUpload> {
  if (!request.isMultipart()) throw badRequest('Upload the logo as the `logo` file part of a multipart/form-data body.', { field: 'logo' });
  let upload: LogoUpload | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 0, parts: 1 } })) {
      if (part.type !== 'file' || part.fieldname !== 'logo') {
        if (part.type === 'file') part.file.resume();
        throw new ApiError('unknown_field', `Unknown part '${part.fieldname}'; send only the logo file part, named logo.`, { field: part.fieldname });
      }
      const data = await part.toBuffer();
      upload = { filename: part.filename, contentType: part.mimetype, data };
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError('payload_too_large', `The logo is larger than the ${LOGO_MAX_BYTES / 1024} KiB limit.`, { field: 'logo' });
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT') {
      throw badRequest('Send only the logo file part, named logo.', { field: 'logo' });
    }
    throw badRequest('The multipart/form-data body is malformed.', { field: 'logo' });
  }
  if (!upload) throw badRequest('The body has no logo file part.', { field: 'logo' });
  return upload;
}

export async function invoiceSettingsWebRoutes(app: TypedApp) {
  // Multipart parsing for this plugin's routes only (the logo upload).
  await app.register(multipart, { limits: { fileSize: LOGO_MAX_BYTES, files: 1 } });

  app.get(
    PATH,
    {
      config: { access: 'authenticated', web: true },
      schema: { tags, operationId: 'getInvoiceSettings', summary: 'The workspace\u2019s invoice settings', querystring: NoQuery, response: { 200: InvoiceSettingsSchema, ...ErrorResponses } },
    },
    async (request) => getInvoiceSettings(app.db, principalOf(request)),
  );

  app.patch(
    PATH,
    {
      config: { access: 'administrator', web: true },
      schema: {
        tags,
        operationId: 'updateInvoiceSettings',
        summary: 'Change invoice settings (any subset)',
        description: 'Owners and administrators. Text settings are cleared with null (or "").',
        body: InvoiceSettingsPatchBody,
        response: { 200: InvoiceSettingsSchema, ...ErrorResponses },
      },
    },
    async (request) => updateInvoiceSettings(app.db, principalOf(request), request.body, app.config.clock()),
  );

  app.get(
    `${PATH}/logo`,
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getInvoiceLogo',
        summary: 'The invoice logo\u2019s bytes (the settings page\u2019s preview)',
        querystring: LogoQuery,
        response: {
          200: { description: 'The logo.', content: Object.fromEntries(LOGO_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) },
          ...ErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const logo = await getInvoiceLogo(app.db, principalOf(request));
      reply.header('Content-Security-Policy', LOGO_CSP).header('Cache-Control', 'private, no-store');
      return sendStoredFile(reply, logo);
    },
  );

  app.put(
    `${PATH}/logo`,
    {
      config: { access: 'administrator', web: true },
      schema: {
        tags,
        operationId: 'setInvoiceLogo',
        summary: 'Upload or replace the invoice logo',
        description: `multipart/form-data with one \`logo\` file part: PNG, JPEG or SVG, at most ${LOGO_MAX_BYTES / 1024} KiB. An SVG with scripts, event handlers or external references is refused (400).`,
        querystring: NoQuery,
        response: { 200: InvoiceSettingsSchema, ...ErrorResponses },
      },
    },
    async (request) => {
      const upload = await readLogoPart(request);
      return setInvoiceLogo(app.db, principalOf(request), upload, app.config.clock());
    },
  );

  app.delete(
    `${PATH}/logo`,
    {
      config: { access: 'administrator', web: true },
      schema: { tags, operationId: 'removeInvoiceLogo', summary: 'Remove the invoice logo', querystring: NoQuery, response: { 200: InvoiceSettingsSchema, ...ErrorResponses } },
    },
    async (request) => removeInvoiceLogo(app.db, principalOf(request), app.config.clock()),
  );
}
