/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export type { ProjectRow } from './presenter.ts';
export { findProject } from './queries.ts';
export { projectsRoutes } from './routes.ts';
export { personName } from './rules.ts';
export { ownAssignment } from './service.ts';
export { projectsWebRoutes } from './web-routes.ts';
