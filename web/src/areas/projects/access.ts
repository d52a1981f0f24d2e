import { holds, type Who } from '../../api/access.ts';

/**
 * Whether to offer "New project" (and open /projects/new): owners, administrators, and managers
 * with Edit projects, as the server's mayCreateProjects (src/access/catalog.ts) decides. The
 * list page does not load the choices (and their `may`) until a filter needs them; the server
 * still decides.
 */
export const mayCreateProjects = (w: Who) => holds(w, 'edit_projects');
