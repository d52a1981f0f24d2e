import type { QueryClient } from '@tanstack/react-query';
import { data } from 'react-router';
import type { PermissionId } from './roles.ts';
import { sessionQuery, type Workspace } from './session.ts';

/**
 * The role rules the pages share, one place each, as the server decides them
 * (src/access/policy.ts and the rules beside it). Pages and navigation use them to
 * leave out what a role cannot use; the server still decides every request. An area's
 * own rules (which report, which client action) are built from these in its access.ts.
 */
export type Who = { role: string; permissions?: readonly string[] };

/** Owners and administrators (the server's isAdmin): every permission, the members and invitations pages. */
export const isAdministrator = (w: Who) => w.role === 'owner' || w.role === 'administrator';

/**
 * Whether a membership holds a permission, as the server's hasPermission decides: owners
 * and administrators hold every one, managers the flags granted to them, members and
 * clients none.
 */
export const holds = (w: Who, permission: PermissionId) => isAdministrator(w) || (w.role === 'manager' && !!w.permissions?.includes(permission));

/** Whether the caller may act on a membership of this role (the server's mayAdministerRole): an owner's only another owner. */
export const mayAdministerRole = (w: Who, role: string) => role !== 'owner' || w.role === 'owner';

/**
 * Owners, administrators and managers (the server's isAdmin || isManager): they review
 * time, use invoices, run the team report and pick another person's week or expenses.
 */
export const isManagerOrAbove = (w: Who) => isAdministrator(w) || w.role === 'manager';

/**
 * Internal members: every role but `client`. The server refuses a client membership
 * every workspace request (assertRouteAccess); it keeps only its own session, password
 * and the start page.
 */
export const usesWorkspace = (w: Who) => w.role !== 'client';

/** The status a route guard throws: the shell shows it as "not available to your role". */
export const NOT_AVAILABLE_STATUS = 403;

/**
 * A page's route guard (for its loader): waits for the session the shell's gate is
 * loading anyway, and throws a 403 route error when the role may not use the page,
 * so a typed address shows "not available to your role" inside the shell instead
 * of a form the server would refuse. Resolves to whether the page may load its data
 * (false without a session or a workspace: the gate signs in or the shell says so).
 */
export async function guardPage(queryClient: QueryClient, allowed: (w: Workspace) => boolean): Promise<boolean> {
  const session = await queryClient.ensureQueryData(sessionQuery).catch(() => null);
  if (!session?.workspace) return false;
  if (!allowed(session.workspace)) throw data('not_available_to_role', { status: NOT_AVAILABLE_STATUS });
  return true;
}

/**
 * The guard of a page every internal member uses (time, expenses, projects…): its data
 * starts at once, beside the session (a cold load stays one call deep), and only a
 * client membership, whose data request the server refuses, is told the page is not
 * available to its role.
 */
export async function guardMemberPage(queryClient: QueryClient, fetch: () => Promise<unknown>): Promise<null> {
  await Promise.all([guardPage(queryClient, usesWorkspace), fetch()]);
  return null;
}
