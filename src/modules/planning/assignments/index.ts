/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { planningWebRoutes } from './web-routes.ts';
// For the home page (your plan) and the reports (planned against tracked).
export { planOf, plannedPerProject } from './service.ts';
export { hoursNumber as plannedHoursNumber } from './rules.ts';
// For the calendar feed (integrations): a person's assignments in a period, with project and client names.
export { assignmentsIn as plannedAssignments } from './queries.ts';
