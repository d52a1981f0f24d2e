import type { Kysely } from 'kysely';
import type { CredentialKind, DB } from '../../../db/types.ts';
import type { Principal } from '../../../auth/principal.ts';
import { isAdmin } from '../../../access/policy.ts';
import { ApiError, forbidden, notFound } from '../../../errors.ts';
import { isId } from '../../../ids.ts';
import { createKey, revokeKey, rotateKey, type IssuedKey } from './service.ts';

/**
 * Settings -> API and Developers (the spec's Authentication section): who may do
 * what with keys in the web app. The key rules themselves (who may hold which
 * kind, one live personal key, rotation overlap, family revocation) stay in
 * service.ts, shared with the operator's CLI.
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

export interface KeyView {
  id: string;
  kind: CredentialKind;
  name: string;
  prefix: string;
  user: { id: string; name: string };
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}

function keyQuery(db: Kysely<DB>, companyId: string) {
  return db
    .selectFrom('credentials as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.id', 'c.kind', 'c.name', 'c.prefix', 'c.user_id', 'u.first_name', 'u.last_name', 'c.created_at', 'c.last_used_at', 'c.expires_at', 'c.revoked_at'])
    .where('c.company_id', '=', companyId);
}

type KeyRow = Awaited<ReturnType<ReturnType<typeof keyQuery>['executeTakeFirstOrThrow']>>;

function present(r: KeyRow): KeyView {
  return {
    id: r.id,
    kind: r.kind,
    name: r.name,
    prefix: r.prefix,
    user: { id: r.user_id, name: [r.first_name, r.last_name].filter(Boolean).join(' ') },
    created_at: r.created_at,
    last_used_at: r.last_used_at,
    expires_at: r.expires_at,
    revoked_at: r.revoked_at,
  };
}

export async function listWebKeys(db: Kysely<DB>, p: Principal): Promise<KeyView[]> {
  let q = keyQuery(db, p.companyId);
  if (!isAdmin(p)) q = q.where('c.user_id', '=', p.userId);
  return (await q.orderBy('c.created_at').orderBy('c.id').execute()).map(present);
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

async function issued(db: Kysely<DB>, p: Principal, key: IssuedKey) {
  return { key: present(await visibleKey(db, p, key.credential.id)), secret: key.secret };
}

export async function createWebKey(db: Kysely<DB>, p: Principal, input: { kind: CredentialKind; name?: string; user_id?: string }) {
  if (input.kind === 'integration') {
    if (!isAdmin(p)) throw forbidden('Only an owner or administrator creates full-access keys.');
  } else if (input.user_id !== undefined && input.user_id !== p.userId) {
    throw forbidden('A personal sync key is created by its owner, for themselves.');
  }
  const userId = input.user_id ?? p.userId;
  const key = await createKey(db, p.companyId, { userId, kind: input.kind, name: input.name }, { userId: p.userId }).catch((err: unknown) => {
    // The key rules name the holder 'user' (the CLI's --user); the web form's field is user_id.
    if (err instanceof ApiError && err.extras.field === 'user') throw new ApiError(err.code, err.message, { ...err.extras, field: 'user_id' });
    throw err;
  });
  return issued(db, p, key);
}

export async function rotateWebKey(db: Kysely<DB>, p: Principal, id: string, now: Date) {
  const key = await visibleKey(db, p, id);
  if (key.kind === 'integration' && !isAdmin(p)) throw forbidden('Only an owner or administrator rotates full-access keys.');
  if (key.kind === 'personal' && key.user_id !== p.userId) throw forbidden('Only its owner rotates a personal sync key; revoke it instead.');
  return issued(db, p, await rotateKey(db, p.companyId, key.id, now, { userId: p.userId }));
}

export async function revokeWebKey(db: Kysely<DB>, p: Principal, id: string, now: Date) {
  const key = await visibleKey(db, p, id);
  if (key.kind === 'integration' && !isAdmin(p)) throw forbidden('Only an owner or administrator revokes full-access keys.');
  await revokeKey(db, p.companyId, key.id, now, { userId: p.userId });
}
