/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { expensesRoutes } from './routes.ts';
export { expensesWebRoutes } from './web-routes.ts';
