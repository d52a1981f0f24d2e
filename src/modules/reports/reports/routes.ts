import { Type, type Static } from '@sinclair/typebox';
import { Decimal } from 'decimal.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  mayRunBudgetReport,
  mayRunTeamReport,
  mayRunUninvoicedReport,
  reportProjectScope,
  seesCostBudgets,
  seesTeamAmounts,
  teamScope,
} from '../../../access/reports.ts';
import { sql } from 'kysely';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { longStatementLimit } from '../../../db/timeouts.ts';
import { forbidden } from '../../../errors.ts';
import { LinksSchema, MAX_PER_PAGE, pageEnvelope, type PageParams } from '../../../http/pagination.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { countScopedProjects, projectBudgetRows, teamRows, uninvoicedRows, type BudgetRow, type TeamRow, type UninvoicedRow } from './queries.ts';
import { checkRange, MAX_REPORT_SPAN_DAYS, monthOf, parseReportDate } from './rules.ts';

/** Reports page by project (or person): per_page defaults to and is at most 2000. */
const ReportPage = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, description: 'Default and maximum 2000.' })),
};
export const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')]);
export const ReportDate = Type.String({ description: 'YYYYMMDD or YYYY-MM-DD' });

const ReportEnvelope = {
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

const BudgetQuery = Type.Object({ is_active: Type.Optional(Bool), ...ReportPage }, { additionalProperties: false });
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
});

const UninvoicedQuery = Type.Object(
  { from: ReportDate, to: ReportDate, include_fixed_fee: Type.Optional(Bool), ...ReportPage },
  { additionalProperties: false },
);
const UninvoicedResult = Type.Object({
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

const TeamQuery = Type.Object({ from: ReportDate, to: ReportDate, ...ReportPage }, { additionalProperties: false });
const TeamResult = Type.Object({
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

/**
 * A person's amounts in the team report: one line per currency, never a sum
 * across currencies. `currency`/`billable_amount` keep their single-currency
 * meaning: the one currency's figures (the workspace currency and 0 without
 * billable time), and null for both when the work is in several currencies.
 */
function teamAmounts(r: TeamRow) {
  const lines = r.billable_amounts.map((a) => ({ currency: a.currency, billable_hours: Number(a.billable_hours), billable_amount: Number(a.billable_amount) }));
  if (lines.length > 1) return { currency: null, billable_amount: null, billable_amounts: lines };
  return { currency: lines[0]?.currency ?? r.workspace_currency, billable_amount: lines[0]?.billable_amount ?? 0, billable_amounts: lines };
}

/**
 * Planner settings for a report's transaction (SET LOCAL; PGlite accepts both).
 * The report queries are costed above PostgreSQL's JIT threshold, and compiling
 * them took 250–300 ms per request on the 1,000,000-entry benchmark, more than it
 * saved: JIT is off. Every query runs as a named prepared statement
 * (src/db/database.ts), and after five runs PostgreSQL may switch to a generic
 * plan that cannot see the workspace or the dates; a report's cost depends on
 * them, so it is planned for its own parameters every time.
 */
export async function reportPlanning(trx: Tx) {
  await sql`set local jit = off`.execute(trx);
  await sql`set local plan_cache_mode = force_custom_plan`.execute(trx);
}

const num = (v: string | null) => (v === null ? null : Number(v));

/** A project budget result as the API presents it (the exports write the same numbers). */
export function presentBudgetRow(r: BudgetRow, costVisible: boolean) {
  const hidden = r.budget_by === 'project_cost' && !costVisible;
  return {
    project_id: r.project_id,
    project_name: r.project_name,
    client_id: r.client_id,
    client_name: r.client_name,
    budget_is_monthly: r.budget_is_monthly,
    budget_by: r.budget_by,
    is_active: r.is_active,
    budget: hidden ? null : num(r.budget),
    budget_spent: hidden ? null : num(r.budget_spent),
    budget_remaining: hidden || r.budget === null ? null : new Decimal(r.budget).sub(r.budget_spent).toNumber(),
  };
}

/** An uninvoiced result as the API presents it. */
export function presentUninvoicedRow(r: UninvoicedRow) {
  return {
    client_id: r.client_id,
    client_name: r.client_name,
    project_id: r.project_id,
    project_name: r.project_name,
    currency: r.currency,
    total_hours: Number(r.total_hours),
    uninvoiced_hours: Number(r.uninvoiced_hours),
    uninvoiced_expenses: Number(r.uninvoiced_expenses),
    uninvoiced_amount: Number(r.uninvoiced_amount),
  };
}

/** A team result as the API presents it: amounts only for callers who see billable rates. */
export function presentTeamRow(r: TeamRow, amounts: boolean) {
  return {
    user_id: r.user_id,
    user_name: `${r.first_name} ${r.last_name}`.trim(),
    is_contractor: r.is_contractor,
    total_hours: Number(r.total_hours),
    billable_hours: Number(r.billable_hours),
    ...(amounts ? teamAmounts(r) : {}),
  };
}

export function reportPage(query: { page?: number; per_page?: number }): PageParams {
  return { page: query.page ?? 1, perPage: query.per_page ?? MAX_PER_PAGE };
}

function reportEnvelope(request: FastifyRequest, page: PageParams, total: number) {
  const envelope = pageEnvelope(request, page, total);
  return {
    ...envelope,
    next_page: page.page < envelope.total_pages ? page.page + 1 : null,
    previous_page: page.page > 1 ? Math.min(page.page - 1, envelope.total_pages) : null,
  };
}

export async function reportsRoutes(app: FastifyInstance) {
  app.features.add('financial-reports-v1', 'project-task-budgets');
  // A report reads a whole workspace's work over up to a year: it runs under the longer
  // statement limit (set with the tenant settings, in the same round trip).
  const longStatements = { statement_limit: longStatementLimit(app.config.databaseTimeouts) };

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
    async (request) => {
      const p = principalOf(request);
      if (!mayRunBudgetReport(p)) throw forbidden('The project budget report needs the View billable rates permission.');
      const query = request.query as Static<typeof BudgetQuery>;
      const page = reportPage(query);
      const isActive = query.is_active === undefined ? undefined : query.is_active === 'true';
      const { rows, total, costVisible } = await withTenant(app.db, p.companyId, async (trx) => {
        await reportPlanning(trx);
        const company = await trx.selectFrom('companies').select('timezone').where('id', '=', p.companyId).executeTakeFirstOrThrow();
        const month = monthOf(todayIn(company.timezone, app.config.clock()));
        const scope = reportProjectScope(p);
        const costVisible = seesCostBudgets(p);
        const rows = await projectBudgetRows(trx, p.companyId, scope, {
          isActive,
          month,
          limit: page.perPage,
          offset: (page.page - 1) * page.perPage,
          costVisible,
        });
        const total = rows.length ? Number(rows[0].total) : await countScopedProjects(trx, p.companyId, scope, isActive);
        return { rows, total, costVisible };
      }, longStatements);
      const results = rows.map((r) => presentBudgetRow(r, costVisible));
      return { results, ...reportEnvelope(request, page, total) };
    },
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
    async (request) => {
      const p = principalOf(request);
      if (!mayRunUninvoicedReport(p)) throw forbidden('The uninvoiced report needs the View billable rates and View invoices permissions.');
      const query = request.query as Static<typeof UninvoicedQuery>;
      const from = parseReportDate(query.from, 'from');
      const to = parseReportDate(query.to, 'to');
      checkRange(from, to, MAX_REPORT_SPAN_DAYS);
      const page = reportPage(query);
      const options = { from, to, includeFixedFee: query.include_fixed_fee !== 'false' };
      const { rows, total } = await withTenant(app.db, p.companyId, async (trx) => {
        await reportPlanning(trx);
        const run = (limit: number, offset: number) => uninvoicedRows(trx, p.companyId, reportProjectScope(p), { ...options, limit, offset });
        const rows = await run(page.perPage, (page.page - 1) * page.perPage);
        // The total rides on each row; a page past the end asks for the first row to learn it.
        const first = rows[0] ?? (page.page > 1 ? (await run(1, 0))[0] : undefined);
        return { rows, total: first ? Number(first.total) : 0 };
      }, longStatements);
      const results = rows.map(presentUninvoicedRow);
      return { results, ...reportEnvelope(request, page, total) };
    },
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
    async (request) => {
      const p = principalOf(request);
      if (!mayRunTeamReport(p)) throw forbidden('The team time report is for administrators and managers.');
      const query = request.query as Static<typeof TeamQuery>;
      const from = parseReportDate(query.from, 'from');
      const to = parseReportDate(query.to, 'to');
      checkRange(from, to, MAX_REPORT_SPAN_DAYS);
      const page = reportPage(query);
      const rows = await withTenant(
        app.db,
        p.companyId,
        (trx) => teamRows(trx, p.companyId, teamScope(p), { from, to, limit: page.perPage, offset: (page.page - 1) * page.perPage }),
        longStatements,
      );
      const amounts = seesTeamAmounts(p);
      const results = rows.map((r) => presentTeamRow(r, amounts));
      return { results, ...reportEnvelope(request, page, rows.length ? Number(rows[0].total) : 0) };
    },
  );
}
