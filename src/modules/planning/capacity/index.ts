/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { capacityWebRoutes } from './web-routes.ts';
// For the approvals' preflight (tracking): a person's capacity and the workspace's break rules.
export { capacityIn } from './service.ts';
export { breakRulesOf } from './queries.ts';
export { breakMinutes, requiredBreak, totalHours, type BreakRule, type DayCapacity } from './rules.ts';
