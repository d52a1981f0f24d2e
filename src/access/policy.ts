import type { ManagerPermission, Role } from '../db/types.ts';
import type { Principal } from '../auth/principal.ts';
import { forbidden } from '../errors.ts';

/**
 * The one place that answers "may this principal do X". Routes declare what they
 * need (see RouteAccess); services ask the functions here; nothing else compares
 * role strings.
 */

/** A route's declared requirement, checked before its handler runs. */
export type RouteAccess =
  | 'public' // no credential at all (health, OpenAPI document, signing in)
  | 'signed-in' // a browser session, whatever its workspace (web routes only: sign-out, switching workspace)
  | 'authenticated' // any active internal member, subject to the personal-key allowlist
  | 'administrator' // owner or administrator
  | ManagerPermission; // owner/administrator, or a manager holding this flag

/**
 * The personal read-only sync key's complete allowlist: these seven requests and
 * nothing else, whatever the owner's role.
 */
export const PERSONAL_SYNC_ALLOWLIST: ReadonlyArray<readonly ['GET', string]> = [
  ['GET', '/api/v2/time_entries'],
  ['GET', '/api/v2/users'],
  ['GET', '/api/v2/users/me'],
  ['GET', '/api/v2/clients'],
  ['GET', '/api/v2/clients/:id'],
  ['GET', '/api/v2/projects'],
  ['GET', '/api/v2/projects/:id'],
];

export function personalKeyAllows(method: string, routeUrl: string): boolean {
  return PERSONAL_SYNC_ALLOWLIST.some(([m, url]) => m === method && url === routeUrl);
}

/** Owners and administrators: every permission, every project of the workspace. */
export const isAdminRole = (role: Role) => role === 'owner' || role === 'administrator';
export const isAdmin = (p: Principal) => isAdminRole(p.role);
export const isManager = (p: Principal) => p.role === 'manager';

/** Owners and administrators hold every permission; managers hold the flags granted to them. */
export function hasPermission(p: Principal, permission: ManagerPermission): boolean {
  return isAdmin(p) || (isManager(p) && p.permissions.includes(permission));
}

/** Throws 403 unless the principal may call a route with this declared access. */
export function assertRouteAccess(p: Principal, method: string, routeUrl: string, access: RouteAccess) {
  if (p.role === 'client') throw forbidden('Client memberships cannot use a general API credential.');
  if (p.kind === 'personal' && !personalKeyAllows(method, routeUrl)) {
    throw forbidden('A personal read-only sync key cannot make this request; use a full-access key.');
  }
  if (access === 'authenticated' || access === 'public' || access === 'signed-in') return;
  if (access === 'administrator' ? !isAdmin(p) : !hasPermission(p, access)) {
    throw forbidden('Your role does not allow this request.');
  }
}

/**
 * Owners alone make someone an owner, or change an owner's membership (role,
 * flags, deactivation) or invitation role: an administrator administers the
 * workspace but can neither take it over nor lock its owners out. Throws 403.
 */
export function assertMayAdministerRole(p: Principal, role: Role, message = 'Only an owner can make someone an owner or change an owner’s membership.') {
  if (!mayAdministerRole(p, role)) throw forbidden(message);
}

/** Whether the caller may act on a membership of this role: an owner's (its role, sessions, keys) only another owner. */
export function mayAdministerRole(p: Principal, role: Role): boolean {
  return role !== 'owner' || p.role === 'owner';
}

/** Whether the caller sees other members with e-mail, type and roles, or only the directory. */
export function seesFullUserRecords(p: Principal): boolean {
  return p.kind !== 'personal' && (isAdmin(p) || isManager(p));
}

/**
 * What a personal sync key may read, derived from the allowlist and the routes the
 * service really has, so the capabilities never promise an endpoint that is missing.
 */
export function personalCapabilities(hasRoute: (method: string, url: string) => boolean) {
  const can = (url: string) => personalKeyAllows('GET', url) && hasRoute('GET', url);
  return {
    can_read_own_time_entries: can('/api/v2/time_entries'),
    can_read_users: can('/api/v2/users'),
    can_read_own_profile: can('/api/v2/users/me'),
    can_read_clients: can('/api/v2/clients'),
    can_read_projects: can('/api/v2/projects'),
  };
}
