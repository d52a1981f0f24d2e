/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { companyRoutes } from './routes.ts';
export { settingsWebRoutes } from './web-routes.ts';
export { validateSettings } from './rules.ts';
export type { WorkspaceSettingsInput } from './rules.ts';
export { countWorkspaces, getWorkspace, listWorkspaces, updateWorkspaceSettings } from './service.ts';
