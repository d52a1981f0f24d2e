import type { Static } from '@sinclair/typebox';
import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { auditActor, operatorPrincipal } from '../../../access/operator.ts';
import { openSecret, sealSecret, type SecretKeys } from '../../../auth/secret-box.ts';
import { hashToken } from '../../../auth/sessions.ts';
import { withTenant } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { badRequest, conflict } from '../../../errors.ts';
import { isId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import { createMember, sendSecurityNotice } from '../users/index.ts';
import { authorizationUrl, discover, exchangeCode, newChecks, ProviderError, type Identity } from './provider.ts';
import { domainOf, normalDomain, PENDING_LOGIN_MS, safeNext, type NewMemberRole, type SsoError } from './rules.ts';
import type { Discovered, SingleSignOnConfig, SingleSignOnInput } from './schemas.ts';

/**
 * Single sign-on with OpenID Connect (docs/decisions.md, "Single sign-on (issue 28 item 1)"):
 * a workspace's provider, set by its owners and administrators; the sign-in through it
 * (start: a pending login and the provider's URL; callback: the code exchanged, the person
 * matched by subject, then by verified e-mail, or joining when their domain is allowed).
 * The session itself is opened by the web route through sessions' openSession.
 */

/** A sign-in through the provider that failed: the sign-in page shows `code`; `companyId` when the workspace is known (for its log). */
export class SsoFailure extends Error {
  constructor(
    readonly code: SsoError,
    readonly companyId: string | null,
    readonly userId: string | null = null,
    detail?: string,
  ) {
    super(detail ?? code);
  }
}

const secretKeyMissing = () =>
  conflict('Single sign-on needs a secret key on the server (SHEAF_SECRET_KEY) to keep the client secret under, which this one lacks: ask whoever runs Sheaf to set it.');

type ConfigRow = Selectable<DB['single_sign_on_configs']>;

async function configOf(db: Kysely<DB>, companyId: string): Promise<ConfigRow | undefined> {
  return db.selectFrom('single_sign_on_configs').selectAll().where('company_id', '=', companyId).executeTakeFirst();
}

export async function singleSignOnState(db: Kysely<DB>, keys: SecretKeys, p: Principal, redirectUri: string): Promise<Static<typeof SingleSignOnConfig>> {
  const row = await withTenant(db, p.companyId, (trx) => trx.selectFrom('single_sign_on_configs').selectAll().where('company_id', '=', p.companyId).executeTakeFirst());
  return {
    enabled: row !== undefined,
    issuer: row?.issuer ?? null,
    client_id: row?.client_id ?? null,
    client_secret_set: row !== undefined,
    allowed_domains: row ? [...row.allowed_domains] : [],
    new_member_role: (row?.new_member_role ?? 'member') as Static<typeof SingleSignOnConfig>['new_member_role'],
    allow_password_sign_in: row?.allow_password_sign_in ?? true,
    display_name: row?.display_name ?? null,
    redirect_uri: redirectUri,
    available: keys.length > 0,
  };
}

/**
 * Saves the workspace's provider. 409 without a server secret key; 400 naming the field for
 * a bad domain or a missing first secret, and naming `issuer` when discovery fails (it is
 * read now, so a typo is found here, not at someone's sign-in).
 */
export async function saveSingleSignOn(db: Kysely<DB>, keys: SecretKeys, p: Principal, input: Static<typeof SingleSignOnInput>, now: () => Date) {
  if (keys.length === 0) throw secretKeyMissing();
  const domains: string[] = [];
  for (const [i, value] of input.allowed_domains.entries()) {
    const d = normalDomain(value);
    if (!d) throw badRequest(`"${value}" is not an e-mail domain (such as example.com).`, { field: `allowed_domains.${i}` });
    if (!domains.includes(d)) domains.push(d);
  }
  const issuer = input.issuer.trim().replace(/\/+$/, '');
  const clientId = input.client_id.trim();
  const existing = await withTenant(db, p.companyId, (trx) => trx.selectFrom('single_sign_on_configs').select('client_secret').where('company_id', '=', p.companyId).executeTakeFirst());
  let secret = input.client_secret;
  if (secret === undefined) {
    if (!existing) throw badRequest('Enter the client secret.', { field: 'client_secret' });
    secret = openSecret(keys, existing.client_secret);
  }
  try {
    await discover({ issuer, clientId, clientSecret: secret }, now);
  } catch (err) {
    throw badRequest(`No OpenID Connect provider answers at this issuer URL (${(err as Error).message}).`, { field: 'issuer' });
  }
  const sealed = sealSecret(keys, secret);
  const values = {
    issuer,
    client_id: clientId,
    client_secret: sealed,
    allowed_domains: domains,
    new_member_role: input.new_member_role,
    allow_password_sign_in: input.allow_password_sign_in,
    display_name: input.display_name.trim(),
    updated_at: now(),
  };
  await withTenant(db, p.companyId, async (trx) => {
    await trx
      .insertInto('single_sign_on_configs')
      .values({ company_id: p.companyId, ...values, created_at: now() })
      .onConflict((oc) => oc.column('company_id').doUpdateSet(values))
      .execute();
    const { client_secret: _sealed, updated_at: _at, ...details } = values;
    await audit(trx, { ...auditActor(p), action: 'sso.configured', subjectType: 'workspace', subjectId: p.companyId, details: { ...details, secret_changed: input.client_secret !== undefined } });
  });
}

/**
 * Turns single sign-on off: people sign in with passwords (and links) again; the subject links
 * stay for a later provider of the same issuer. Returns the issuer it removed, null when none was set up.
 */
export async function removeSingleSignOn(db: Kysely<DB>, p: Principal): Promise<string | null> {
  return withTenant(db, p.companyId, async (trx) => {
    const gone = await trx.deleteFrom('single_sign_on_configs').where('company_id', '=', p.companyId).returning('issuer').executeTakeFirst();
    if (gone) await audit(trx, { ...auditActor(p), action: 'sso.removed', subjectType: 'workspace', subjectId: p.companyId, details: { issuer: gone.issuer } });
    return gone?.issuer ?? null;
  });
}

/** The sign-in page's question: the workspaces that take this e-mail's domain (or the one named), with their button's name; nothing else. */
export async function discoverWorkspaces(db: Kysely<DB>, query: { email?: string; workspace?: string }): Promise<Static<typeof Discovered>> {
  let q = db.selectFrom('single_sign_on_configs').select(['company_id as workspace_id', 'display_name as name']).orderBy('display_name').orderBy('company_id').limit(10);
  if (query.workspace !== undefined) {
    if (!isId(query.workspace)) return [];
    q = q.where('company_id', '=', query.workspace);
  } else {
    const domain = query.email ? domainOf(query.email) : null;
    if (!domain) return [];
    q = q.where(sql<boolean>`allowed_domains @> array[${domain}]::text[]`);
  }
  return q.execute();
}

async function providerOf(db: Kysely<DB>, keys: SecretKeys, companyId: string, now: () => Date) {
  const row = await configOf(db, companyId);
  if (!row) throw new SsoFailure('provider', null, null, 'single sign-on is not set up for this workspace');
  let clientSecret: string;
  try {
    clientSecret = openSecret(keys, row.client_secret);
  } catch (err) {
    throw new SsoFailure('provider', companyId, null, `the client secret cannot be opened: ${(err as Error).message}`);
  }
  try {
    return { row, config: await discover({ issuer: row.issuer, clientId: row.client_id, clientSecret }, now) };
  } catch (err) {
    throw new SsoFailure('provider', companyId, null, (err as Error).message);
  }
}

/**
 * GET /web/api/sso/:workspace_id/start: a pending login (state, nonce and PKCE verifier, where
 * to go next; 10 minutes, used once, kept by the state's hash) and the provider's URL.
 */
export async function startSignIn(db: Kysely<DB>, keys: SecretKeys, workspaceId: string, next: string | undefined, redirectUri: string, now: () => Date): Promise<URL> {
  if (!isId(workspaceId)) throw new SsoFailure('provider', null, null, 'no such workspace');
  const { config } = await providerOf(db, keys, workspaceId, now);
  const checks = newChecks();
  const at = now();
  await db.deleteFrom('single_sign_on_logins').where('expires_at', '<', new Date(at.getTime() - 24 * 3600_000)).execute();
  await db
    .insertInto('single_sign_on_logins')
    .values({
      state_hash: hashToken(checks.state),
      company_id: workspaceId,
      nonce: checks.nonce,
      code_verifier: checks.codeVerifier,
      next: safeNext(next),
      created_at: at,
      expires_at: new Date(at.getTime() + PENDING_LOGIN_MS),
    })
    .execute();
  return authorizationUrl(config, redirectUri, checks);
}

/** Where the callback came from, for the failure's audit record. */
export interface From {
  address: string;
  userAgent?: string;
}

/**
 * GET /web/api/sso/callback: uses the pending login once, exchanges the code and validates the
 * ID token, then finds the person: by the provider's subject, else by a verified e-mail of a
 * member (linking the subject), else a new member when the e-mail's domain is allowed.
 * Returns who to open a session for; SsoFailure otherwise.
 */
export async function finishSignIn(
  db: Kysely<DB>,
  keys: SecretKeys,
  query: Record<string, string | undefined>,
  callbackUrl: URL,
  now: () => Date,
): Promise<{ userId: string; companyId: string; next: string }> {
  const state = query.state;
  if (!state) throw new SsoFailure('state', null, null, 'no state');
  const at = now();
  const pending = await db
    .updateTable('single_sign_on_logins')
    .set({ used_at: at })
    .where('state_hash', '=', hashToken(state))
    .where('used_at', 'is', null)
    .returning(['company_id', 'nonce', 'code_verifier', 'next', 'expires_at'])
    .executeTakeFirst();
  if (!pending) {
    const used = await db.selectFrom('single_sign_on_logins').select('company_id').where('state_hash', '=', hashToken(state)).executeTakeFirst();
    throw new SsoFailure('state', used?.company_id ?? null, null, used ? 'the sign-in was completed already' : 'unknown state');
  }
  const companyId = pending.company_id;
  if (pending.expires_at.getTime() <= at.getTime()) throw new SsoFailure('expired', companyId, null, 'the sign-in took longer than 10 minutes');
  if (query.error) throw new SsoFailure(query.error === 'access_denied' ? 'denied' : 'provider', companyId, null, `the provider answered ${query.error}`);
  const { row, config } = await providerOf(db, keys, companyId, now);
  let identity: Identity;
  try {
    identity = await exchangeCode(config, callbackUrl, { state, nonce: pending.nonce, codeVerifier: pending.code_verifier });
  } catch (err) {
    if (err instanceof ProviderError) throw new SsoFailure(err.kind === 'expired' ? 'expired' : 'provider', companyId, null, err.message);
    throw err;
  }
  const userId = await personFor(db, row, identity, now);
  return { userId, companyId, next: pending.next };
}

/** The person an identity signs in as, in the workspace of `config` (see finishSignIn). */
async function personFor(db: Kysely<DB>, config: ConfigRow, identity: Identity, now: () => Date): Promise<string> {
  const companyId = config.company_id;
  const membershipOf = (userId: string) =>
    db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.is_active', 'u.user_type'])
      .where('m.company_id', '=', companyId)
      .where('m.user_id', '=', userId)
      .executeTakeFirst();

  // A workspace's provider speaks for its own people only. A Sheaf account is one across workspaces
  // (a session can switch between them), so an account that is also active in a workspace not
  // trusting this issuer is refused: otherwise an administrator who runs their own provider could
  // assert anyone's address and sign in as them everywhere.
  const assertOnlyHere = async (userId: string) => {
    const elsewhere = await db
      .selectFrom('memberships as m')
      .leftJoin('single_sign_on_configs as c', 'c.company_id', 'm.company_id')
      .select('m.company_id')
      .where('m.user_id', '=', userId)
      .where('m.is_active', '=', true)
      .where('m.company_id', '!=', companyId)
      .where((eb) => eb.or([eb('c.issuer', 'is', null), eb('c.issuer', '!=', identity.issuer)]))
      .limit(1)
      .executeTakeFirst();
    if (elsewhere) throw new SsoFailure('elsewhere', companyId, userId, 'the person is active in a workspace that does not sign in through this provider');
  };

  const linked = await db
    .selectFrom('single_sign_on_links')
    .select('user_id')
    .where('company_id', '=', companyId)
    .where('issuer', '=', identity.issuer)
    .where('subject', '=', identity.subject)
    .executeTakeFirst();
  if (linked) {
    const m = await membershipOf(linked.user_id);
    if (!m || !m.is_active || m.user_type !== 'human') throw new SsoFailure('deactivated', companyId, linked.user_id, 'the linked person is no active member');
    await assertOnlyHere(linked.user_id);
    return linked.user_id;
  }

  if (!identity.email || !identity.emailVerified) throw new SsoFailure('unverified', companyId, null, 'the provider vouches for no e-mail address');
  const user = await db.selectFrom('users').select(['id', 'user_type']).where('email', '=', identity.email).executeTakeFirst();
  const m = user ? await membershipOf(user.id) : undefined;
  let userId: string;
  if (user && m) {
    if (!m.is_active || m.user_type !== 'human') throw new SsoFailure('deactivated', companyId, user.id, 'the member is deactivated');
    await assertOnlyHere(user.id);
    userId = user.id;
  } else {
    const domain = domainOf(identity.email);
    if (!domain || !config.allowed_domains.includes(domain)) throw new SsoFailure('domain', companyId, user?.id ?? null, `the domain ${domain} may not join`);
    if (user && user.user_type !== 'human') throw new SsoFailure('denied', companyId, null, 'the address belongs to an agent');
    if (user) await assertOnlyHere(user.id);
    const [first, ...rest] = (identity.name ?? '').split(/\s+/).filter(Boolean);
    const created = await createMember(db, operatorPrincipal(companyId), {
      email: identity.email,
      first_name: (identity.givenName ?? first ?? identity.email.split('@')[0]!).slice(0, 100),
      last_name: (identity.familyName ?? rest.join(' ')).slice(0, 100),
      role: config.new_member_role as NewMemberRole,
    }).catch((err: unknown) => {
      // Joined meanwhile (a second callback at once), or an identity that cannot be a member.
      throw new SsoFailure('denied', companyId, null, `joining failed: ${(err as Error).message}`);
    });
    userId = created.user_id;
    await audit(db, { companyId, action: 'sso.member_joined', subjectType: 'user', subjectId: userId, actorUserId: userId, details: { issuer: identity.issuer, role: config.new_member_role } });
  }
  const link = await db
    .insertInto('single_sign_on_links')
    .values({ company_id: companyId, issuer: identity.issuer, subject: identity.subject, user_id: userId })
    .onConflict((oc) => oc.doNothing())
    .returning('user_id')
    .executeTakeFirst();
  // A new way into an account that existed before is news to its owner (a joiner's account is new).
  if (link && user && m) await sendSecurityNotice(db, userId, 'sso_linked', { companyId, now: now() });
  return userId;
}

/** A failed sign-in through the provider, in the workspace's log (`session.sign_in_failed`, reason `sso_<code>`), when the workspace is known. */
export async function auditSsoFailure(db: Kysely<DB>, failure: SsoFailure, from: From) {
  if (!failure.companyId) return;
  await audit(db, {
    companyId: failure.companyId,
    action: 'session.sign_in_failed',
    subjectType: 'user',
    subjectId: failure.userId,
    actorUserId: failure.userId,
    details: { method: 'sso', reason: `sso_${failure.code}`, detail: failure.message.slice(0, 500), address: from.address, ...(from.userAgent ? { user_agent: from.userAgent.slice(0, 512) } : {}) },
  });
}
