import type { Static } from '@sinclair/typebox';
import type { Kysely, Transaction } from 'kysely';
import type { CredentialKind, DB, Role } from '../../../db/types.ts';
import type { Principal } from '../../../auth/principal.ts';
import { assertMayAdministerRole, isAdmin, mayAdministerRole } from '../../../access/policy.ts';
import { isId, newId } from '../../../ids.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../../errors.ts';
import { generateKey } from '../../../auth/keys.ts';
import { actingUserId } from '../../../access/operator.ts';
import { audit } from '../../workspace/audit/index.ts';
import type { NewKey } from './schemas.ts';

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
 * A key that acts as an owner is issued by an owner only: an administrator who
 * could mint one could act as the owner, which assertMayAdministerRole forbids.
 */
async function assertMayHold(trx: Transaction<DB>, p: Principal, userId: string, kind: CredentialKind) {
  const companyId = p.companyId;
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
  assertMayAdministerRole(p, member.role, 'Only an owner creates or rotates a key that acts as an owner.');
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
    await assertMayHold(trx, p, input.userId, input.kind);
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
    await assertMayHold(trx, p, old.user_id, old.kind);
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

/**
 * Settings -> API and Developers (the spec's Authentication section): who may do
 * what with keys in the web app. The key rules themselves (who may hold which
 * kind, one live personal key, rotation overlap, family revocation) are above,
 * shared with the operator's CLI.
 *
 * - Full-access integration keys: owners and administrators create, rotate and
 *   revoke them, bound to any human or agent member (not a client membership).
 * - Personal sync keys: each active internal member creates and rotates their
 *   own; nobody rotates another's (that would hand them a key that reads as
 *   someone else). Owners and administrators may revoke anyone's, as revoking
 *   only takes access away.
 * - Owners and administrators list every key; others list the keys bound to
 *   themselves (integration keys included, read-only for them).
 */

function keyQuery(db: Kysely<DB>, companyId: string) {
  return db
    .selectFrom('credentials as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .leftJoin('memberships as m', (j) => j.onRef('m.company_id', '=', 'c.company_id').onRef('m.user_id', '=', 'c.user_id'))
    .select(['c.id', 'c.kind', 'c.name', 'c.prefix', 'c.user_id', 'u.first_name', 'u.last_name', 'c.created_at', 'c.last_used_at', 'c.expires_at', 'c.revoked_at'])
    .select('m.role as holder_role')
    .where('c.company_id', '=', companyId);
}

type KeyRow = Awaited<ReturnType<ReturnType<typeof keyQuery>['executeTakeFirstOrThrow']>>;

/** Why the caller may not revoke this key, or nothing: the refusal and the page's Revoke button follow it. */
function revokeRefusal(p: Principal, key: { kind: CredentialKind; holder_role: Role | null }): string | undefined {
  if (key.kind === 'integration' && !isAdmin(p)) return 'Only an owner or administrator revokes full-access keys.';
  // Taking an owner's access away is changing an owner's membership (sessions, keys): another owner's to do.
  if (key.holder_role && !mayAdministerRole(p, key.holder_role)) return 'Only an owner revokes a key that acts as an owner.';
  return undefined;
}

function presentKey(p: Principal, r: KeyRow) {
  return {
    id: r.id,
    kind: r.kind,
    name: r.name,
    prefix: r.prefix,
    user: { id: r.user_id, name: [r.first_name, r.last_name].filter(Boolean).join(' ') },
    created_at: r.created_at.toISOString(),
    last_used_at: r.last_used_at?.toISOString() ?? null,
    expires_at: r.expires_at?.toISOString() ?? null,
    revoked_at: r.revoked_at?.toISOString() ?? null,
    may_revoke: !revokeRefusal(p, r),
  };
}

export async function listWebKeys(db: Kysely<DB>, p: Principal) {
  let q = keyQuery(db, p.companyId);
  if (!isAdmin(p)) q = q.where('c.user_id', '=', p.userId);
  return (await q.orderBy('c.created_at').orderBy('c.id').execute()).map((r) => presentKey(p, r));
}

/** A key the caller can see (404 otherwise: another workspace's, another member's for a non-administrator, unknown, malformed). */
async function visibleKey(db: Kysely<DB>, p: Principal, id: string): Promise<KeyRow> {
  if (!isId(id)) throw notFound('key');
  let q = keyQuery(db, p.companyId).where('c.id', '=', id);
  if (!isAdmin(p)) q = q.where('c.user_id', '=', p.userId);
  const row = await q.executeTakeFirst();
  if (!row) throw notFound('key');
  return row;
}

async function issuedTo(db: Kysely<DB>, p: Principal, key: IssuedKey) {
  return { key: presentKey(p, await visibleKey(db, p, key.credential.id)), secret: key.secret };
}

export async function createWebKey(db: Kysely<DB>, p: Principal, input: Static<typeof NewKey>) {
  if (input.kind === 'integration') {
    if (!isAdmin(p)) throw forbidden('Only an owner or administrator creates full-access keys.');
  } else if (input.user_id !== undefined && input.user_id !== p.userId) {
    throw forbidden('A personal sync key is created by its owner, for themselves.');
  }
  const userId = input.user_id ?? p.userId;
  const key = await createKey(db, p, { userId, kind: input.kind, name: input.name }).catch((err: unknown) => {
    // The key rules name the holder 'user' (the CLI's --user); the web form's field is user_id.
    if (err instanceof ApiError && err.extras.field === 'user') throw new ApiError(err.code, err.message, { ...err.extras, field: 'user_id' });
    throw err;
  });
  return issuedTo(db, p, key);
}

export async function rotateWebKey(db: Kysely<DB>, p: Principal, id: string, now: Date) {
  const key = await visibleKey(db, p, id);
  if (key.kind === 'integration' && !isAdmin(p)) throw forbidden('Only an owner or administrator rotates full-access keys.');
  if (key.kind === 'personal' && key.user_id !== p.userId) throw forbidden('Only its owner rotates a personal sync key; revoke it instead.');
  return issuedTo(db, p, await rotateKey(db, p, key.id, now));
}

export async function revokeWebKey(db: Kysely<DB>, p: Principal, id: string, now: Date) {
  const key = await visibleKey(db, p, id);
  const refusal = revokeRefusal(p, key);
  if (refusal) throw forbidden(refusal);
  await revokeKey(db, p, key.id, now);
}
