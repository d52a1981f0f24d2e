import { Type } from '@sinclair/typebox';
import { fileResponse, FormatQuery, sendExport } from '../../../http/exports.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import { principalOf } from '../../../http/security.ts';
import type { ReportContext } from '../reports/index.ts';
import { plannedVsTracked, plannedVsTrackedExport } from './service.ts';

const Day = Type.String({ format: 'date', description: 'YYYY-MM-DD' });

/**
 * `GET /web/api/reports/planned_vs_tracked`: the planner's hours against the tracked ones, per
 * project; `…/export`: the same rows as CSV or XLSX (streamed), with the same checks.
 */
export async function plannedVsTrackedWebRoutes(app: TypedApp) {
  const ctx: ReportContext = { db: app.db, timeouts: app.config.databaseTimeouts, now: () => app.config.clock() };
  const config = { access: 'authenticated', web: true } as const;

  app.get(
    '/web/api/reports/planned_vs_tracked',
    {
      config,
      schema: {
        tags: ['web'],
        operationId: 'getPlannedVsTracked',
        summary: 'Planned against tracked hours per project',
        description: 'Owners and administrators every project, managers the projects they manage; the projects with planned or tracked hours in the period, and the total row (computed by the server).',
        querystring: Type.Object({ from: Day, to: Day }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            projects: Type.Array(
              Type.Object(
                {
                  project: Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String(), client_name: Type.String() }, { additionalProperties: false }),
                  planned_hours: Type.Number(),
                  tracked_hours: Type.Number(),
                  difference_hours: Type.Number({ description: 'tracked less planned, as the two are shown (two places)' }),
                },
                { additionalProperties: false },
              ),
            ),
            totals: Type.Object(
              { planned_hours: Type.Number(), tracked_hours: Type.Number(), difference_hours: Type.Number({ description: 'tracked less planned' }) },
              { additionalProperties: false, description: 'The total row: the exact sums of every row\u2019s hours as shown.' },
            ),
          }),
          ...ErrorResponses,
        },
      },
    },
    async (request) => plannedVsTracked(ctx, principalOf(request), request.query),
  );

  app.get(
    '/web/api/reports/planned_vs_tracked/export',
    {
      config,
      schema: {
        tags: ['web'],
        operationId: 'exportPlannedVsTracked',
        summary: 'Planned against tracked hours per project as CSV or XLSX (streamed)',
        description:
          'The rows of GET /web/api/reports/planned_vs_tracked, with its permissions (owners and administrators every project, managers the projects they manage, others 403): client, project, planned hours, tracked hours and their difference (tracked less planned), as exact decimals of at most six places.',
        querystring: Type.Object({ format: FormatQuery, from: Day, to: Day }, { additionalProperties: false }),
        response: fileResponse('The report as a file (streamed), named in Content-Disposition.'),
      },
    },
    async (request, reply) => sendExport(reply, await plannedVsTrackedExport(ctx, principalOf(request), request.query)),
  );
}
