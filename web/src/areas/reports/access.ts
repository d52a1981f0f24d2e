import { holds, isManagerOrAbove, usesWorkspace, type Who } from '../../api/access.ts';

/**
 * Which reports a person can run, as the server decides (src/access/reports.ts and the
 * time report's rule): every internal member their time; administrators and managers the
 * team; administrators, and managers with "See billable rates", the project budgets; those
 * managers also need "See invoices" for uninvoiced work. The server still refuses the
 * rest; the pages leave out (and the route guards refuse) a report that would be refused.
 */
export const mayRunTimeReport = usesWorkspace;
export const mayRunTeamReport = isManagerOrAbove;
export const mayRunBudgetReport = (w: Who) => holds(w, 'view_billable_rates');
export const mayRunUninvoicedReport = (w: Who) => holds(w, 'view_billable_rates') && holds(w, 'view_invoices');
/** Planned against tracked hours (the planner's, src/modules/reports/planned-vs-tracked): owners and administrators every project, managers the ones they manage. */
export const mayRunPlannedReport = isManagerOrAbove;

/** Saved reports (/reports/saved): every internal member saves the reports they run (the time report is everyone's). */
export const mayUseSavedReports = usesWorkspace;

/** The reports' tabs (their names are in texts.ts, `tabs.*`); the saved reports last. */
export const REPORTS = [
  { path: 'time', allowed: mayRunTimeReport },
  { path: 'team', allowed: mayRunTeamReport },
  { path: 'budget', allowed: mayRunBudgetReport },
  { path: 'uninvoiced', allowed: mayRunUninvoicedReport },
  { path: 'planned', allowed: mayRunPlannedReport },
  { path: 'saved', allowed: mayUseSavedReports },
] as const;
