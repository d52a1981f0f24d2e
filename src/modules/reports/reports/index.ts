/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { projectBudgetRows, uninvoicedRows } from './queries.ts';
export { reportsRoutes } from './routes.ts';
export { MAX_REPORT_SPAN_DAYS, monthOf } from './rules.ts';
export { readReport } from './service.ts';
export type { ReportContext } from './service.ts';
export { reportsWebRoutes } from './web-routes.ts';
