import { sql, type RawBuilder } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import { hasPermission, isAdmin, isManager } from './policy.ts';
import { maySeeInternalCosts, maySeeRates } from './catalog.ts';

/**
 * Who may run the financial reports, and over which projects (the spec's
 * Reports table): owners and administrators over every project; managers with
 * View billable rates (and View invoices for the uninvoiced report) over the
 * projects they actively manage; nobody else.
 */
export const mayRunBudgetReport = (p: Principal) => hasPermission(p, 'view_billable_rates');
export const mayRunUninvoicedReport = (p: Principal) =>
  hasPermission(p, 'view_billable_rates') && hasPermission(p, 'view_invoices');

/** The team time report: administrators see everyone; managers themselves and their teammates. */
export const mayRunTeamReport = (p: Principal) => isAdmin(p) || isManager(p);
export const seesTeamAmounts = maySeeRates;

/**
 * Planned against tracked hours (the planner's hours beside the tracked ones, and its download
 * and saved report): owners and administrators over every project, managers over the projects
 * they actively manage (reportProjectScope); hours carry no rate, so no financial flag.
 */
export const mayRunPlannedReport = (p: Principal) => isAdmin(p) || isManager(p);

/** Project-cost budgets are internal cost: shown only with the elevated financial permission. */
export const seesCostBudgets = maySeeInternalCosts;

/** SQL condition over a projects row aliased `p`: the project is in the caller's report scope. */
export function reportProjectScope(principal: Principal): RawBuilder<boolean> {
  if (isAdmin(principal)) return sql<boolean>`true`;
  return sql<boolean>`exists (
    select 1 from project_user_assignments scope
    where scope.company_id = p.company_id and scope.project_id = p.id
      and scope.user_id = ${principal.userId} and scope.is_active and scope.is_project_manager)`;
}

/** SQL condition over a memberships row aliased `m`: the person is in the caller's team report. */
export function teamScope(principal: Principal): RawBuilder<boolean> {
  if (isAdmin(principal)) return sql<boolean>`true`;
  return sql<boolean>`(m.user_id = ${principal.userId} or exists (
    select 1 from teammate_assignments ta
    where ta.company_id = m.company_id and ta.manager_id = ${principal.userId} and ta.teammate_id = m.user_id))`;
}

/**
 * The home page's budget watch (issue 21 item 9): owners and administrators over every
 * project, managers over the projects they actively manage (reportProjectScope), with or
 * without a financial flag, since hours budgets carry no rate.
 */
export const mayWatchBudgets = (p: Principal) => isAdmin(p) || isManager(p);

/**
 * Whether a budget of this kind is shown to the caller: fee budgets are billable money
 * (View billable rates), project-cost budgets internal cost (View internal costs);
 * hours budgets (project, task, person) to everyone who watches the project.
 */
export function seesBudgetOfKind(p: Principal, budgetBy: string): boolean {
  if (budgetBy === 'project_cost') return seesCostBudgets(p);
  if (budgetBy === 'task_fees') return maySeeRates(p);
  return true;
}

/** The home page's billing summary (uninvoiced amounts, overdue invoices): owners and administrators. */
export const mayWatchBilling = (p: Principal) => isAdmin(p);
