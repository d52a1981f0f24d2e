/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { runBudgetAlerts, startBudgetAlertScheduler } from './scheduler.ts';
export type { BudgetAlertDeps } from './scheduler.ts';
