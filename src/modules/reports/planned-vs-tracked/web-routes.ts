import { Type } from '@sinclair/typebox';
import { ErrorResponses } from '../../../http/schemas.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import { principalOf } from '../../../http/security.ts';
import { plannedVsTracked } from './service.ts';

const Day = Type.String({ format: 'date', description: 'YYYY-MM-DD' });

/** `GET /web/api/reports/planned_vs_tracked`: the planner's hours against the tracked ones, per project. */
export async function plannedVsTrackedWebRoutes(app: TypedApp) {
  app.get(
    '/web/api/reports/planned_vs_tracked',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags: ['web'],
        operationId: 'getPlannedVsTracked',
        summary: 'Planned against tracked hours per project',
        description: 'Owners and administrators every project, managers the projects they manage; the projects with planned or tracked hours in the period.',
        querystring: Type.Object({ from: Day, to: Day }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            projects: Type.Array(
              Type.Object(
                {
                  project: Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String(), client_name: Type.String() }, { additionalProperties: false }),
                  planned_hours: Type.Number(),
                  tracked_hours: Type.Number(),
                  difference_hours: Type.Number({ description: 'tracked less planned' }),
                },
                { additionalProperties: false },
              ),
            ),
          }),
          ...ErrorResponses,
        },
      },
    },
    async (request) => ({ projects: await plannedVsTracked(app.db, principalOf(request), request.query) }),
  );
}
