/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { isClosed, isLocked } from './presenter.ts';
export { billableRateSql } from './queries.ts';
export { timeEntriesRoutes } from './routes.ts';
export { checkMetadata, checkNotes } from './rules.ts';
export { timeWebRoutes } from './web-routes.ts';
