import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { LinksSchema, pageEnvelope, type PageParams } from '../../../http/pagination.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { BudgetQuery, TeamQuery, UninvoicedQuery } from './schemas.ts';
import { budgetReport, teamReport, uninvoicedReport, type ReportContext } from './service.ts';

export const ReportEnvelope = {
  per_page: Type.Integer(),
  total_pages: Type.Integer(),
  total_entries: Type.Integer(),
  page: Type.Integer(),
  next_page: Type.Union([Type.Integer(), Type.Null()]),
  previous_page: Type.Union([Type.Integer(), Type.Null()]),
  links: LinksSchema,
};
const Num = Type.Number();
const NullableNum = Type.Union([Type.Number(), Type.Null()]);

const BudgetResult = Type.Object({
  project_id: Type.String(),
  project_name: Type.String(),
  client_id: Type.String(),
  client_name: Type.String(),
  budget_is_monthly: Type.Boolean(),
  budget_by: Type.String(),
  is_active: Type.Boolean(),
  budget: NullableNum,
  budget_spent: NullableNum,
  budget_remaining: NullableNum,
  currency: Type.Union([Type.String(), Type.Null()], {
    description: 'The currency of a money budget (fees: the project client\'s, else the workspace\'s; internal cost: the workspace\'s); null for hours. Amounts of different currencies are never added.',
  }),
});

export const UninvoicedResult = Type.Object({
  client_id: Type.String(),
  client_name: Type.String(),
  project_id: Type.String(),
  project_name: Type.String(),
  currency: Type.String(),
  total_hours: Num,
  uninvoiced_hours: Num,
  uninvoiced_expenses: Num,
  uninvoiced_amount: Num,
});

export const TeamResult = Type.Object({
  user_id: Type.String(),
  user_name: Type.String(),
  is_contractor: Type.Boolean(),
  total_hours: Num,
  billable_hours: Num,
  currency: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description:
        "The currency of billable_amount: the one currency of the person's billable work (the workspace's when there is none); null when the work is in several currencies.",
    }),
  ),
  billable_amount: Type.Optional(
    Type.Union([Num, Type.Null()], {
      description: 'The billable amount when all of it is in one currency; null when it is in several (amounts of different currencies are never added: see billable_amounts).',
    }),
  ),
  billable_amounts: Type.Optional(
    Type.Array(
      Type.Object({ currency: Type.String(), billable_hours: Num, billable_amount: Num }),
      { description: "Per currency of the person's billable work (the project client's currency, else the workspace's), ordered by currency code; empty without billable time." },
    ),
  ),
});

/** The page envelope of a report: the API's, with the page numbers as well as the links. */
export function reportEnvelope<T>(request: FastifyRequest, { results, page, total }: { results: T[]; page: PageParams; total: number }) {
  const envelope = pageEnvelope(request, page, total);
  return {
    results,
    ...envelope,
    next_page: page.page < envelope.total_pages ? page.page + 1 : null,
    previous_page: page.page > 1 ? Math.min(page.page - 1, envelope.total_pages) : null,
  };
}

export async function reportsRoutes(app: TypedApp) {
  app.features.add('financial-reports-v1', 'project-task-budgets');
  const ctx: ReportContext = { db: app.db, timeouts: app.config.databaseTimeouts, now: () => app.config.clock() };

  app.get(
    '/api/v2/reports/project_budget',
    {
      config: { access: 'view_billable_rates' },
      schema: {
        tags: ['reports'],
        summary: 'Budget and consumption per project',
        description:
          'One result per project in scope (administrators: all; managers with View billable rates: the projects they actively manage). Amounts are in the unit of budget_by: hours for project, task and person budgets; money for task_fees (rounded time × the rate in force on each work date) and project_cost (internal cost, shown only with View internal costs, else null). Monthly budgets count the current month in the workspace time zone.',
        querystring: BudgetQuery,
        response: { 200: Type.Object({ results: Type.Array(BudgetResult), ...ReportEnvelope }), ...ErrorResponses },
      },
    },
    async (request) => reportEnvelope(request, await budgetReport(ctx, principalOf(request), request.query)),
  );

  app.get(
    '/api/v2/reports/uninvoiced',
    {
      config: { access: 'view_billable_rates' },
      schema: {
        tags: ['reports'],
        summary: 'Uninvoiced time and expenses per project',
        description:
          'from and to (inclusive, YYYYMMDD or YYYY-MM-DD, to at most 365 days after from) select work by its date. Only billable, unbilled work counts; running and rejected time never; with invoice_before_approval off only approved work. Time is rounded by the workspace rule and priced at the rate in force on its date. Fixed-fee projects contribute their fee minus non-voided service invoice lines once the report end reaches their start (or creation) date. Needs View billable rates and View invoices.',
        querystring: UninvoicedQuery,
        response: { 200: Type.Object({ results: Type.Array(UninvoicedResult), ...ReportEnvelope }), ...ErrorResponses },
      },
    },
    async (request) => reportEnvelope(request, await uninvoicedReport(ctx, principalOf(request), request.query)),
  );

  app.get(
    '/api/v2/reports/time/team',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['reports'],
        summary: 'Time per person',
        description:
          'Per person over from..to (inclusive, YYYYMMDD or YYYY-MM-DD): total and billable hours (rounded by the workspace rule) and, for callers with View billable rates, the billable amounts at the rates in force on each work date, per currency (billable_amounts; work is in its project client\'s currency, else the workspace\'s). Amounts of different currencies are never added: currency and billable_amount are null when the work is in several. Administrators see everyone; managers themselves and their teammates; others 403.',
        querystring: TeamQuery,
        response: { 200: Type.Object({ results: Type.Array(TeamResult), ...ReportEnvelope }), ...ErrorResponses },
      },
    },
    async (request) => reportEnvelope(request, await teamReport(ctx, principalOf(request), request.query)),
  );
}
