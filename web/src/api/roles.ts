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

/**
 * Whether a workspace membership holds a permission, as the server's hasPermission
 * (src/access/policy.ts) decides: owners and administrators hold every one, managers
 * the flags granted to them, members and clients none. Pages use it to leave out what
 * the role cannot do; the server still decides.
 */
export const holds = (w: { role: string; permissions?: readonly string[] }, permission: PermissionId) =>
  w.role === 'owner' || w.role === 'administrator' || (w.role === 'manager' && !!w.permissions?.includes(permission));

/** Owners and administrators (the server's isAdmin). */
export const isAdministrator = (w: { role: string }) => w.role === 'owner' || w.role === 'administrator';
