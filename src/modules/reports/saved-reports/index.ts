/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { savedReportsWebRoutes } from './web-routes.ts';
export { runDueSavedReports, savedReportRenderers, startSavedReportScheduler } from './scheduler.ts';
export type { SavedReportRunSummary, SavedReportSchedulerDeps } from './scheduler.ts';
