import { Type } from '@sinclair/typebox';
import type { TypedApp } from '../../../http/route-kit.ts';
import { Enum, ErrorResponses, OrNull } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import type { ReportContext } from '../reports/index.ts';
import { BUDGETS_SHOWN, homeOf, RECENT } from './service.ts';

/** The home page (see service.ts for its sections and who sees which). */

const Amount = Type.Object({ currency: Type.String(), amount: Type.Number() }, { additionalProperties: false });

const Home = Type.Object(
  {
    today: Type.String({ format: 'date', description: 'Today in the workspace time zone.' }),
    week: Type.Object(
      {
        from: Type.String({ format: 'date', description: 'The first day of the week (the workspace week_start).' }),
        to: Type.String({ format: 'date' }),
        week_start: Enum(['monday', 'sunday', 'saturday']),
        timezone: Type.String(),
        tracked_seconds: Type.Integer({ description: 'Completed time of the week (a running timer is not in it: the page adds it, live).' }),
        expected_hours: OrNull(Type.Number({ description: 'expected_weekly_hours spread over the week\u2019s Monday-to-Friday days (the approvals preflight\u2019s rule); null when not set.' })),
        days: Type.Array(
          Type.Object(
            { date: Type.String({ format: 'date' }), tracked_seconds: Type.Integer(), expected_hours: OrNull(Type.Number()) },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    plan: Type.Array(
      Type.Object(
        {
          project: Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String(), client_name: Type.String() }, { additionalProperties: false }),
          planned_hours: Type.Number(),
        },
        { additionalProperties: false },
      ),
      { description: "The caller's planned hours this week, per project (the planner's assignments of them)." },
    ),
    recent: Type.Array(
      Type.Object(
        {
          project_id: Type.String(),
          project_name: Type.String(),
          project_code: OrNull(Type.String()),
          client_name: Type.String(),
          task_id: Type.String(),
          task_name: Type.String(),
          notes: OrNull(Type.String()),
          last_date: Type.String({ format: 'date' }),
        },
        { additionalProperties: false },
      ),
      { description: `The caller\u2019s last ${RECENT} distinct project, task and notes a timer can start on again.` },
    ),
    approvals: Type.Optional(
      Type.Object(
        {
          weeks: Type.Integer({ description: 'Person-weeks with submitted time or expenses the caller may approve or reject.' }),
          people: Type.Integer(),
        },
        { additionalProperties: false, description: 'Owners, administrators and managers, when approvals are on.' },
      ),
    ),
    budgets: Type.Optional(
      Type.Object(
        {
          count: Type.Integer({ description: 'Active projects watched with a budget used at 80 % or more.' }),
          projects: Type.Array(
            Type.Object(
              {
                project_id: Type.String(),
                project_name: Type.String(),
                client_name: Type.String(),
                budget_by: Type.String(),
                budget_is_monthly: Type.Boolean(),
                budget: Type.Number(),
                budget_spent: Type.Number(),
                currency: OrNull(Type.String({ description: 'A money budget\'s currency (the report\'s); null for hours.' })),
                percent: Type.Integer({ description: 'Spent as a whole percentage of the budget (rounded down).' }),
                level: Enum(['over_80', 'over_100']),
              },
              { additionalProperties: false },
            ),
            { description: `The ${BUDGETS_SHOWN} most used, most used first.` },
          ),
        },
        {
          additionalProperties: false,
          description:
            'Owners and administrators: every active project; managers: the projects they manage. Money budgets only with the permission that shows them (fees: View billable rates; cost: View internal costs).',
        },
      ),
    ),
    uninvoiced: Type.Optional(
      Type.Object(
        {
          from: Type.String({ format: 'date' }),
          to: Type.String({ format: 'date' }),
          amounts: Type.Array(Amount, { description: 'Per currency, by code; never added across currencies.' }),
        },
        { additionalProperties: false, description: 'Owners and administrators: the uninvoiced report\u2019s amounts over the last 365 days.' },
      ),
    ),
    overdue_invoices: Type.Optional(
      Type.Object(
        {
          count: Type.Integer(),
          amounts: Type.Array(Type.Object({ currency: Type.String(), amount: Type.Number(), count: Type.Integer() }, { additionalProperties: false }), {
            description: 'Due amounts per currency, by code.',
          }),
        },
        { additionalProperties: false, description: 'Owners and administrators: open invoices past their due date.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export async function homeWebRoutes(app: TypedApp) {
  const ctx: ReportContext = { db: app.db, timeouts: app.config.databaseTimeouts, now: () => app.config.clock() };

  app.get(
    '/web/api/home',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags: ['web'],
        operationId: 'getHome',
        summary: 'Where the caller stands: the week against expected hours, recent work, and by role approvals, budgets and billing',
        description:
          'Sections by role (absent when the caller may not see them): week and recent for everyone; approvals (when approvals are on) and budgets for owners, administrators and managers; uninvoiced and overdue_invoices for owners and administrators. Amounts are per currency, never added across currencies.',
        response: { 200: Home, ...ErrorResponses },
      },
    },
    async (request) => homeOf(ctx, principalOf(request)),
  );
}
