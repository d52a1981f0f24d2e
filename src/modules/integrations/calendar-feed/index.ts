/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { redactFeedUrl } from './rules.ts';
export { calendarFeedRoutes } from './routes.ts';
export { calendarFeedWebRoutes } from './web-routes.ts';
