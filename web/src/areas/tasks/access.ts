import { holds, type Who } from '../../api/access.ts';

/**
 * What a membership may do with the task catalog, as src/access/catalog.ts decides:
 * every internal member reads it (api/access.ts usesWorkspace); owners, administrators
 * and managers with "Edit clients and tasks" create, edit, archive and restore tasks;
 * default hourly rates are seen and set only with "See billable rates" (the API leaves
 * the property out otherwise, and so does the page). The server still decides.
 */
export function taskAccess(w: Who) {
  return { writes: holds(w, 'edit_clients_and_tasks'), seesRates: holds(w, 'view_billable_rates') };
}
