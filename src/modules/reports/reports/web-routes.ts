import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Principal } from '../../../auth/principal.ts';
import type { RouteAccess } from '../../../access/policy.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { fileResponse, sendExport, type ExportFile } from '../../../http/exports.ts';
import { reportEnvelope, ReportEnvelope, TeamResult, UninvoicedResult } from './routes.ts';
import { BudgetExportQuery, GroupByParam, TeamExportQuery, TeamQuery, TimeExportQuery, TimeQuery, UninvoicedExportQuery, UninvoicedQuery } from './schemas.ts';
import {
  budgetExport,
  teamExport,
  teamReportWithTotals,
  timeExport,
  timeReport,
  uninvoicedExport,
  uninvoicedReportWithTotals,
  type ReportContext,
} from './service.ts';

/**
 * The web app's reports (issue 16 item 5) beyond the API's three: the time report
 * grouped by project, task, person or client over any period, and a streamed CSV
 * or XLSX download of every report table. Each route checks exactly what its API
 * twin checks (access/reports.ts for the API's reports, access/time.ts for time),
 * and the downloads write the API's numbers (the same presenters).
 */

const Amount = Type.Object(
  { currency: Type.String(), billable_hours: Type.Number(), billable_amount: Type.Number() },
  { additionalProperties: false },
);
const TimeGroup = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    client_name: Type.Union([Type.String(), Type.Null()], { description: "The project's client (group_by=project), else null." }),
    hours: Type.Number({ description: 'Rounded hours (each entry rounded by the workspace rule), running timers excluded.' }),
    billable_hours: Type.Number(),
    billable_amounts: Type.Optional(
      Type.Array(Amount, { description: 'Only for callers who see billable rates: per currency, by code, never added across currencies.' }),
    ),
  },
  { additionalProperties: false },
);
const AmountsTotal = Type.Optional(
  Type.Array(Amount, { description: 'Only for callers who see billable rates: the sum of the rows\u2019 amounts per currency, by code, never added across currencies.' }),
);
const TimeTotals = Type.Object(
  { hours: Type.Number(), billable_hours: Type.Number(), billable_amounts: AmountsTotal },
  {
    additionalProperties: false,
    description: 'The total row: the sums of every group\u2019s figures (each entry\u2019s rounded hours and its amount rounded on its own), exact, computed by the server.',
  },
);
const TimeReport = Type.Object(
  {
    from: Type.String({ format: 'date' }),
    to: Type.String({ format: 'date' }),
    group_by: GroupByParam,
    amounts_visible: Type.Boolean({ description: 'Whether billable_amounts are present (the caller sees billable rates).' }),
    results: Type.Array(TimeGroup),
    totals: TimeTotals,
  },
  { additionalProperties: false },
);

const TeamTotals = Type.Object(
  { total_hours: Type.Number(), billable_hours: Type.Number(), billable_amounts: AmountsTotal },
  { additionalProperties: false, description: 'The total row over every person of the report (every page), exact, computed by the server.' },
);
const TeamReport = Type.Object({ results: Type.Array(TeamResult), ...ReportEnvelope, totals: TeamTotals });

const UninvoicedTotal = Type.Object(
  {
    client_id: Type.String(),
    currency: Type.String(),
    total_hours: Type.Number(),
    uninvoiced_hours: Type.Number(),
    uninvoiced_expenses: Type.Number(),
    uninvoiced_amount: Type.Number(),
  },
  { additionalProperties: false },
);
const UninvoicedReport = Type.Object({
  results: Type.Array(UninvoicedResult),
  ...ReportEnvelope,
  totals: Type.Array(UninvoicedTotal, {
    description: 'The total row of each client table (a client and its one currency) of the page, over all of that client\u2019s rows of the report; never across currencies.',
  }),
});

const FileResponse = fileResponse('The report as a file (streamed), named in Content-Disposition.');

export async function reportsWebRoutes(app: TypedApp) {
  const tags = ['web'];
  const ctx: ReportContext = { db: app.db, timeouts: app.config.databaseTimeouts, now: () => app.config.clock() };

  app.get(
    '/web/api/reports/time',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getTimeReport',
        summary: 'Time over a period grouped by project, task, person or client',
        description:
          'Everyone may run it over the time they see (the time entry list\u2019s rule: administrators everyone\u2019s; managers their own, their teammates\u2019 and their managed projects\u2019; others their own). Hours are rounded per entry by the workspace rule; running timers are left out. billable_amounts (per currency, at the rate in force on each work date) only for callers who see billable rates. from..to inclusive, any length. Filters narrow it; an id from elsewhere matches nothing.',
        querystring: TimeQuery,
        response: { 200: TimeReport, ...ErrorResponses },
      },
    },
    async (request) => timeReport(ctx, principalOf(request), request.query),
  );

  app.get(
    '/web/api/reports/team',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getTeamReportWithTotals',
        summary: 'The team time report with its total row',
        description:
          'GET /api/v2/reports/time/team (the same query, checks, rows and page) and `totals`: the hours, billable hours and, for callers who see billable rates, the amounts per currency of every person of the report.',
        querystring: TeamQuery,
        response: { 200: TeamReport, ...ErrorResponses },
      },
    },
    async (request) => {
      const report = await teamReportWithTotals(ctx, principalOf(request), request.query);
      return { ...reportEnvelope(request, report), totals: report.totals };
    },
  );

  app.get(
    '/web/api/reports/uninvoiced',
    {
      config: { access: 'view_billable_rates', web: true },
      schema: {
        tags,
        operationId: 'getUninvoicedReportWithTotals',
        summary: 'The uninvoiced report with the total row of each client',
        description:
          'GET /api/v2/reports/uninvoiced (the same query, checks, rows and page) and `totals`: per client and currency, the sums of all its rows of the report.',
        querystring: UninvoicedQuery,
        response: { 200: UninvoicedReport, ...ErrorResponses },
      },
    },
    async (request) => {
      const report = await uninvoicedReportWithTotals(ctx, principalOf(request), request.query);
      return { ...reportEnvelope(request, report), totals: report.totals };
    },
  );

  /** A streamed download: the file `build` describes, for the caller, from the route's query. */
  function exportRoute<Q extends TSchema>(
    url: string,
    access: RouteAccess,
    schema: { operationId: string; summary: string; description: string; querystring: Q },
    build: (ctx: ReportContext, p: Principal, query: Static<Q>) => Promise<ExportFile>,
  ) {
    app.get<{ Querystring: Static<Q> }>(
      url,
      { config: { access, web: true }, schema: { tags, ...schema, response: FileResponse } },
      async (request, reply) => sendExport(reply, await build(ctx, principalOf(request), request.query)),
    );
  }

  exportRoute(
    '/web/api/reports/project_budget/export',
    'view_billable_rates',
    {
      operationId: 'exportProjectBudgetReport',
      summary: 'The project budget report as CSV or XLSX (streamed)',
      description: 'The rows and numbers of GET /api/v2/reports/project_budget (every page), with its permissions.',
      querystring: BudgetExportQuery,
    },
    budgetExport,
  );

  exportRoute(
    '/web/api/reports/uninvoiced/export',
    'view_billable_rates',
    {
      operationId: 'exportUninvoicedReport',
      summary: 'The uninvoiced report as CSV or XLSX (streamed)',
      description: 'The rows and numbers of GET /api/v2/reports/uninvoiced (every page), with its permissions and its 365-day range.',
      querystring: UninvoicedExportQuery,
    },
    uninvoicedExport,
  );

  exportRoute(
    '/web/api/reports/team/export',
    'authenticated',
    {
      operationId: 'exportTeamReport',
      summary: 'The team time report as CSV or XLSX (streamed)',
      description:
        'The rows and numbers of GET /api/v2/reports/time/team (every page), with its permissions: one amount column per currency of the workspace, for callers who see billable rates.',
      querystring: TeamExportQuery,
    },
    teamExport,
  );

  exportRoute(
    '/web/api/reports/time/export',
    'authenticated',
    {
      operationId: 'exportTimeReport',
      summary: 'The time report as CSV or XLSX (streamed): the grouped table, or every entry',
      description:
        'rows=groups: the rows and numbers of GET /web/api/reports/time (group_by defaults to project). rows=entries: each visible entry of the period (date, person, client, project, task, notes, hours, rounded hours, billable, and for callers who see billable rates its currency and amount), read in keyset batches. The same visibility as the time report.',
      querystring: TimeExportQuery,
    },
    timeExport,
  );
}
