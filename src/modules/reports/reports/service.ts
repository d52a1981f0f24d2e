import type { Static } from '@sinclair/typebox';
import { sql, type Kysely } from 'kysely';
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
import { longStatementLimit, type DatabaseTimeouts } from '../../../db/timeouts.ts';
import type { DB } from '../../../db/types.ts';
import { forbidden } from '../../../errors.ts';
import { MAX_PER_PAGE, type PageParams } from '../../../http/pagination.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { pagesOf, type Column, type ExportFile, type Row } from '../../../http/exports.ts';
import { presentBudgetRow, presentHoursTotals, presentTeamRow, presentTimeEntry, presentTimeGroup, presentUninvoicedRow, presentUninvoicedTotals } from './presenter.ts';
import { countScopedProjects, projectBudgetRows, teamRows, uninvoicedRows } from './queries.ts';
import { checkRange, MAX_REPORT_SPAN_DAYS, monthOf, parseReportDate } from './rules.ts';
import type {
  BudgetExportQuery,
  BudgetQuery,
  TeamExportQuery,
  TeamQuery,
  TimeExportQuery,
  TimeQuery,
  UninvoicedExportQuery,
  UninvoicedQuery,
} from './schemas.ts';
import { timeEntryBatch, timeGroupRows, type GroupBy, type TimeFilter } from './web-queries.ts';
import { workspaceCurrencies } from '../../../db/money-sql.ts';

/**
 * The reports: the API's three (one page each) and the web app's time report, and a streamed
 * download of every report table. Each checks its permission here (access/reports.ts for the
 * API's reports, access/time.ts's visibility for time), so a download runs exactly the checks
 * of its twin and writes its numbers (the same presenters).
 */

/** What a report needs besides the caller: the database, its time limits and the clock. */
export interface ReportContext {
  db: Kysely<DB>;
  timeouts: DatabaseTimeouts;
  now: () => Date;
}

/**
 * Planner settings for a report's transaction (transaction-local set_config; PGlite accepts
 * both). The report queries are costed above PostgreSQL's JIT threshold, and compiling them
 * took 250–300 ms per request on the 1,000,000-entry benchmark, more than it saved: JIT is off.
 * Every query runs as a named prepared statement (src/db/database.ts), and after five runs
 * PostgreSQL may switch to a generic plan that cannot see the workspace or the dates; a
 * report's cost depends on them, so it is planned for its own parameters every time.
 * They are select expressions without parameters, so they ride in withTenant's first statement
 * (its prelude, sent with BEGIN) rather than costing round trips of their own.
 */
export const REPORT_PLANNING = {
  jit: sql<string>`set_config('jit', 'off', true)`,
  plan_cache_mode: sql<string>`set_config('plan_cache_mode', 'force_custom_plan', true)`,
};

/**
 * Every report plans with PostgreSQL's default page cost, not the 1.1 of Sheaf's connections
 * (src/db/database.ts RANDOM_PAGE_COST): on 1,000,000 entries the uninvoiced report's statement
 * took 243–276 ms under 1.1 against 169–175 ms under 4, with merge joins instead of hash joins.
 */
export const REPORTS_RANDOM_PAGE_COST = '4';
const REPORT_PAGE_COST = { random_page_cost: sql<string>`set_config('random_page_cost', ${sql.lit(REPORTS_RANDOM_PAGE_COST)}, true)` };

/**
 * A report's transaction: the tenant, the long statement limit (a report reads a whole
 * workspace's work over up to a year), the reports' page cost and, unless `planned` is false,
 * the reports' other planner settings, all set in the transaction's first statement.
 */
export function readReport<T>(ctx: ReportContext, p: Pick<Principal, 'companyId'>, fn: (trx: Tx) => Promise<T>, planned = true): Promise<T> {
  const limit = { statement_limit: longStatementLimit(ctx.timeouts) };
  return withTenant(ctx.db, p.companyId, (trx) => fn(trx), { ...limit, ...REPORT_PAGE_COST, ...(planned ? REPORT_PLANNING : {}) });
}

export function reportPage(query: { page?: number; per_page?: number }): PageParams {
  return { page: query.page ?? 1, perPage: query.per_page ?? MAX_PER_PAGE };
}

const offsetOf = (page: PageParams) => (page.page - 1) * page.perPage;
const isActiveOf = (value: 'true' | 'false' | undefined) => (value === undefined ? undefined : value === 'true');

/** from..to of a report: dates as YYYYMMDD or YYYY-MM-DD, from ≤ to, at most `maxSpanDays` apart when given. */
function periodOf(query: { from: string; to: string }, maxSpanDays?: number) {
  const from = parseReportDate(query.from, 'from');
  const to = parseReportDate(query.to, 'to');
  checkRange(from, to, maxSpanDays);
  return { from, to };
}

function assertMayRunBudget(p: Principal) {
  if (!mayRunBudgetReport(p)) throw forbidden('The project budget report needs the View billable rates permission.');
}
function assertMayRunUninvoiced(p: Principal) {
  if (!mayRunUninvoicedReport(p)) throw forbidden('The uninvoiced report needs the View billable rates and View invoices permissions.');
}
function assertMayRunTeam(p: Principal) {
  if (!mayRunTeamReport(p)) throw forbidden('The team time report is for administrators and managers.');
}

async function workspaceToday(trx: Tx, p: Principal, now: Date) {
  const company = await trx.selectFrom('companies').select('timezone').where('id', '=', p.companyId).executeTakeFirstOrThrow();
  return todayIn(company.timezone, now);
}

/** GET /api/v2/reports/project_budget: one page of projects in scope; monthly budgets count the current month. */
export async function budgetReport(ctx: ReportContext, p: Principal, query: Static<typeof BudgetQuery>) {
  assertMayRunBudget(p);
  const page = reportPage(query);
  const isActive = isActiveOf(query.is_active);
  const scope = reportProjectScope(p);
  const costVisible = seesCostBudgets(p);
  const { rows, total } = await readReport(ctx, p, async (trx) => {
    const month = monthOf(await workspaceToday(trx, p, ctx.now()));
    const rows = await projectBudgetRows(trx, p.companyId, scope, { isActive, month, limit: page.perPage, offset: offsetOf(page), costVisible });
    const total = rows.length ? Number(rows[0].total) : await countScopedProjects(trx, p.companyId, scope, isActive);
    return { rows, total };
  });
  return { results: rows.map((r) => presentBudgetRow(r, costVisible)), page, total };
}

/** GET /api/v2/reports/uninvoiced: one page of projects with open time and expenses over at most 365 days. */
export async function uninvoicedReport(ctx: ReportContext, p: Principal, query: Static<typeof UninvoicedQuery>) {
  const { rows: _rows, ...report } = await uninvoicedPage(ctx, p, query, false);
  return report;
}

/** GET /web/api/reports/uninvoiced: the API's page and the total row of each client table of it (table-totals.ts). */
export async function uninvoicedReportWithTotals(ctx: ReportContext, p: Principal, query: Static<typeof UninvoicedQuery>) {
  const { rows, ...report } = await uninvoicedPage(ctx, p, query, true);
  return { ...report, totals: presentUninvoicedTotals(rows) };
}

async function uninvoicedPage(ctx: ReportContext, p: Principal, query: Static<typeof UninvoicedQuery>, clientTotals: boolean) {
  assertMayRunUninvoiced(p);
  const options = { ...periodOf(query, MAX_REPORT_SPAN_DAYS), includeFixedFee: query.include_fixed_fee !== 'false', clientTotals };
  const page = reportPage(query);
  const scope = reportProjectScope(p);
  const { rows, total } = await readReport(ctx, p, async (trx) => {
    const run = (limit: number, offset: number) => uninvoicedRows(trx, p.companyId, scope, { ...options, limit, offset });
    const rows = await run(page.perPage, offsetOf(page));
    // The total rides on each row; a page past the end asks for the first row to learn it.
    const first = rows[0] ?? (page.page > 1 ? (await run(1, 0))[0] : undefined);
    return { rows, total: first ? Number(first.total) : 0 };
  });
  return { results: rows.map(presentUninvoicedRow), page, total, rows };
}

/** GET /api/v2/reports/time/team: one page of people with their hours (and amounts for who sees billable rates). */
export async function teamReport(ctx: ReportContext, p: Principal, query: Static<typeof TeamQuery>) {
  const { totals: _totals, ...report } = await teamPage(ctx, p, query, false);
  return report;
}

/** GET /web/api/reports/team: the API's page and the report's total row over every person in scope (table-totals.ts). */
export async function teamReportWithTotals(ctx: ReportContext, p: Principal, query: Static<typeof TeamQuery>) {
  const { totals, ...report } = await teamPage(ctx, p, query, true);
  const { hours, ...rest } = presentHoursTotals(totals, seesTeamAmounts(p));
  return { ...report, totals: { total_hours: hours, ...rest } };
}

async function teamPage(ctx: ReportContext, p: Principal, query: Static<typeof TeamQuery>, totals: boolean) {
  assertMayRunTeam(p);
  const period = periodOf(query, MAX_REPORT_SPAN_DAYS);
  const page = reportPage(query);
  const { rows, first } = await readReport(
    ctx,
    p,
    async (trx) => {
      const run = (limit: number, offset: number) => teamRows(trx, p.companyId, teamScope(p), { ...period, limit, offset, totals });
      const rows = await run(page.perPage, offsetOf(page));
      // The totals ride on each row; a page past the end asks for the first row to learn them.
      return { rows, first: rows[0] ?? (totals && page.page > 1 ? (await run(1, 0))[0] : undefined) };
    },
    false,
  );
  const amounts = seesTeamAmounts(p);
  return { results: rows.map((r) => presentTeamRow(r, amounts)), page, total: rows.length ? Number(rows[0].total) : 0, totals: first?.totals };
}

/** The period and filters of a time report: any length. */
function timeFilterOf(query: Omit<Static<typeof TimeQuery>, 'group_by'>): TimeFilter {
  const { from, to } = periodOf(query);
  return { from, to, projectId: query.project_id, clientId: query.client_id, userId: query.user_id, taskId: query.task_id };
}

/** GET /web/api/reports/time: the time the caller sees, grouped. */
export async function timeReport(ctx: ReportContext, p: Principal, query: Static<typeof TimeQuery>) {
  const filter = timeFilterOf(query);
  const amounts = seesTeamAmounts(p);
  const rows = await readReport(ctx, p, (trx) => timeGroupRows(trx, p, query.group_by, filter, amounts, { totals: true }));
  return {
    from: filter.from,
    to: filter.to,
    group_by: query.group_by,
    amounts_visible: amounts,
    results: rows.map((r) => presentTimeGroup(r, amounts)),
    // Every group is in the response; the total row is summed in SQL all the same (table-totals.ts).
    totals: presentHoursTotals(rows[0]?.totals, amounts),
  };
}

/* The downloads: each reads its rows in batches of the API's largest page, one short transaction per batch. */

const BATCH = MAX_PER_PAGE;

const periodName = (from: string, to: string) => (from === to ? from : `${from}-to-${to}`);

/** Columns from their keys and headers, in order. */
const columnsOf = (headers: Record<string, string>): Column[] => Object.entries(headers).map(([key, header]) => ({ key, header }));

const amountColumns = (currencies: string[]): Column[] =>
  currencies.map((currency) => ({ key: `amount_${currency}`, header: `Billable amount (${currency})` }));

const amountCells = (amounts: Array<{ currency: string; billable_amount: number }> | undefined) =>
  Object.fromEntries((amounts ?? []).map((a) => [`amount_${a.currency}`, a.billable_amount]));

const GROUP_HEADERS: Record<GroupBy, string> = { project: 'Project', task: 'Task', person: 'Person', client: 'Client' };

/** The amount columns of a download: one per currency of the workspace, for callers who see billable rates. */
async function currencyColumns(ctx: ReportContext, p: Principal, amounts: boolean) {
  return amountColumns(amounts ? await readReport(ctx, p, (trx) => workspaceCurrencies(trx, p.companyId)) : []);
}

/** Every page of a paged report, each read in its own transaction, as rows of a download. */
async function* pagedRows<T>(ctx: ReportContext, p: Principal, page: (trx: Tx, limit: number, offset: number) => Promise<T[]>, toRow: (row: T) => Row) {
  for await (const rows of pagesOf((limit, offset) => readReport(ctx, p, (trx) => page(trx, limit, offset)), BATCH)) yield rows.map(toRow);
}

export async function budgetExport(ctx: ReportContext, p: Principal, query: Static<typeof BudgetExportQuery>): Promise<ExportFile> {
  assertMayRunBudget(p);
  const isActive = isActiveOf(query.is_active);
  const costVisible = seesCostBudgets(p);
  const scope = reportProjectScope(p);
  const today = await readReport(ctx, p, (trx) => workspaceToday(trx, p, ctx.now()));
  const month = monthOf(today);
  return {
    format: query.format,
    name: `project-budget-${today}`,
    sheet: 'Project budget',
    columns: columnsOf({ client_name: 'Client', project_name: 'Project', budget_by: 'Budget by', budget_is_monthly: 'Monthly', is_active: 'Active', budget: 'Budget', budget_spent: 'Spent', budget_remaining: 'Remaining', currency: 'Currency' }),
    batches: pagedRows(
      ctx,
      p,
      (trx, limit, offset) => projectBudgetRows(trx, p.companyId, scope, { isActive, month, limit, offset, costVisible }),
      (r) => presentBudgetRow(r, costVisible),
    ),
  };
}

export async function uninvoicedExport(ctx: ReportContext, p: Principal, query: Static<typeof UninvoicedExportQuery>): Promise<ExportFile> {
  assertMayRunUninvoiced(p);
  const { from, to } = periodOf(query, MAX_REPORT_SPAN_DAYS);
  const options = { from, to, includeFixedFee: query.include_fixed_fee !== 'false' };
  const scope = reportProjectScope(p);
  return {
    format: query.format,
    name: `uninvoiced-${periodName(from, to)}`,
    sheet: 'Uninvoiced',
    columns: columnsOf({ client_name: 'Client', project_name: 'Project', currency: 'Currency', total_hours: 'Total hours', uninvoiced_hours: 'Uninvoiced hours', uninvoiced_expenses: 'Uninvoiced expenses', uninvoiced_amount: 'Uninvoiced amount' }),
    batches: pagedRows(ctx, p, (trx, limit, offset) => uninvoicedRows(trx, p.companyId, scope, { ...options, limit, offset }), presentUninvoicedRow),
  };
}

export async function teamExport(ctx: ReportContext, p: Principal, query: Static<typeof TeamExportQuery>): Promise<ExportFile> {
  assertMayRunTeam(p);
  const { from, to } = periodOf(query, MAX_REPORT_SPAN_DAYS);
  const amounts = seesTeamAmounts(p);
  const currencies = await currencyColumns(ctx, p, amounts);
  const scope = teamScope(p);
  return {
    format: query.format,
    name: `team-time-${periodName(from, to)}`,
    sheet: 'Team time',
    columns: [
      ...columnsOf({ user_name: 'Person', is_contractor: 'Contractor', total_hours: 'Hours', billable_hours: 'Billable hours' }),
      ...currencies,
    ],
    batches: pagedRows(
      ctx,
      p,
      (trx, limit, offset) => teamRows(trx, p.companyId, scope, { from, to, limit, offset }),
      (r) => {
        const t = presentTeamRow(r, amounts);
        return {
          user_name: t.user_name,
          is_contractor: t.is_contractor,
          total_hours: t.total_hours,
          billable_hours: t.billable_hours,
          ...amountCells('billable_amounts' in t ? t.billable_amounts : undefined),
        };
      },
    ),
  };
}

export async function timeExport(ctx: ReportContext, p: Principal, query: Static<typeof TimeExportQuery>): Promise<ExportFile> {
  const filter = timeFilterOf(query);
  const groupBy = query.group_by ?? 'project';
  const amounts = seesTeamAmounts(p);
  const name = periodName(filter.from, filter.to);
  if (query.rows === 'entries') {
    return {
      format: query.format,
      name: `time-entries-${name}`,
      sheet: 'Time entries',
      columns: [
        { key: 'spent_date', header: 'Date', date: true },
        ...columnsOf({ person: 'Person', client_name: 'Client', project_name: 'Project', task_name: 'Task', notes: 'Notes', hours: 'Hours', rounded_hours: 'Rounded hours', billable: 'Billable' }),
        ...(amounts ? columnsOf({ currency: 'Currency', billable_amount: 'Billable amount' }) : []),
      ],
      batches: entryBatches(ctx, p, filter, amounts),
    };
  }
  const currencies = await currencyColumns(ctx, p, amounts);
  async function* groups() {
    const rows = await readReport(ctx, p, (trx) => timeGroupRows(trx, p, groupBy, filter, amounts));
    yield rows.map((r): Row => {
      const g = presentTimeGroup(r, amounts);
      return { name: g.name, client_name: g.client_name, hours: g.hours, billable_hours: g.billable_hours, ...amountCells(g.billable_amounts) };
    });
  }
  return {
    format: query.format,
    name: `time-by-${groupBy}-${name}`,
    sheet: `Time by ${groupBy}`,
    columns: [
      ...(groupBy === 'project' ? [{ key: 'client_name', header: 'Client' }] : []),
      { key: 'name', header: GROUP_HEADERS[groupBy] },
      ...columnsOf({ hours: 'Hours', billable_hours: 'Billable hours' }),
      ...currencies,
    ],
    batches: groups(),
  };
}

/** Every visible entry of the period in (spent_date, id) keyset batches. */
async function* entryBatches(ctx: ReportContext, p: Principal, filter: TimeFilter, amounts: boolean): AsyncGenerator<Row[]> {
  let after: { date: string; id: string } | null = null;
  for (;;) {
    const rows = await readReport(ctx, p, (trx) => timeEntryBatch(trx, p, filter, { after, limit: BATCH, amounts }));
    if (rows.length) yield rows.map(presentTimeEntry);
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1];
    after = { date: last.spent_date, id: last.id };
  }
}
