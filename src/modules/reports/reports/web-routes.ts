import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  mayRunBudgetReport,
  mayRunTeamReport,
  mayRunUninvoicedReport,
  reportProjectScope,
  seesCostBudgets,
  seesTeamAmounts,
  teamScope,
} from '../../../access/reports.ts';
import type { Principal } from '../../../auth/principal.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { longStatementLimit } from '../../../db/timeouts.ts';
import { forbidden } from '../../../errors.ts';
import { MAX_PER_PAGE } from '../../../http/pagination.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { projectBudgetRows, teamRows, uninvoicedRows } from './queries.ts';
import { Bool, presentBudgetRow, presentTeamRow, presentUninvoicedRow, ReportDate, reportPlanning } from './routes.ts';
import { checkRange, MAX_REPORT_SPAN_DAYS, monthOf, parseReportDate } from './rules.ts';
import { CONTENT_TYPES, pagesOf, sendExport, type Column, type Row } from './exports.ts';
import { timeEntryBatch, timeGroupRows, workspaceCurrencies, type GroupBy, type TimeFilter } from './web-queries.ts';

/**
 * The web app's reports (issue 16 item 5) beyond the API's three: the time report
 * grouped by project, task, person or client over any period, and a streamed CSV
 * or XLSX download of every report table. Each route checks exactly what its API
 * twin checks (access/reports.ts for the API's reports, access/time.ts for time),
 * and the downloads write the API's numbers (the same presenters).
 */

const Format = Type.Union([Type.Literal('csv'), Type.Literal('xlsx')], { description: 'csv or xlsx' });
const GroupByParam = Type.Union([Type.Literal('project'), Type.Literal('task'), Type.Literal('person'), Type.Literal('client')]);
const Uuid = Type.String({ format: 'uuid' });

const TimeFilters = {
  from: ReportDate,
  to: ReportDate,
  group_by: GroupByParam,
  project_id: Type.Optional(Uuid),
  client_id: Type.Optional(Uuid),
  user_id: Type.Optional(Uuid),
  task_id: Type.Optional(Uuid),
};
const TimeQuery = Type.Object(TimeFilters, { additionalProperties: false });

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
const TimeReport = Type.Object(
  {
    from: Type.String({ format: 'date' }),
    to: Type.String({ format: 'date' }),
    group_by: GroupByParam,
    amounts_visible: Type.Boolean({ description: 'Whether billable_amounts are present (the caller sees billable rates).' }),
    results: Type.Array(TimeGroup),
  },
  { additionalProperties: false },
);

const BudgetExportQuery = Type.Object({ format: Format, is_active: Type.Optional(Bool) }, { additionalProperties: false });
const UninvoicedExportQuery = Type.Object(
  { format: Format, from: ReportDate, to: ReportDate, include_fixed_fee: Type.Optional(Bool) },
  { additionalProperties: false },
);
const TeamExportQuery = Type.Object({ format: Format, from: ReportDate, to: ReportDate }, { additionalProperties: false });
const TimeExportQuery = Type.Object(
  {
    format: Format,
    ...TimeFilters,
    group_by: Type.Optional(GroupByParam),
    rows: Type.Optional(
      Type.Union([Type.Literal('groups'), Type.Literal('entries')], {
        description: 'groups (default): the grouped table; entries: every entry of the period, one row each.',
      }),
    ),
  },
  { additionalProperties: false },
);

const FileResponse = {
  200: {
    description: 'The report as a file (streamed), named in Content-Disposition.',
    content: {
      [CONTENT_TYPES.csv.split(';')[0]]: { schema: { type: 'string' } },
      [CONTENT_TYPES.xlsx]: { schema: { type: 'string', format: 'binary' } },
    },
  },
  ...ErrorResponses,
};

/** Rows per batch of a download: the API's largest page. */
const BATCH = MAX_PER_PAGE;

/** The period of a time report: dates as the API's reports take them, from ≤ to, any length. */
function timeFilterOf(query: Omit<Static<typeof TimeQuery>, 'group_by'>): TimeFilter {
  const from = parseReportDate(query.from, 'from');
  const to = parseReportDate(query.to, 'to');
  checkRange(from, to);
  return { from, to, projectId: query.project_id, clientId: query.client_id, userId: query.user_id, taskId: query.task_id };
}

function periodName(from: string, to: string) {
  return from === to ? from : `${from}-to-${to}`;
}

const amountColumns = (currencies: string[]): Column[] =>
  currencies.map((currency) => ({ key: `amount_${currency}`, header: `Billable amount (${currency})` }));

const amountCells = (amounts: Array<{ currency: string; billable_amount: number }> | undefined) =>
  Object.fromEntries((amounts ?? []).map((a) => [`amount_${a.currency}`, a.billable_amount]));

const GROUP_HEADERS: Record<GroupBy, string> = { project: 'Project', task: 'Task', person: 'Person', client: 'Client' };

export function presentTimeGroup(r: Awaited<ReturnType<typeof timeGroupRows>>[number], amounts: boolean) {
  return {
    id: r.id,
    name: r.name,
    client_name: r.client_name,
    hours: Number(r.hours),
    billable_hours: Number(r.billable_hours),
    ...(amounts
      ? { billable_amounts: r.billable_amounts.map((a) => ({ currency: a.currency, billable_hours: Number(a.billable_hours), billable_amount: Number(a.billable_amount) })) }
      : {}),
  };
}

export async function reportsWebRoutes(app: FastifyInstance) {
  const tags = ['web'];
  const longStatements = { statement_limit: longStatementLimit(app.config.databaseTimeouts) };
  /** One batch's transaction: the tenant, the reports' planner settings, the long statement limit. */
  const read = <T>(p: Principal, fn: (trx: Tx) => Promise<T>) =>
    withTenant(
      app.db,
      p.companyId,
      async (trx) => {
        await reportPlanning(trx);
        return fn(trx);
      },
      longStatements,
    );

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
    async (request) => {
      const p = principalOf(request);
      const query = request.query as Static<typeof TimeQuery>;
      const filter = timeFilterOf(query);
      const amounts = seesTeamAmounts(p);
      const rows = await read(p, (trx) => timeGroupRows(trx, p, query.group_by, filter, amounts));
      return { from: filter.from, to: filter.to, group_by: query.group_by, amounts_visible: amounts, results: rows.map((r) => presentTimeGroup(r, amounts)) };
    },
  );

  app.get(
    '/web/api/reports/project_budget/export',
    {
      config: { access: 'view_billable_rates', web: true },
      schema: {
        tags,
        operationId: 'exportProjectBudgetReport',
        summary: 'The project budget report as CSV or XLSX (streamed)',
        description: 'The rows and numbers of GET /api/v2/reports/project_budget (every page), with its permissions.',
        querystring: BudgetExportQuery,
        response: FileResponse,
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      if (!mayRunBudgetReport(p)) throw forbidden('The project budget report needs the View billable rates permission.');
      const query = request.query as Static<typeof BudgetExportQuery>;
      const isActive = query.is_active === undefined ? undefined : query.is_active === 'true';
      const costVisible = seesCostBudgets(p);
      const scope = reportProjectScope(p);
      const today = await read(p, async (trx) => {
        const company = await trx.selectFrom('companies').select('timezone').where('id', '=', p.companyId).executeTakeFirstOrThrow();
        return todayIn(company.timezone, app.config.clock());
      });
      const month = monthOf(today);
      const batches = mapPages(
        pagesOf((limit, offset) => read(p, (trx) => projectBudgetRows(trx, p.companyId, scope, { isActive, month, limit, offset, costVisible })), BATCH),
        (r): Row => presentBudgetRow(r, costVisible),
      );
      return sendExport(reply, {
        format: query.format,
        name: `project-budget-${today}`,
        sheet: 'Project budget',
        columns: [
          { key: 'client_name', header: 'Client' },
          { key: 'project_name', header: 'Project' },
          { key: 'budget_by', header: 'Budget by' },
          { key: 'budget_is_monthly', header: 'Monthly' },
          { key: 'is_active', header: 'Active' },
          { key: 'budget', header: 'Budget' },
          { key: 'budget_spent', header: 'Spent' },
          { key: 'budget_remaining', header: 'Remaining' },
        ],
        batches,
      });
    },
  );

  app.get(
    '/web/api/reports/uninvoiced/export',
    {
      config: { access: 'view_billable_rates', web: true },
      schema: {
        tags,
        operationId: 'exportUninvoicedReport',
        summary: 'The uninvoiced report as CSV or XLSX (streamed)',
        description: 'The rows and numbers of GET /api/v2/reports/uninvoiced (every page), with its permissions and its 365-day range.',
        querystring: UninvoicedExportQuery,
        response: FileResponse,
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      if (!mayRunUninvoicedReport(p)) throw forbidden('The uninvoiced report needs the View billable rates and View invoices permissions.');
      const query = request.query as Static<typeof UninvoicedExportQuery>;
      const from = parseReportDate(query.from, 'from');
      const to = parseReportDate(query.to, 'to');
      checkRange(from, to, MAX_REPORT_SPAN_DAYS);
      const options = { from, to, includeFixedFee: query.include_fixed_fee !== 'false' };
      const scope = reportProjectScope(p);
      const batches = mapPages(
        pagesOf((limit, offset) => read(p, (trx) => uninvoicedRows(trx, p.companyId, scope, { ...options, limit, offset })), BATCH),
        (r): Row => ({ ...presentUninvoicedRow(r) }),
      );
      return sendExport(reply, {
        format: query.format,
        name: `uninvoiced-${periodName(from, to)}`,
        sheet: 'Uninvoiced',
        columns: [
          { key: 'client_name', header: 'Client' },
          { key: 'project_name', header: 'Project' },
          { key: 'currency', header: 'Currency' },
          { key: 'total_hours', header: 'Total hours' },
          { key: 'uninvoiced_hours', header: 'Uninvoiced hours' },
          { key: 'uninvoiced_expenses', header: 'Uninvoiced expenses' },
          { key: 'uninvoiced_amount', header: 'Uninvoiced amount' },
        ],
        batches,
      });
    },
  );

  app.get(
    '/web/api/reports/team/export',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'exportTeamReport',
        summary: 'The team time report as CSV or XLSX (streamed)',
        description:
          'The rows and numbers of GET /api/v2/reports/time/team (every page), with its permissions: one amount column per currency of the workspace, for callers who see billable rates.',
        querystring: TeamExportQuery,
        response: FileResponse,
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      if (!mayRunTeamReport(p)) throw forbidden('The team time report is for administrators and managers.');
      const query = request.query as Static<typeof TeamExportQuery>;
      const from = parseReportDate(query.from, 'from');
      const to = parseReportDate(query.to, 'to');
      checkRange(from, to, MAX_REPORT_SPAN_DAYS);
      const amounts = seesTeamAmounts(p);
      const currencies = amounts ? await read(p, (trx) => workspaceCurrencies(trx, p.companyId)) : [];
      const scope = teamScope(p);
      const batches = mapPages(
        pagesOf((limit, offset) => read(p, (trx) => teamRows(trx, p.companyId, scope, { from, to, limit, offset })), BATCH),
        (r): Row => {
          const t = presentTeamRow(r, amounts);
          return { user_name: t.user_name, is_contractor: t.is_contractor, total_hours: t.total_hours, billable_hours: t.billable_hours, ...amountCells('billable_amounts' in t ? t.billable_amounts : undefined) };
        },
      );
      return sendExport(reply, {
        format: query.format,
        name: `team-time-${periodName(from, to)}`,
        sheet: 'Team time',
        columns: [
          { key: 'user_name', header: 'Person' },
          { key: 'is_contractor', header: 'Contractor' },
          { key: 'total_hours', header: 'Hours' },
          { key: 'billable_hours', header: 'Billable hours' },
          ...amountColumns(currencies),
        ],
        batches,
      });
    },
  );

  app.get(
    '/web/api/reports/time/export',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'exportTimeReport',
        summary: 'The time report as CSV or XLSX (streamed): the grouped table, or every entry',
        description:
          'rows=groups: the rows and numbers of GET /web/api/reports/time (group_by defaults to project). rows=entries: each visible entry of the period (date, person, client, project, task, notes, hours, rounded hours, billable, and for callers who see billable rates its currency and amount), read in keyset batches. The same visibility as the time report.',
        querystring: TimeExportQuery,
        response: FileResponse,
      },
    },
    async (request, reply) => {
      const p = principalOf(request);
      const query = request.query as Static<typeof TimeExportQuery>;
      const filter = timeFilterOf(query);
      const groupBy = query.group_by ?? 'project';
      const amounts = seesTeamAmounts(p);
      const name = periodName(filter.from, filter.to);
      if (query.rows === 'entries') {
        return sendExport(reply, {
          format: query.format,
          name: `time-entries-${name}`,
          sheet: 'Time entries',
          columns: [
            { key: 'spent_date', header: 'Date', date: true },
            { key: 'person', header: 'Person' },
            { key: 'client_name', header: 'Client' },
            { key: 'project_name', header: 'Project' },
            { key: 'task_name', header: 'Task' },
            { key: 'notes', header: 'Notes' },
            { key: 'hours', header: 'Hours' },
            { key: 'rounded_hours', header: 'Rounded hours' },
            { key: 'billable', header: 'Billable' },
            ...(amounts ? [{ key: 'currency', header: 'Currency' }, { key: 'billable_amount', header: 'Billable amount' }] : []),
          ],
          batches: entryBatches(p, filter, amounts),
        });
      }
      const currencies = amounts ? await read(p, (trx) => workspaceCurrencies(trx, p.companyId)) : [];
      async function* groups() {
        const rows = await read(p, (trx) => timeGroupRows(trx, p, groupBy, filter, amounts));
        yield rows.map((r): Row => {
          const g = presentTimeGroup(r, amounts);
          return { name: g.name, client_name: g.client_name, hours: g.hours, billable_hours: g.billable_hours, ...amountCells(g.billable_amounts) };
        });
      }
      return sendExport(reply, {
        format: query.format,
        name: `time-by-${groupBy}-${name}`,
        sheet: `Time by ${groupBy}`,
        columns: [
          ...(groupBy === 'project' ? [{ key: 'client_name', header: 'Client' }] : []),
          { key: 'name', header: GROUP_HEADERS[groupBy] },
          { key: 'hours', header: 'Hours' },
          { key: 'billable_hours', header: 'Billable hours' },
          ...amountColumns(currencies),
        ],
        batches: groups(),
      });
    },
  );

  async function* entryBatches(p: Principal, filter: TimeFilter, amounts: boolean): AsyncGenerator<Row[]> {
    let after: { date: string; id: string } | null = null;
    for (;;) {
      const rows = await read(p, (trx) => timeEntryBatch(trx, p, filter, { after, limit: BATCH, amounts }));
      if (rows.length) {
        yield rows.map((r): Row => ({
          spent_date: r.spent_date,
          person: r.person,
          client_name: r.client_name,
          project_name: r.project_name,
          task_name: r.task_name,
          notes: r.notes,
          hours: Number(r.hours),
          rounded_hours: Number(r.rounded_hours),
          billable: r.billable,
          currency: r.currency,
          billable_amount: r.billable_amount === null ? null : Number(r.billable_amount),
        }));
      }
      if (rows.length < BATCH) return;
      const last = rows[rows.length - 1];
      after = { date: last.spent_date, id: last.id };
    }
  }
}

async function* mapPages<T>(pages: AsyncIterable<T[]>, fn: (row: T) => Row): AsyncGenerator<Row[]> {
  for await (const page of pages) yield page.map(fn);
}
