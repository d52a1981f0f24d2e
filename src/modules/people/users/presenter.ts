import type { Role } from '../../../db/types.ts';
import type { MemberRow } from './queries.ts';

/**
 * How a membership's role reads in `roles`: owners are administrators too, and a
 * contractor carries `contractor` next to their role.
 */
export function rolesOf(role: Role, isContractor: boolean): string[] {
  const roles: string[] = role === 'owner' ? ['owner', 'administrator'] : [role];
  if (isContractor) roles.push('contractor');
  return roles;
}

/** The minimal directory item: exactly these six fields (personal keys, members). */
export function directoryItem(row: MemberRow) {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    is_active: row.is_active,
    is_contractor: row.is_contractor,
    roles: rolesOf(row.role, row.is_contractor),
  };
}

/** The full member record, for owners, administrators and managers. */
export function memberItem(row: MemberRow) {
  // Object.assign, not a literal opening with a spread: Node.js 20 is slow at those, once per row (decisions: "Node.js 20's spreads").
  return Object.assign(directoryItem(row), {
    email: row.email,
    user_type: row.user_type,
    permissions: row.role === 'manager' ? row.permissions : [],
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  });
}
