import multipart from '@fastify/multipart';
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { publicUrlOf } from '../../../config.ts';
import { badRequest } from '../../../errors.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import { principalOf } from '../../../http/security.ts';
import { MULTIPART_LIMITS, readTextUploadForm } from '../../workspace/files/index.ts';
import { DATE_ORDERS, TRACKERS, chosen, type DateOrder, type Tracker } from './row.ts';
import { ImportForm, ImportReportSchema } from './schemas.ts';
import { importFile } from './service.ts';

/**
 * The web app's Import page (issue 27 item 3): a preview of how an export maps onto the
 * workspace, and the import. Session routes for owners and administrators; operators have
 * `sheaf import`. Both take multipart/form-data: the `file` part and optional `format` and `date_order`.
 */

const IMPORT_UPLOAD = { part: 'file', article: 'An export', noun: 'export' };

/** The request's file, tracker and date order, from its body's preValidation to the handler. */
const uploads = new WeakMap<FastifyRequest, { data: Buffer; tracker: Tracker | undefined; dates: DateOrder | undefined }>();

const readImport: preValidationAsyncHookHandler = async (request) => {
  if (!request.isMultipart()) throw badRequest('Upload the export as the `file` part of a multipart/form-data body.', { field: 'file' });
  const form = await readTextUploadForm(request, IMPORT_UPLOAD);
  const extra = Object.keys(form.fields).find((f) => f !== 'format' && f !== 'date_order');
  if (extra !== undefined) throw badRequest(`Unknown form field '${extra}': an import has a file part and, optionally, format and date_order.`, { field: extra });
  if (!form.file) throw badRequest('The form has no file part named file.', { field: 'file' });
  const { format, date_order: dateOrder } = form.fields;
  const tracker = chosen(TRACKERS, format);
  if (tracker === null) throw badRequest(`format must be auto or one of ${TRACKERS.join(', ')}, not '${format}'.`, { field: 'format' });
  const dates = chosen(DATE_ORDERS, dateOrder);
  if (dates === null) throw badRequest(`date_order must be auto or one of ${DATE_ORDERS.join(', ')}, not '${dateOrder}'.`, { field: 'date_order' });
  uploads.set(request, { data: form.file.data, tracker, dates });
  request.body = {
    file: { file_name: form.file.filename, byte_size: form.file.data.length },
    ...(format !== undefined ? { format } : {}),
    ...(dateOrder !== undefined ? { date_order: dateOrder } : {}),
  };
};

export async function importWebRoutes(app: TypedApp) {
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  const config = { access: 'administrator', web: true } as const;
  const tags = ['web'];
  const run = (request: FastifyRequest, dryRun: boolean) => {
    const upload = uploads.get(request)!;
    return importFile(app.db, principalOf(request), upload.data, {
      tracker: upload.tracker,
      dates: upload.dates,
      dryRun,
      source: 'web',
      baseUrl: publicUrlOf(app.config),
      now: app.config.clock(),
    });
  };
  const description =
    'multipart/form-data: the `file` part (a CSV export, at most 10 MiB: 413) and optionally `format` and `date_order`. ' +
    'A file that is not a known export, or has a row that cannot be mapped, is 400 naming field file, with `problems` listing each line and why; nothing of it is imported.';

  app.post(
    '/web/api/imports/preview',
    {
      config,
      preValidation: readImport,
      schema: {
        tags,
        operationId: 'previewImport',
        summary: "Preview an import: how the file's people, clients, projects, tasks and rates map; nothing is written",
        description,
        body: { content: { 'multipart/form-data': { schema: ImportForm } } },
        response: { 200: ImportReportSchema, ...ErrorResponses },
      },
    },
    async (request) => run(request, true),
  );

  app.post(
    '/web/api/imports',
    {
      config,
      preValidation: readImport,
      schema: {
        tags,
        operationId: 'importTime',
        summary: 'Import an export: all of it in one transaction, or nothing',
        description: `${description} Rows imported before are skipped, so the same file twice adds nothing. 201 with the report.`,
        body: { content: { 'multipart/form-data': { schema: ImportForm } } },
        response: { 201: ImportReportSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await run(request, false)),
  );
}
