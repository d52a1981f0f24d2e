import type { Kysely, Transaction } from 'kysely';
import type { CredentialKind, DB } from '../../../db/types.ts';
import { newId } from '../../../ids.ts';
import { badRequest, conflict, notFound } from '../../../errors.ts';
import { generateKey } from '../../../auth/keys.ts';
import type { Principal } from '../../../auth/principal.ts';
import { actingUserId } from '../../../access/operator.ts';
import { audit } from '../../workspace/audit/service.ts';

/** After a rotation the previous key keeps working this long, so deployments can switch over. */
export const ROTATION_OVERLAP_MS = 15 * 60 * 1000;

const PUBLIC_COLUMNS = [
  'id',
  'company_id',
  'user_id',
  'kind',
  'name',
  'prefix',
  'family_id',
  'created_at',
  'expires_at',
  'replaced_at',
  'revoked_at',
  'last_used_at',
] as const;

export interface IssuedKey {
  credential: { id: string; kind: CredentialKind; user_id: string; company_id: string; prefix: string; name: string };
  /** The key itself: shown once, never stored. */
  secret: string;
}

/**
 * Who may hold which key. Full-access keys: any active human or agent member
 * except client memberships (which cannot use general credentials). Personal sync
 * keys: active internal humans only, never agents or clients, one live key each.
 */
async function assertMayHold(trx: Transaction<DB>, companyId: string, userId: string, kind: CredentialKind) {
  const member = await trx
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.role', 'm.is_active', 'u.user_type'])
    .where('m.company_id', '=', companyId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  if (!member) throw notFound('user');
  if (!member.is_active) throw badRequest('The user is deactivated in this workspace.', { field: 'user' });
  if (member.role === 'client') throw badRequest('Client memberships cannot hold API keys.', { field: 'user' });
  if (kind === 'personal' && member.user_type === 'agent') {
    throw badRequest('Agent identities cannot create personal sync keys.', { field: 'user' });
  }
}

async function insertKey(
  trx: Transaction<DB>,
  row: { companyId: string; userId: string; kind: CredentialKind; name: string; familyId: string },
): Promise<IssuedKey> {
  const key = generateKey(row.kind);
  const credential = await trx
    .insertInto('credentials')
    .values({
      company_id: row.companyId,
      id: newId(),
      user_id: row.userId,
      kind: row.kind,
      name: row.name,
      prefix: key.displayPrefix,
      secret_hash: key.hash,
      family_id: row.familyId,
    })
    .onConflict((oc) => oc.doNothing())
    .returning(['id', 'kind', 'user_id', 'company_id', 'prefix', 'name'])
    .executeTakeFirst();
  if (!credential) throw conflict('This user already has a personal sync key in this workspace; rotate or revoke it.');
  return { credential, secret: key.secret };
}

export async function createKey(
  db: Kysely<DB>,
  p: Principal,
  input: { userId: string; kind: CredentialKind; name?: string },
): Promise<IssuedKey> {
  const companyId = p.companyId;
  if (input.kind !== 'integration' && input.kind !== 'personal') throw badRequest('kind must be integration or personal.');
  if ((input.name ?? '').length > 255) throw badRequest('name must be at most 255 characters.', { field: 'name' });
  return db.transaction().execute(async (trx) => {
    await assertMayHold(trx, companyId, input.userId, input.kind);
    const issued = await insertKey(trx, { companyId, userId: input.userId, kind: input.kind, name: input.name ?? '', familyId: newId() });
    await audit(trx, {
      companyId,
      action: 'credential.created',
      subjectType: 'credential',
      subjectId: issued.credential.id,
      actorUserId: actingUserId(p),
      details: { kind: input.kind, user_id: input.userId },
    });
    return issued;
  });
}

/** Issues a replacement; the previous key stays valid for ROTATION_OVERLAP_MS. */
export async function rotateKey(db: Kysely<DB>, p: Principal, keyId: string, now: Date): Promise<IssuedKey> {
  const companyId = p.companyId;
  return db.transaction().execute(async (trx) => {
    const old = await trx
      .selectFrom('credentials')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', keyId)
      .forUpdate()
      .executeTakeFirst();
    if (!old) throw notFound('key');
    if (old.revoked_at || old.replaced_at) throw conflict('Only the current key of a family can be rotated.');
    await assertMayHold(trx, companyId, old.user_id, old.kind);
    await trx
      .updateTable('credentials')
      .set({ replaced_at: now, expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS) })
      .where('company_id', '=', companyId)
      .where('id', '=', keyId)
      .execute();
    const issued = await insertKey(trx, { companyId, userId: old.user_id, kind: old.kind, name: old.name, familyId: old.family_id });
    await audit(trx, {
      companyId,
      action: 'credential.rotated',
      subjectType: 'credential',
      subjectId: issued.credential.id,
      actorUserId: actingUserId(p),
      details: { previous_id: keyId },
    });
    return issued;
  });
}

/** Revokes a key at once, together with every other key of its rotation family. */
export async function revokeKey(db: Kysely<DB>, p: Principal, keyId: string, now: Date) {
  const companyId = p.companyId;
  return db.transaction().execute(async (trx) => {
    const key = await trx
      .selectFrom('credentials')
      .select(['family_id'])
      .where('company_id', '=', companyId)
      .where('id', '=', keyId)
      .executeTakeFirst();
    if (!key) throw notFound('key');
    const revoked = await trx
      .updateTable('credentials')
      .set({ revoked_at: now })
      .where('company_id', '=', companyId)
      .where('family_id', '=', key.family_id)
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    await audit(trx, {
      companyId,
      action: 'credential.revoked',
      subjectType: 'credential',
      subjectId: keyId,
      actorUserId: actingUserId(p),
      details: { revoked_ids: revoked.map((r) => r.id) },
    });
    return { revoked_ids: revoked.map((r) => r.id) };
  });
}

export function listKeys(db: Kysely<DB>, p: Principal, userId?: string) {
  let q = db.selectFrom('credentials').select(PUBLIC_COLUMNS).where('company_id', '=', p.companyId);
  if (userId) q = q.where('user_id', '=', userId);
  return q.orderBy('created_at').orderBy('id').execute();
}
