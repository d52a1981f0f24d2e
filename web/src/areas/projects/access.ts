import type { Workspace } from '../../api/session.ts';

/**
 * Whether to offer "New project": owners, administrators, and managers with Edit projects, as the
 * server's mayCreateProjects (src/access/catalog.ts) decides. Only a hint for the list page, which
 * does not load the choices (and their `may`) until a filter needs them; the server still decides.
 */
export const mayOfferNewProject = (w: Pick<Workspace, 'role' | 'permissions'>) =>
  w.role === 'owner' || w.role === 'administrator' || (w.role === 'manager' && w.permissions.includes('edit_projects'));
