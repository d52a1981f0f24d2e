/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { plannedVsTrackedWebRoutes } from './web-routes.ts';
// For saved reports' scheduled e-mail: the download's CSV.
export { plannedVsTrackedExport } from './service.ts';
