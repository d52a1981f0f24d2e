import { t } from './texts.ts';

/** Roles in the order a chooser lists them. */
export const ROLE_IDS = ['owner', 'administrator', 'manager', 'member', 'client'] as const;
export type RoleId = (typeof ROLE_IDS)[number];
/** The manager permission flags (they apply to the manager role only). */
export const PERMISSION_IDS = [
  'edit_projects',
  'edit_clients_and_tasks',
  'view_billable_rates',
  'view_invoices',
  'approve_managed_projects',
  'view_internal_costs',
] as const;
export type PermissionId = (typeof PERMISSION_IDS)[number];

/** How roles and manager permissions read in the interface (shared by the shell and every area), in the current language. */
export const roleLabel = (role: string) => ((ROLE_IDS as readonly string[]).includes(role) ? t(`roles.${role as RoleId}`) : role);
export const permissionLabel = (permission: string) =>
  (PERMISSION_IDS as readonly string[]).includes(permission) ? t(`permissions.${permission as PermissionId}`) : permission.replaceAll('_', ' ');
