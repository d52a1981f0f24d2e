import { MANAGER_PERMISSIONS, type ManagerPermission, type Role, type UserType } from '../../../db/types.ts';
import { badRequest } from '../../../errors.ts';
import { assertValidEmail } from './email.ts';

/**
 * The rules of a membership, without a database: a user is one identity
 * (e-mail) that may belong to several workspaces; the membership holds the
 * role, manager permission flags, contractor and active flags.
 */
export const ROLES: readonly Role[] = ['owner', 'administrator', 'manager', 'member', 'client'];
export const USER_TYPES: readonly UserType[] = ['human', 'agent'];

export interface MemberInput {
  email?: string;
  first_name?: string;
  last_name?: string;
  role?: Role;
  permissions?: ManagerPermission[];
  user_type?: UserType;
  is_contractor?: boolean;
  is_active?: boolean;
  expected_weekly_hours?: string | null;
}

/** Checks the shape of a member change (no database needed); throws a 400 naming the field. */
export function validateMemberInput(input: MemberInput) {
  if (input.email !== undefined) assertValidEmail(input.email);
  for (const field of ['first_name', 'last_name'] as const) {
    const v = input[field];
    if (v !== undefined && (typeof v !== 'string' || v.length > 255 || (field === 'first_name' && !v.trim()))) {
      throw badRequest(`${field} must be ${field === 'first_name' ? '1' : '0'} to 255 characters.`, { field });
    }
  }
  if (input.role !== undefined && !ROLES.includes(input.role)) {
    throw badRequest(`role must be one of ${ROLES.join(', ')}.`, { field: 'role' });
  }
  if (input.user_type !== undefined && !USER_TYPES.includes(input.user_type)) {
    throw badRequest('user_type must be human or agent.', { field: 'user_type' });
  }
  for (const p of input.permissions ?? []) {
    if (!MANAGER_PERMISSIONS.includes(p)) {
      throw badRequest(`Unknown permission '${p}'; allowed: ${MANAGER_PERMISSIONS.join(', ')}.`, { field: 'permissions' });
    }
  }
  if (input.expected_weekly_hours != null) {
    const h = Number(input.expected_weekly_hours);
    if (!/^\d{1,3}(\.\d{1,2})?$/.test(input.expected_weekly_hours) || h > 168) {
      throw badRequest('expected_weekly_hours must be a number of hours from 0 to 168.', { field: 'expected_weekly_hours' });
    }
  }
}

/** Manager permission flags mean something only on the manager role (owners and administrators hold them all). */
export function assertPermissionsFitRole(role: Role, permissions: ManagerPermission[] | undefined) {
  if (role !== 'manager' && permissions && permissions.length > 0) {
    throw badRequest(`permissions apply only to the manager role, not to ${role}.`, { field: 'permissions' });
  }
}
