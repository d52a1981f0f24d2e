/** How roles and manager permissions read in the interface (shared by the shell and every area). */
const ROLES: Record<string, string> = {
  owner: 'Owner',
  administrator: 'Administrator',
  manager: 'Manager',
  member: 'Member',
  client: 'Client',
};

const PERMISSIONS: Record<string, string> = {
  edit_projects: 'Edit projects',
  edit_clients_and_tasks: 'Edit clients and tasks',
  view_billable_rates: 'See billable rates',
  view_invoices: 'See invoices',
  approve_managed_projects: 'Approve time on the projects they manage',
  view_internal_costs: 'See internal costs',
};

export const roleLabel = (role: string) => ROLES[role] ?? role;
export const permissionLabel = (permission: string) => PERMISSIONS[permission] ?? permission.replaceAll('_', ' ');
