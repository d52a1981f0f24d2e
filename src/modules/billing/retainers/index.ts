/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { retainersWebRoutes } from './web-routes.ts';
export { getRetainer, listRetainers } from './service.ts';
export type { PresentedRetainer, PresentedRetainerWithEntries } from './presenter.ts';
