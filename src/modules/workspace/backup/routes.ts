import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { sendStoredFile } from '../../../http/files.ts';
import { principalOf } from '../../../http/security.ts';
import { plainJsonSerializer } from '../../../http/serializers.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { LinksSchema } from '../../../http/pagination.ts';
import { IdParams, NoQuery, type TypedApp } from '../../../http/route-kit.ts';
import { UPLOAD_TYPES } from '../files/index.ts';
import { BACKUP_DEFAULT_PER_PAGE, BACKUP_MAX_PER_PAGE, BACKUP_SCHEMA_VERSION } from './resources.ts';
import { backupReadAhead, invoiceExpenseReceipt, manifest, resourcePage, resourcePath } from './service.ts';

/**
 * `/api/v2/backup`: the manifest, one page of one resource, and the bytes of an
 * invoice's expense-receipt copy. Owners and administrators only (route access
 * `administrator`; the service asks `mayExportBackup` as well).
 */

const PageQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Page number, from 1 (default 1).' })),
    per_page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: BACKUP_MAX_PER_PAGE,
        description: `Parent records per page, 1 to ${BACKUP_MAX_PER_PAGE} (default ${BACKUP_DEFAULT_PER_PAGE}); nested arrays come whole inside their parent.`,
      }),
    ),
    after: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Opaque keyset cursor carried by `links.next`: the page continues after this record. Follow the links rather than building it.',
      }),
    ),
  },
  { additionalProperties: false },
);

const ResourceParams = Type.Object({ resource: Type.String({ description: 'A resource name from the manifest.' }) }, { additionalProperties: false });

const ManifestSchema = Type.Object({
  backup_schema_version: Type.Integer({ description: `Currently ${BACKUP_SCHEMA_VERSION}; check it before processing.` }),
  generated_at: Type.String({ format: 'date-time' }),
  workspace: Type.Object({ id: Type.String(), name: Type.String() }),
  resources: Type.Array(
    Type.Object({
      name: Type.String(),
      description: Type.String(),
      total_entries: Type.Integer(),
      endpoint: Type.String({ description: 'The first page of the resource.' }),
    }),
  ),
  excluded: Type.Array(Type.String()),
  notes: Type.Array(Type.String()),
});

const PageSchema = Type.Object({
  backup_schema_version: Type.Integer(),
  resource: Type.String(),
  records: Type.Array(Type.Object({}, { additionalProperties: true }), {
    description: 'snake_case keys; ISO 8601 dates and timestamps; decimals and bigints as strings; nested arrays may occur.',
  }),
  per_page: Type.Integer(),
  total_pages: Type.Integer(),
  total_entries: Type.Integer(),
  page: Type.Integer(),
  links: LinksSchema,
});

/**
 * A body already rendered as JSON text, sent as is (a body with its content type skips the
 * serializer). Encoded once into a Buffer here: a string would be measured (Buffer.byteLength,
 * by Fastify and by the compression hook) and then encoded again on the way to the socket.
 */
const sendJsonText = (reply: FastifyReply, text: string) => reply.type('application/json; charset=utf-8').send(Buffer.from(text));

export async function backupRoutes(app: TypedApp) {
  app.get(
    '/api/v2/backup',
    {
      config: { access: 'administrator' },
      schema: {
        tags: ['backup'],
        summary: 'Backup manifest',
        description:
          'Owners and administrators of the selected workspace (personal sync keys: 403). Lists every resource of the backup schema with its record count and first page; `excluded` names what is never exported.',
        querystring: NoQuery,
        response: { 200: ManifestSchema, ...ErrorResponses },
      },
    },
    async (request) => manifest(app.db, principalOf(request), app.config.clock(), app.config.databaseTimeouts),
  );

  app.get(
    '/api/v2/backup/:resource',
    {
      config: { access: 'administrator' },
      // The 200 body is sent as prebuilt text (see the handler); errors are serialized plainly.
      serializerCompiler: plainJsonSerializer,
      schema: {
        tags: ['backup'],
        summary: 'One page of a backup resource',
        description:
          'Follow `links.next` until it is null, with the same headers. Unknown resource names are 404; `page` and `per_page` outside their ranges, or not integers, are 400.',
        params: ResourceParams,
        querystring: PageQuery,
        response: { 200: PageSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const { resource } = request.params;
      const query = request.query;
      const page = query.page ?? 1;
      const perPage = query.per_page ?? BACKUP_DEFAULT_PER_PAGE;
      const result = await resourcePage(
        app.db,
        principalOf(request),
        resource,
        { page, perPage, after: query.after },
        app.config.databaseTimeouts,
        backupReadAhead(app.db),
      );
      const totalPages = Math.max(1, Math.ceil(result.total / perPage));
      const link = (n: number, after?: string) =>
        `${resourcePath(resource)}?page=${n}&per_page=${perPage}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
      const links = {
        first: link(1),
        next: result.nextAfter ? link(page + 1, result.nextAfter) : null,
        previous: page > 1 ? link(Math.min(page - 1, totalPages)) : null,
        last: link(totalPages),
      };
      // The records arrive as JSON text (rendered by PostgreSQL): the page is assembled as text, in the
      // key order of PageSchema, and sent as is (a string with its content type skips the serializer).
      const body =
        `{"backup_schema_version":${BACKUP_SCHEMA_VERSION},"resource":${JSON.stringify(resource)},` +
        `"records":[${result.records.join(',')}],"per_page":${perPage},"total_pages":${totalPages},` +
        `"total_entries":${result.total},"page":${page},"links":${JSON.stringify(links)}}`;
      return sendJsonText(reply, body);
    },
  );

  app.get(
    '/api/v2/backup/files/invoice_expense_receipts/:id',
    {
      config: { access: 'administrator' },
      schema: {
        tags: ['backup'],
        summary: "An invoice's copy of an expense receipt",
        description:
          'The raw bytes with their content type (the `download_url` of an invoice record\'s `expense_receipts`). 404 for any id that is not such a file of this workspace.',
        params: IdParams,
        querystring: NoQuery,
        response: {
          // The receipt's own type: receipts are uploads, so one of these.
          200: { description: 'The file.', content: Object.fromEntries(UPLOAD_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) },
          ...ErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const file = await invoiceExpenseReceipt(app.db, principalOf(request), id, app.config.databaseTimeouts);
      return sendStoredFile(reply, file);
    },
  );
}
