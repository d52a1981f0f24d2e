/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { recurringInvoicesWebRoutes } from './web-routes.ts';
export { runDueSchedules, startRecurringScheduler } from './scheduler.ts';
export type { RunSummary, SchedulerDeps } from './scheduler.ts';
export { listSchedules } from './service.ts';
export type { PresentedSchedule } from './presenter.ts';
