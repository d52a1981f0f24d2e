import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../../db/types.ts';
import type { Principal } from '../../../auth/principal.ts';
import { assertMayAdministerRole } from '../../../access/policy.ts';
import { ApiError, badRequest, notFound } from '../../../errors.ts';
import { isId, newId } from '../../../ids.ts';
import { membershipsOf, validateMemberInput, type MemberInput, createMember, lockMember, updateMemberIn } from '../users/index.ts';
import { setTeammates } from '../teammates/index.ts';
import { audit, SESSIONS_ENDED } from '../../workspace/audit/index.ts';
import { actingUserId } from '../../../access/operator.ts';
import { endAllSessions } from '../../../auth/sessions.ts';
import type { AgentBody, MemberPatch, MemberSchema } from './schemas.ts';

/**
 * The web app's Members page (owners and administrators): the operator's rules
 * of src/modules/people/users/service.ts and src/modules/people/teammates/service.ts,
 * plus what a signed-in administrator may not do that the operator may: make
 * or change an owner (assertMayAdministerRole). Changes are read by the next
 * request's authentication, which reads the membership afresh.
 */

export type Member = Static<typeof MemberSchema>;

type MemberRow = Awaited<ReturnType<typeof membershipsOf>>[number];

function present(row: Omit<MemberRow, 'company_id' | 'created_at' | 'updated_at'>, teammateIds: string[]): Member {
  return {
    id: row.user_id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    user_type: row.user_type,
    role: row.role,
    permissions: [...row.permissions],
    is_contractor: row.is_contractor,
    is_active: row.is_active,
    expected_weekly_hours: row.expected_weekly_hours,
    teammate_ids: teammateIds,
  };
}

async function teammatesOf(db: Kysely<DB> | Transaction<DB>, companyId: string, managerId?: string): Promise<Map<string, string[]>> {
  let q = db.selectFrom('teammate_assignments').select(['manager_id', 'teammate_id']).where('company_id', '=', companyId);
  if (managerId) q = q.where('manager_id', '=', managerId);
  const byManager = new Map<string, string[]>();
  for (const r of await q.orderBy('teammate_id').execute()) {
    byManager.set(r.manager_id, [...(byManager.get(r.manager_id) ?? []), r.teammate_id]);
  }
  return byManager;
}

export async function listMembers(db: Kysely<DB>, companyId: string): Promise<Member[]> {
  const [rows, teammates] = await Promise.all([membershipsOf(db, companyId), teammatesOf(db, companyId)]);
  return rows.map((row) => present(row, teammates.get(row.user_id) ?? []));
}

export type MemberChange = Static<typeof MemberPatch>;

/** PATCH /web/api/members/:user_id: the membership and the manager's teammates, in one transaction. */
export async function changeMember(db: Kysely<DB>, p: Principal, userId: string, change: MemberChange): Promise<Member> {
  if (!isId(userId)) throw notFound('member');
  const { teammate_ids: teammateIds, ...input } = change;
  if (Object.keys(change).length === 0) throw badRequest('Name at least one property to change.');
  validateMemberInput(input);
  return db.transaction().execute(async (trx) => {
    const current = await lockMember(trx, p.companyId, userId).catch(rethrowAs('member'));
    assertMayAdministerRole(p, current.role);
    if (input.role !== undefined) assertMayAdministerRole(p, input.role);
    if (current.user_type === 'agent' && input.role === 'owner') throw agentOwner();
    if (Object.keys(input).length > 0) await updateMemberIn(trx, p, userId, input);
    if (teammateIds !== undefined) {
      const role = input.role ?? current.role;
      if (teammateIds.length > 0 && role !== 'manager') {
        throw badRequest(`Only a manager has teammates; this member is ${role}.`, { field: 'teammate_ids' });
      }
      // The teammate rules name their own fields ('teammate'); the form's field is teammate_ids.
      await setTeammates(trx, p, userId, teammateIds).catch((err: unknown) => {
        if (err instanceof ApiError && err.statusCode < 500) throw badRequest(err.message, { field: 'teammate_ids' });
        throw err;
      });
    }
    const row = await lockMember(trx, p.companyId, userId);
    return present(row, (await teammatesOf(trx, p.companyId, userId)).get(userId) ?? []);
  });
}

const agentOwner = () =>
  badRequest('An agent cannot be an owner: owners are people who sign in and answer for the workspace.', { field: 'role' });

const rethrowAs = (what: string) => (err: unknown) => {
  if (err instanceof ApiError && err.code === 'not_found') throw notFound(what);
  throw err;
};

/**
 * An agent identity: no password, no sign-in, only the keys an administrator
 * binds to it. users.email is required and unique, so an agent gets an address
 * under `.invalid` (RFC 2606), which no mail ever reaches.
 */
export async function createAgent(
  db: Kysely<DB>,
  p: Principal,
  input: Static<typeof AgentBody>,
): Promise<Member> {
  // The schema offers an agent no owner role (agentOwner).
  const role = input.role ?? 'member';
  const memberInput: MemberInput = {
    email: `agent-${newId()}@agents.invalid`,
    first_name: input.name.trim(),
    last_name: '',
    role,
    permissions: input.permissions,
    user_type: 'agent',
  };
  if (!memberInput.first_name) throw badRequest('name must be 1 to 255 characters.', { field: 'name' });
  if (memberInput.first_name.length > 255) throw badRequest('name must be 1 to 255 characters.', { field: 'name' });
  const row = await createMember(db, p, memberInput);
  return present(row, []);
}

/**
 * DELETE /web/api/members/:user_id/sessions: an administrator signs a member out
 * everywhere (a lost laptop). A session may switch to any of the person's
 * workspaces, so every session of theirs ends, whichever workspace it shows now;
 * their API keys stay (Settings → API keys revokes those). Recorded in the audit
 * log; no e-mail. 404 for anyone who is not a member here; only an owner signs out an owner.
 */
export async function endMemberSessions(db: Kysely<DB>, p: Principal, userId: string): Promise<{ ended: number }> {
  if (!isId(userId)) throw notFound('member');
  return db.transaction().execute(async (trx) => {
    const current = await lockMember(trx, p.companyId, userId).catch(rethrowAs('member'));
    assertMayAdministerRole(p, current.role);
    const ended = await endAllSessions(trx, userId);
    await audit(trx, {
      companyId: p.companyId,
      action: SESSIONS_ENDED,
      subjectType: 'user',
      subjectId: userId,
      actorUserId: actingUserId(p),
      credentialId: p.credentialId,
      details: { sessions_ended: ended },
    });
    return { ended };
  });
}
