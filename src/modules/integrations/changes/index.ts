/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { changesRoutes } from './routes.ts';
export { feedHorizon, pruneChanges } from './queries.ts';
export { startChangePruning } from './retention.ts';
