import { sql } from 'kysely';
import { mayReviewTime } from '../../../access/approvals.ts';
import { mayWatchBudgets, mayWatchBilling, reportProjectScope, seesBudgetOfKind, seesCostBudgets } from '../../../access/reports.ts';
import type { Principal } from '../../../auth/principal.ts';
import type { Tx } from '../../../db/tenant.ts';
import { MAX_PER_PAGE } from '../../../http/pagination.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { loadApprovalSettings, byWeek, daysInReach } from '../../tracking/approvals/index.ts';
import { loadTimeSettings } from '../../tracking/week/index.ts';
import { projectBudgetRows, uninvoicedRows, MAX_REPORT_SPAN_DAYS, monthOf, readReport, type ReportContext } from '../reports/index.ts';
import { overdueInvoices, recentWork, secondsByDay } from './queries.ts';
import { capacityIn } from '../../planning/capacity/index.ts';
import { planOf } from '../../planning/assignments/index.ts';
import { addDays, budgetLevel, perCurrency, weekOf, weekRange } from './rules.ts';

/**
 * The home page's one request (issue 21 item 9): where the caller stands. Everyone: the
 * week's hours against the expected ones and the recent work to continue. Managers,
 * owners and administrators: the weeks awaiting their approval and the budgets at 80 % or
 * 100 % of projects they watch. Owners and administrators: uninvoiced amounts and overdue
 * invoices per currency. A section the caller may not see is absent, never zeros.
 * Each section reuses the code of its page (the approvals queue, the budget and
 * uninvoiced reports, the invoice totals) and its access rule (src/access).
 */

export const RECENT = 5;
/** Budgets listed at most (the most used first); `count` says how many there are. */
export const BUDGETS_SHOWN = 10;

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
        currency: r.currency,
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

/** GET /web/api/home: every section the caller may see, in one report transaction. */
export async function homeOf(ctx: ReportContext, p: Principal) {
  return readReport(ctx, p, async (trx) => {
    const time = await loadTimeSettings(trx, p.companyId);
    const approvals = await loadApprovalSettings(trx, p.companyId);
    const today = todayIn(time.timezone, ctx.now());
    const weekStart = approvals.week_start;
    const range = weekRange(today, weekStart);
    const capacity = await capacityIn(trx, p.companyId, p.userId, range);
    const week = weekOf(today, weekStart, await secondsByDay(trx, p.companyId, p.userId, range.from, range.to), capacity);
    const plan = await planOf(trx, p.companyId, p.userId, range);
    const recent = await recentWork(trx, p, RECENT);
    const approvalsSection = mayReviewTime(p) && approvals.approvals_enabled ? await awaitingApproval(trx, p, weekStart) : undefined;
    const budgets = mayWatchBudgets(p) ? await budgetsOf(trx, p, today) : undefined;
    const billing = mayWatchBilling(p) ? await billingOf(trx, p, today) : undefined;
    return {
      today,
      week: { from: week.from, to: week.to, week_start: weekStart, timezone: time.timezone, tracked_seconds: week.tracked_seconds, expected_hours: week.expected_hours, days: week.days },
      plan,
      recent,
      ...(approvalsSection && { approvals: approvalsSection }),
      ...(budgets && { budgets }),
      ...billing,
    };
  });
}

async function awaitingApproval(trx: Tx, p: Principal, weekStart: Parameters<typeof byWeek>[1]) {
  // Submitted weeks only: "approved since" after every date there is.
  const weeks = byWeek((await daysInReach(trx, p, '9999-12-31')).filter((d) => d.approval_status === 'submitted'), weekStart);
  return { weeks: weeks.length, people: new Set(weeks.map((w) => w.user_id)).size };
}

async function billingOf(trx: Tx, p: Principal, today: string) {
  const uninvoiced = await uninvoicedOf(trx, p, today);
  const overdue = await overdueInvoices(trx, p.companyId, today);
  return { uninvoiced, overdue_invoices: { count: overdue.length, amounts: perCurrency(overdue) } };
}
