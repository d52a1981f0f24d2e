/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { clientPageWebRoutes } from './web-routes.ts';
