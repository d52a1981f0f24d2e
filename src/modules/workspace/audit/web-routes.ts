import { Type } from '@sinclair/typebox';
import { CONTENT_TYPES, sendExport } from '../../../http/exports.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { AuditEntrySchema, AuditKindSchema } from './presenter.ts';
import { AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX, exportAuditLog, listAuditLog } from './service.ts';

/**
 * The audit page (issue 28 item 4): the workspace's audit log for owners and
 * administrators, session only (`/web/api/audit_logs`), and the same filtered as a
 * streamed CSV. The API's backup resource `audit_logs` holds the same records.
 */

const FILTERS = {
  person_id: Type.Optional(Type.String({ description: 'Only what this person did (the acting user).' })),
  kind: Type.Optional(AuditKindSchema),
  from: Type.Optional(Type.String({ description: 'First day (YYYY-MM-DD, the workspace\u2019s time zone).' })),
  to: Type.Optional(Type.String({ description: 'Last day, included.' })),
};

const ListQuery = Type.Object(
  {
    ...FILTERS,
    before: Type.Optional(Type.String({ description: 'The `next_before` of the previous page.' })),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: AUDIT_PAGE_MAX, default: AUDIT_PAGE_DEFAULT })),
  },
  { additionalProperties: false },
);
const ExportQuery = Type.Object(FILTERS, { additionalProperties: false });

export async function auditWebRoutes(app: TypedApp) {
  const config = { access: 'administrator', web: true } as const;
  const tags = ['web'];

  app.get(
    '/web/api/audit_logs',
    {
      config,
      schema: {
        tags,
        operationId: 'listAuditLogs',
        summary: 'The workspace\u2019s audit log',
        description:
          'Newest first, filtered by acting person, kind of action and period (days in the workspace\u2019s time zone). ' +
          '`next_before` continues the list (null on its last page). A bad date, id or `to` before `from` is 400 naming the field.',
        querystring: ListQuery,
        response: {
          200: Type.Object({ audit_logs: Type.Array(AuditEntrySchema), next_before: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false }),
          ...ErrorResponses,
        },
      },
    },
    async (request) => listAuditLog(app.db, principalOf(request), request.query),
  );

  app.get(
    '/web/api/audit_logs.csv',
    {
      config,
      schema: {
        tags,
        operationId: 'exportAuditLogs',
        summary: 'The audit log as CSV',
        description: 'Every entry the same filters select, newest first, streamed; times in the workspace\u2019s time zone with their offset.',
        querystring: ExportQuery,
        response: {
          200: { description: 'audit-log.csv, named in Content-Disposition.', content: { [CONTENT_TYPES.csv.split(';')[0]]: { schema: { type: 'string' } } } },
          ...ErrorResponses,
        },
      },
    },
    async (request, reply) => sendExport(reply, await exportAuditLog(app.db, principalOf(request), request.query)),
  );
}
