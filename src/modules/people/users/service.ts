import type { Static } from '@sinclair/typebox';
import { updatedSinceOf } from '../../../http/route-kit.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { actingUserId, isOperator } from '../../../access/operator.ts';
import { assertMayAdministerRole, seesFullUserRecords } from '../../../access/policy.ts';
import { withTenant } from '../../../db/tenant.ts';
import { endSessionsIn } from '../../../auth/sessions.ts';
import type { DB } from '../../../db/types.ts';
import { newId } from '../../../ids.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../../errors.ts';
import type { PageParams } from '../../../http/pagination.ts';
import { audit } from '../../workspace/audit/index.ts';
import { setEmail } from './email.ts';
import { directoryItem, memberItem } from './presenter.ts';
import { listMembers, membershipsOf } from './queries.ts';
import { assertPermissionsFitRole, validateMemberInput, type MemberInput } from './rules.ts';
import type { UsersQuery } from './schemas.ts';
/**
 * Membership administration: adding a member (a new or an existing identity),
 * changing and deactivating one. The web app's Members page
 * (src/modules/people/members) and the operator (`sheaf admin user`, the first
 * start) call these with their principal; only an owner (or the operator) makes
 * or changes an owner.
 */
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

export async function createMember(db: Kysely<DB>, p: Principal, input: MemberInput) {
  const companyId = p.companyId;
  if (!input.email) throw badRequest('email is required.', { field: 'email' });
  if (!input.first_name) throw badRequest('first_name is required.', { field: 'first_name' });
  validateMemberInput(input);
  const role = input.role ?? 'member';
  const userType = input.user_type ?? 'human';
  if (userType === 'agent' && role === 'client') throw badRequest('An agent cannot have the client role.', { field: 'role' });
  assertPermissionsFitRole(role, input.permissions);
  assertMayAdministerRole(p, role);
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
    await audit(trx, { companyId, action: 'member.created', subjectType: 'user', subjectId: user.id, actorUserId: actingUserId(p), details: { role } });
    return { ...membership, email: user.email, first_name: user.first_name, last_name: user.last_name, user_type: user.user_type };
  });
}

/**
 * Changes a member. `email` is the identity's (every workspace of the person) and
 * only the operator sets it this way (`sheaf admin user update --email`); people
 * change their own through a confirmed link (modules/profile).
 */
export async function updateMember(db: Kysely<DB>, p: Principal, userId: string, input: MemberInput) {
  validateMemberInput(input);
  if (Object.keys(input).length === 0) throw badRequest('Name at least one property to change.');
  const { email, ...changes } = input;
  if (email !== undefined && !isOperator(p)) {
    throw forbidden('Only the operator changes an e-mail address directly; people change their own in their profile.');
  }
  const companyId = p.companyId;
  return db.transaction().execute(async (trx) => {
    if (email !== undefined) {
      const current = await memberOrThrow(trx, companyId, userId);
      if (current.email !== email) {
        await setEmail(trx, userId, email, new Date());
        await audit(trx, { companyId, action: 'member.email_changed', subjectType: 'user', subjectId: userId, actorUserId: actingUserId(p), details: { from: current.email, to: email } });
      }
    }
    return updateMemberIn(trx, p, userId, changes);
  });
}

/** The current membership with the person's identity, locked for the transaction; 404 when there is none. */
export const lockMember = memberOrThrow;

/**
 * updateMember inside the caller's transaction (the web app changes a member and
 * their teammates at once). Returns the member as changed.
 */
export async function updateMemberIn(trx: Transaction<DB>, p: Principal, userId: string, input: MemberInput) {
  const companyId = p.companyId;
  validateMemberInput(input);
  if (input.email !== undefined || input.user_type !== undefined) {
    throw badRequest('email and user_type identify the user and cannot be changed.');
  }
  const { first_name, last_name, ...membershipChanges } = input;
  const current = await memberOrThrow(trx, companyId, userId);
  assertMayAdministerRole(p, current.role);
  if (membershipChanges.role !== undefined) assertMayAdministerRole(p, membershipChanges.role);
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
  // What leaving the manager role took away, for the membership's record.
  const cleared: { teammates_unassigned?: number; permissions_removed?: string[] } = {};
  if (leavesManagerRole) {
    // A former manager keeps neither flags nor teammates: promoting them again
    // later must not silently bring back what they held before.
    membershipChanges.permissions = [];
    if (current.permissions.length > 0) cleared.permissions_removed = current.permissions;
    const unassigned = await trx
      .deleteFrom('teammate_assignments')
      .where('company_id', '=', companyId)
      .where('manager_id', '=', userId)
      .returning('teammate_id')
      .execute();
    // One entry per teammate, as unassigning one by hand writes, so each teammate's history shows it.
    for (const { teammate_id } of unassigned) {
      await audit(trx, {
        companyId,
        action: 'teammate.unassigned',
        subjectType: 'user',
        subjectId: teammate_id,
        actorUserId: actingUserId(p),
        details: { manager_id: userId, reason: 'manager_role_changed' },
      });
    }
    if (unassigned.length > 0) cleared.teammates_unassigned = unassigned.length;
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
  // A deactivated member's sessions in this workspace end at once (they could not use them anyway:
  // authentication refuses an inactive membership); their sessions elsewhere are other workspaces'.
  const deactivated = current.is_active && membershipChanges.is_active === false;
  const reactivated = !current.is_active && membershipChanges.is_active === true;
  const sessionsEnded = deactivated ? await endSessionsIn(trx, companyId, userId) : undefined;
  // The details hold what was asked (the members form sends is_active on every save), so
  // `activation` says when the membership really was turned off or on.
  const activation = deactivated ? { activation: 'deactivated' } : reactivated ? { activation: 'reactivated' } : {};
  await audit(trx, {
    companyId,
    action: 'member.updated',
    subjectType: 'user',
    subjectId: userId,
    actorUserId: actingUserId(p),
    details: { ...input, ...activation, ...(sessionsEnded === undefined ? {} : { sessions_ended: sessionsEnded }), ...cleared },
  });
  return memberOrThrow(trx, companyId, userId);
}

export function deactivateMember(db: Kysely<DB>, p: Principal, userId: string) {
  return updateMember(db, p, userId, { is_active: false });
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
  if (!other) throw conflict('A workspace needs at least one active owner: make another member owner first.', { refusal: 'last_owner' });
}

/** Every membership of the principal's workspace with the person's identity, by name. */
export const listMemberships = (db: Kysely<DB>, p: Principal) => membershipsOf(db, p.companyId);

/**
 * GET /api/v2/users: owners, administrators and managers get every membership in full;
 * personal sync keys and other members the directory (internal human memberships, six fields).
 * A personal sync key may not filter by `updated_since`.
 */
export async function listUsers(db: Kysely<DB>, p: Principal, query: Static<typeof UsersQuery>, page: PageParams) {
  if (p.kind === 'personal' && query.updated_since !== undefined) {
    throw new ApiError('unknown_field', "A personal sync key cannot use the query parameter 'updated_since'.", {
      field: 'updated_since',
    });
  }
  const full = seesFullUserRecords(p);
  const { rows, total } = await withTenant(db, p.companyId, (trx) =>
    listMembers(
      trx,
      p.companyId,
      {
        isActive: query.is_active === undefined ? undefined : query.is_active === 'true',
        updatedSince: updatedSinceOf(query.updated_since),
        directoryOnly: !full,
      },
      page,
    ),
  );
  return { users: rows.map(full ? memberItem : directoryItem), total };
}
