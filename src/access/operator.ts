import type { Principal } from '../auth/principal.ts';
import { MANAGER_PERMISSIONS } from '../db/types.ts';

/**
 * The operator: whoever runs `sheaf admin` on the database (and the first start,
 * which creates the first workspace's owner). They act through the same service
 * functions as the API and the web routes, as a principal of kind 'operator':
 *
 * - with an owner's role and every manager permission, so every access check
 *   of this folder lets them through as it lets an owner through;
 * - as nobody: no user, no credential. The audit trail names no actor for them
 *   (actor_user_id and credential_id empty), as it always has (auditActor);
 * - a few things only the operator does (change an identity's e-mail directly,
 *   record a payment in full, close or void by number): isOperator.
 */

/** Never a user's id (UUIDv7 ids are never all zeros); a query on it finds nothing, a foreign key refuses it. */
export const OPERATOR_USER_ID = '00000000-0000-0000-0000-000000000000';

/** The operator acting in a workspace. */
export function operatorPrincipal(companyId: string): Principal {
  return {
    kind: 'operator',
    credentialId: null,
    companyId,
    companyName: '',
    userId: OPERATOR_USER_ID,
    email: '',
    firstName: 'Operator',
    lastName: '',
    userType: 'human',
    role: 'owner',
    permissions: MANAGER_PERMISSIONS,
    isContractor: false,
    isActive: true,
  };
}

export const isOperator = (p: Principal) => p.kind === 'operator';

/** The user an audit entry names as acting: the caller's; nobody (null) for the operator. */
export const actingUserId = (p: Principal): string | null => (isOperator(p) ? null : p.userId);

/** Who an audit entry names as acting: the user and credential of a caller; nobody for the operator. */
export function auditActor(p: Principal): { companyId: string; actorUserId: string | null; credentialId: string | null } {
  return { companyId: p.companyId, actorUserId: actingUserId(p), credentialId: p.credentialId };
}
