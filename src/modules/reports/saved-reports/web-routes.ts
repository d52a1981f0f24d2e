import { Type } from '@sinclair/typebox';
import { requestDb } from '../../../http/idempotency.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { IdParams, NoQuery, rejectReadOnly, type TypedApp } from '../../../http/route-kit.ts';
import { principalOf } from '../../../http/security.ts';
import { SavedReportCreateBody, SavedReportPatchBody, SavedReportSchema } from './schemas.ts';
import { createSavedReport, deleteSavedReport, getSavedReport, listSavedReports, updateSavedReport } from './service.ts';

/**
 * Saved reports in the web app (`/web/api/saved_reports`): the spec names them only as a
 * backup resource, so they are session-only. Everyone may save the reports they may run.
 */

const READ_ONLY = ['id', 'owner', 'is_own', 'may_delete', 'range', 'next_send_date', 'created_at', 'updated_at'];

export async function savedReportsWebRoutes(app: TypedApp) {
  const config = { access: 'authenticated', web: true } as const;
  const tags = ['web'];

  app.get(
    '/web/api/saved_reports',
    {
      config,
      schema: {
        tags,
        operationId: 'listSavedReports',
        summary: 'List saved reports',
        description: "The caller's own saved reports and the workspace's shared ones of reports the caller may run, by name; each with its period resolved today.",
        querystring: NoQuery,
        response: { 200: Type.Object({ saved_reports: Type.Array(SavedReportSchema) }), ...ErrorResponses },
      },
    },
    async (request) => ({ saved_reports: await listSavedReports(app.db, principalOf(request), app.config.clock()) }),
  );

  app.get(
    '/web/api/saved_reports/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'getSavedReport',
        summary: 'Get a saved report',
        description: 'One the caller owns, or a shared one of a report the caller may run (404 otherwise).',
        params: IdParams,
        querystring: NoQuery,
        response: { 200: SavedReportSchema, ...ErrorResponses },
      },
    },
    async (request) => getSavedReport(app.db, principalOf(request), request.params.id, app.config.clock()),
  );

  app.post(
    '/web/api/saved_reports',
    {
      config: { ...config, idempotent: true },
      preValidation: rejectReadOnly({ readOnly: READ_ONLY }),
      schema: {
        tags,
        operationId: 'createSavedReport',
        summary: 'Save a report',
        description:
          'Only a report the caller may run (403 otherwise). A property the report does not take (group_by outside the time report, is_active outside the project budget, a period on the project budget, from and to without period custom) is 400 naming it. A schedule sends first when the next week or month begins.',
        body: SavedReportCreateBody,
        response: { 201: SavedReportSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createSavedReport(requestDb(request), principalOf(request), request.body, app.config.clock())),
  );

  app.patch(
    '/web/api/saved_reports/:id',
    {
      config,
      preValidation: rejectReadOnly({ readOnly: READ_ONLY }),
      schema: {
        tags,
        operationId: 'updateSavedReport',
        summary: 'Change a saved report',
        description:
          'Its owner only (403 for others who see it). A changed report kind resets the properties the new kind takes to its defaults unless they are sent. A changed schedule sends first when the next week or month begins.',
        params: IdParams,
        body: SavedReportPatchBody,
        response: { 200: SavedReportSchema, ...ErrorResponses },
      },
    },
    async (request) => updateSavedReport(app.db, principalOf(request), request.params.id, request.body, app.config.clock()),
  );

  app.delete(
    '/web/api/saved_reports/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'deleteSavedReport',
        summary: 'Delete a saved report',
        description: 'Its owner; owners and administrators also delete shared ones. Its delivery records go with it.',
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      await deleteSavedReport(app.db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
