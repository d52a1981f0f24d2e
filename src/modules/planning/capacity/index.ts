/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { capacityWebRoutes } from './web-routes.ts';
// For the approvals' preflight (tracking), the home page and the planner: capacity and break rules.
export { capacityIn } from './service.ts';
export { breakRulesOf, capacitySource, capacitySources } from './queries.ts';
export { baseHours, breakMinutes, capacityByDay, requiredBreak, totalHours, type BreakRule, type DayCapacity, type Pattern, type TimeOff } from './rules.ts';
