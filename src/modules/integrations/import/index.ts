/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { detectTracker, parseExport } from './parse.ts';
export { DATE_ORDERS, TRACKERS, TRACKER_NAMES, chosen } from './row.ts';
export type { DateOrder, ImportRow, Tracker } from './row.ts';
export { importFile } from './service.ts';
export type { ImportReport } from './service.ts';
export { importWebRoutes } from './web-routes.ts';
