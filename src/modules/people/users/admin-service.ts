import type { Kysely, Transaction } from 'kysely';
import { MANAGER_PERMISSIONS, type DB, type ManagerPermission, type Role, type UserType } from '../../../db/types.ts';
import { newId } from '../../../ids.ts';
import { badRequest, conflict, notFound } from '../../../errors.ts';
import { audit } from '../../workspace/audit/service.ts';
import { assertValidEmail, setEmail } from './email.ts';

/**
 * Membership administration for the operator (`sheaf admin user`). A user is one
 * identity (e-mail) that may belong to several workspaces; the membership holds
 * the role, manager permission flags, contractor and active flags.
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

async function memberOrThrow(trx: Transaction<DB>, companyId: string, userId: string) {
  const row = await trx
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .selectAll('m')
    .select(['u.email', 'u.first_name', 'u.last_name', 'u.user_type'])
    .where('m.company_id', '=', companyId)
    .where('m.user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('user');
  return row;
}

/** Who made a change, for the audit log (the web app's signed-in administrator; none for the operator's CLI). */
export interface Actor {
  userId: string;
}

export async function createMember(db: Kysely<DB>, companyId: string, input: MemberInput, actor?: Actor) {
  if (!input.email) throw badRequest('email is required.', { field: 'email' });
  if (!input.first_name) throw badRequest('first_name is required.', { field: 'first_name' });
  validateMemberInput(input);
  const role = input.role ?? 'member';
  const userType = input.user_type ?? 'human';
  if (userType === 'agent' && role === 'client') throw badRequest('An agent cannot have the client role.', { field: 'role' });
  assertPermissionsFitRole(role, input.permissions);
  const email = input.email.toLowerCase();
  return db.transaction().execute(async (trx) => {
    const company = await trx.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst();
    if (!company) throw notFound('workspace');
    // The identity is shared across workspaces: reuse it when the e-mail is known.
    let user = await trx.selectFrom('users').selectAll().where('email', '=', email).forUpdate().executeTakeFirst();
    if (!user) {
      user = await trx
        .insertInto('users')
        .values({
          id: newId(),
          email,
          first_name: input.first_name!,
          last_name: input.last_name ?? '',
          user_type: userType,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    } else if (user.user_type !== userType) {
      throw conflict(`${email} already exists as a ${user.user_type} identity.`);
    }
    const membership = await trx
      .insertInto('memberships')
      .values({
        company_id: companyId,
        user_id: user.id,
        role,
        permissions: input.permissions ?? [],
        is_contractor: input.is_contractor ?? false,
        is_active: input.is_active ?? true,
        expected_weekly_hours: input.expected_weekly_hours ?? null,
      })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!membership) throw conflict(`${email} is already a member of this workspace.`);
    await audit(trx, { companyId, action: 'member.created', subjectType: 'user', subjectId: user.id, actorUserId: actor?.userId, details: { role } });
    return { ...membership, email: user.email, first_name: user.first_name, last_name: user.last_name, user_type: user.user_type };
  });
}

/** Manager permission flags mean something only on the manager role (owners and administrators hold them all). */
export function assertPermissionsFitRole(role: Role, permissions: ManagerPermission[] | undefined) {
  if (role !== 'manager' && permissions && permissions.length > 0) {
    throw badRequest(`permissions apply only to the manager role, not to ${role}.`, { field: 'permissions' });
  }
}

/**
 * Changes a member. `email` is the identity's (every workspace of the person) and
 * only the operator sets it this way (`sheaf admin user update --email`); people
 * change their own through a confirmed link (modules/profile).
 */
export async function updateMember(db: Kysely<DB>, companyId: string, userId: string, input: MemberInput, actor?: Actor) {
  validateMemberInput(input);
  if (Object.keys(input).length === 0) throw badRequest('Name at least one property to change.');
  const { email, ...changes } = input;
  return db.transaction().execute(async (trx) => {
    if (email !== undefined) {
      const current = await memberOrThrow(trx, companyId, userId);
      if (current.email !== email) {
        await setEmail(trx, userId, email, new Date());
        await audit(trx, { companyId, action: 'member.email_changed', subjectType: 'user', subjectId: userId, actorUserId: actor?.userId, details: { from: current.email, to: email } });
      }
    }
    return updateMemberIn(trx, companyId, userId, changes, actor);
  });
}

/** The current membership with the person's identity, locked for the transaction; 404 when there is none. */
export const lockMember = memberOrThrow;

/**
 * updateMember inside the caller's transaction (the web app changes a member and
 * their teammates at once). Returns the member as changed.
 */
export async function updateMemberIn(trx: Transaction<DB>, companyId: string, userId: string, input: MemberInput, actor?: Actor) {
  validateMemberInput(input);
  if (input.email !== undefined || input.user_type !== undefined) {
    throw badRequest('email and user_type identify the user and cannot be changed.');
  }
  const { first_name, last_name, ...membershipChanges } = input;
  const current = await memberOrThrow(trx, companyId, userId);
  const demotesOwner =
    current.role === 'owner' &&
    current.is_active &&
    ((membershipChanges.role !== undefined && membershipChanges.role !== 'owner') || membershipChanges.is_active === false);
  if (demotesOwner) await assertAnotherActiveOwner(trx, companyId, userId);
  if (current.user_type === 'agent' && membershipChanges.role === 'client') {
    throw badRequest('An agent cannot have the client role.', { field: 'role' });
  }
  const role = membershipChanges.role ?? current.role;
  assertPermissionsFitRole(role, membershipChanges.permissions);
  const leavesManagerRole = current.role === 'manager' && role !== 'manager';
  if (leavesManagerRole) {
    // A former manager keeps neither flags nor teammates: promoting them again
    // later must not silently bring back what they held before.
    membershipChanges.permissions = [];
    await trx.deleteFrom('teammate_assignments').where('company_id', '=', companyId).where('manager_id', '=', userId).execute();
  }
  if (first_name !== undefined || last_name !== undefined) {
    await trx
      .updateTable('users')
      .set({ first_name, last_name, updated_at: new Date() })
      .where('id', '=', userId)
      .execute();
  }
  if (Object.keys(membershipChanges).length > 0) {
    await trx
      .updateTable('memberships')
      .set({ ...membershipChanges, updated_at: new Date() })
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .execute();
  }
  await audit(trx, { companyId, action: 'member.updated', subjectType: 'user', subjectId: userId, actorUserId: actor?.userId, details: { ...input } });
  return memberOrThrow(trx, companyId, userId);
}

export function deactivateMember(db: Kysely<DB>, companyId: string, userId: string) {
  return updateMember(db, companyId, userId, { is_active: false });
}

async function assertAnotherActiveOwner(trx: Transaction<DB>, companyId: string, userId: string) {
  // Lock the workspace row so two owners demoting each other at once cannot both
  // pass this check: the second waits, then sees the first one's change.
  await trx.selectFrom('companies').select('id').where('id', '=', companyId).forUpdate().executeTakeFirst();
  const other = await trx
    .selectFrom('memberships')
    .select('user_id')
    .where('company_id', '=', companyId)
    .where('role', '=', 'owner')
    .where('is_active', '=', true)
    .where('user_id', '<>', userId)
    .executeTakeFirst();
  if (!other) throw conflict('A workspace needs at least one active owner: make another member owner first.');
}

export function listMembersForAdmin(db: Kysely<DB>, companyId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .selectAll('m')
    .select(['u.email', 'u.first_name', 'u.last_name', 'u.user_type'])
    .where('m.company_id', '=', companyId)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .orderBy('u.id')
    .execute();
}
