import { holds, isAdministrator, usesWorkspace, type Who } from '../../api/access.ts';

/**
 * What a membership may do with clients and contacts, as src/access/catalog.ts decides:
 * every internal member reads the clients they see (members: those of their projects);
 * owners, administrators and managers with "Edit clients and tasks" create and edit
 * them and add contacts; only owners and administrators archive, restore and delete.
 * The pages leave out what the role cannot do; the server still decides.
 */
export interface ClientAccess {
  reads: boolean;
  writes: boolean;
  archives: boolean;
}

export function clientAccess(w: Who): ClientAccess {
  return { reads: usesWorkspace(w), writes: holds(w, 'edit_clients_and_tasks'), archives: isAdministrator(w) };
}
