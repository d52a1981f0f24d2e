import type { Workspace } from '../../api/session.ts';

/**
 * Which reports a person can run, as the server decides (src/access/reports.ts and the
 * time report's rule): everyone their time; administrators and managers the team;
 * administrators, and managers with "See billable rates", the project budgets; those
 * managers also need "See invoices" for uninvoiced work. The server still refuses the
 * rest; this only keeps the page from offering a report that would be refused.
 */
type Who = Pick<Workspace, 'role' | 'permissions'>;

const isAdmin = (w: Who) => w.role === 'owner' || w.role === 'administrator';
const has = (w: Who, permission: string) => isAdmin(w) || (w.role === 'manager' && w.permissions.includes(permission));

export const mayRunTimeReport = (w: Pick<Workspace, 'role'>) => w.role !== 'client';
export const mayRunTeamReport = (w: Who) => isAdmin(w) || w.role === 'manager';
export const mayRunBudgetReport = (w: Who) => has(w, 'view_billable_rates');
export const mayRunUninvoicedReport = (w: Who) => has(w, 'view_billable_rates') && has(w, 'view_invoices');

/** The navigation's rule: the area is shown to whoever can run at least one report. */
export const mayUseReports = (w: Pick<Workspace, 'role'>) => mayRunTimeReport(w);

export const REPORTS = [
  { path: 'time', label: 'Time', allowed: (w: Who) => mayRunTimeReport(w) },
  { path: 'team', label: 'Team', allowed: mayRunTeamReport },
  { path: 'budget', label: 'Project budget', allowed: mayRunBudgetReport },
  { path: 'uninvoiced', label: 'Uninvoiced', allowed: mayRunUninvoicedReport },
] as const;
