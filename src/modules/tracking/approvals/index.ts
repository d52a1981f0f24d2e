/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { checkPeriod, checkReason } from './preflight.ts';
export { loadApprovalSettings } from './queries.ts';
export { byWeek, daysInReach } from './queue.ts';
export { approvalsRoutes } from './routes.ts';
export { withdrawApproval } from './service.ts';
export { approvalsWebRoutes } from './web-routes.ts';
