import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { mayReviewTime } from '../../../access/approvals.ts';
import { mayWatchBudgets, mayWatchBilling, reportProjectScope, seesBudgetOfKind, seesCostBudgets } from '../../../access/reports.ts';
import type { Principal } from '../../../auth/principal.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { longStatementLimit } from '../../../db/timeouts.ts';
import { MAX_PER_PAGE } from '../../../http/pagination.ts';
import { Enum, ErrorResponses, OrNull } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { loadApprovalSettings } from '../../tracking/approvals/queries.ts';
import { byWeek, daysInReach } from '../../tracking/approvals/queue.ts';
import { projectBudgetRows, uninvoicedRows } from '../reports/queries.ts';
import { reportPlanning } from '../reports/routes.ts';
import { MAX_REPORT_SPAN_DAYS, monthOf } from '../reports/rules.ts';
import { loadTimeSettings } from '../../tracking/week/queries.ts';
import { expectedWeeklyHoursOf, overdueInvoices, recentWork, secondsByDay } from './queries.ts';
import { addDays, budgetLevel, perCurrency, weekOf } from './rules.ts';

/**
 * The home page's one request (issue 21 item 9): where the caller stands. Everyone: the
 * week's hours against the expected ones and the recent work to continue. Managers,
 * owners and administrators: the weeks awaiting their approval and the budgets at 80 % or
 * 100 % of projects they watch. Owners and administrators: uninvoiced amounts and overdue
 * invoices per currency. A section the caller may not see is absent, never zeros.
 * Each section reuses the code of its page (the approvals queue, the budget and
 * uninvoiced reports, the invoice totals) and its access rule (src/access).
 */

const RECENT = 5;
/** Budgets listed at most (the most used first); `count` says how many there are. */
const BUDGETS_SHOWN = 10;

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

/** Every page of a paged report query, for a total over all of them. */
async function allPages<T>(read: (limit: number, offset: number) => Promise<T[]>): Promise<T[]> {
  const all: T[] = [];
  for (let offset = 0; ; offset += MAX_PER_PAGE) {
    const page = await read(MAX_PER_PAGE, offset);
    all.push(...page);
    if (page.length < MAX_PER_PAGE) return all;
  }
}

async function budgetsOf(trx: Tx, p: Principal, today: string) {
  // Only active projects with a budget (a scope condition over the report's `p`): the report's own rows and spend.
  const scope = sql<boolean>`${reportProjectScope(p)} and p.budget_by <> 'none'`;
  const month = monthOf(today);
  const costVisible = seesCostBudgets(p);
  const rows = await allPages((limit, offset) => projectBudgetRows(trx, p.companyId, scope, { isActive: true, month, limit, offset, costVisible }));
  const flagged = rows.flatMap((r) => {
    if (!seesBudgetOfKind(p, r.budget_by)) return [];
    const hit = budgetLevel(r.budget, r.budget_spent);
    if (!hit) return [];
    return [
      {
        project_id: r.project_id,
        project_name: r.project_name,
        client_name: r.client_name,
        budget_by: r.budget_by,
        budget_is_monthly: r.budget_is_monthly,
        budget: Number(r.budget),
        budget_spent: Number(r.budget_spent),
        ...hit,
      },
    ];
  });
  flagged.sort((a, b) => b.percent - a.percent || a.project_name.localeCompare(b.project_name));
  return { count: flagged.length, projects: flagged.slice(0, BUDGETS_SHOWN) };
}

async function uninvoicedOf(trx: Tx, p: Principal, today: string) {
  const from = addDays(today, -MAX_REPORT_SPAN_DAYS);
  const rows = await allPages((limit, offset) =>
    uninvoicedRows(trx, p.companyId, reportProjectScope(p), { from, to: today, includeFixedFee: true, limit, offset }),
  );
  const amounts = perCurrency(rows.map((r) => ({ currency: r.currency, amount: r.uninvoiced_amount }))).map(({ currency, amount }) => ({ currency, amount }));
  return { from, to: today, amounts };
}

export async function homeWebRoutes(app: FastifyInstance) {
  const longStatements = { statement_limit: longStatementLimit(app.config.databaseTimeouts) };

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
    async (request) => {
      const p = principalOf(request);
      return withTenant(
        app.db,
        p.companyId,
        async (trx) => {
          await reportPlanning(trx);
          const time = await loadTimeSettings(trx, p.companyId);
          const approvals = await loadApprovalSettings(trx, p.companyId);
          const today = todayIn(time.timezone, app.config.clock());
          const weekStart = approvals.week_start;
          const expected = await expectedWeeklyHoursOf(trx, p.companyId, p.userId);
          const probe = weekOf(today, weekStart, new Map(), null);
          const week = weekOf(today, weekStart, await secondsByDay(trx, p.companyId, p.userId, probe.from, probe.to), expected);
          const home: Record<string, unknown> = {
            today,
            week: { from: week.from, to: week.to, week_start: weekStart, timezone: time.timezone, tracked_seconds: week.tracked_seconds, expected_hours: week.expected_hours, days: week.days },
            recent: await recentWork(trx, p, RECENT),
          };
          if (mayReviewTime(p) && approvals.approvals_enabled) {
            // Submitted weeks only: "approved since" after every date there is.
            const weeks = byWeek((await daysInReach(trx, p, '9999-12-31')).filter((d) => d.approval_status === 'submitted'), weekStart);
            home.approvals = { weeks: weeks.length, people: new Set(weeks.map((w) => w.user_id)).size };
          }
          if (mayWatchBudgets(p)) home.budgets = await budgetsOf(trx, p, today);
          if (mayWatchBilling(p)) {
            home.uninvoiced = await uninvoicedOf(trx, p, today);
            const overdue = await overdueInvoices(trx, p.companyId, today);
            home.overdue_invoices = { count: overdue.length, amounts: perCurrency(overdue) };
          }
          return home;
        },
        longStatements,
      );
    },
  );
}
