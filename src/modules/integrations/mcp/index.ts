/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { mcpRoutes } from './routes.ts';
export { runStdioServer, stdioSettings } from './stdio.ts';
export type { StdioSettings } from './stdio.ts';
