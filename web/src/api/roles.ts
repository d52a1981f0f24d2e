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

/** Roles in the order a chooser lists them. */
export const ROLE_IDS = ['owner', 'administrator', 'manager', 'member', 'client'] as const;
export type RoleId = (typeof ROLE_IDS)[number];
/** The manager permission flags (they apply to the manager role only). */
export const PERMISSION_IDS = Object.keys(PERMISSIONS) as (
  | 'edit_projects'
  | 'edit_clients_and_tasks'
  | 'view_billable_rates'
  | 'view_invoices'
  | 'approve_managed_projects'
  | 'view_internal_costs'
)[];
export type PermissionId = (typeof PERMISSION_IDS)[number];
