/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { csvBytes } from '../../../http/exports.ts';
export { reportSettings, roundedMicroHours } from './pricing.ts';
export { projectBudgetRows, uninvoicedRows, type BudgetRow } from './queries.ts';
export { reportsRoutes } from './routes.ts';
export { checkRange, MAX_REPORT_SPAN_DAYS, monthOf } from './rules.ts';
export { GroupByParam } from './schemas.ts';
export { budgetExport, readReport, teamExport, timeExport, uninvoicedExport } from './service.ts';
export type { ReportContext } from './service.ts';
export type { GroupBy } from './web-queries.ts';
export { reportsWebRoutes } from './web-routes.ts';
