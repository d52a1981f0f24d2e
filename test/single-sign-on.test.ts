import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { addMember, createTestContext, createWorkspaceWithOwner, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { startProvider, type TestProvider } from './fixtures/oidc-provider.ts';
import { RESET_MAIL_EVERY_MS, setPassword } from '../src/modules/people/sessions/service.ts';
import { deactivateMember } from '../src/modules/people/users/service.ts';
import { operatorPrincipal } from '../src/access/operator.ts';
import { sealSecret } from '../src/auth/secret-box.ts';
import { EXCLUDED_TABLES } from '../src/modules/workspace/backup/resources.ts';
import { TEST_SECRET_KEY } from './secret-key.ts';

/**
 * Single sign-on with OpenID Connect (issue 28 item 1), against a real oidc-provider on
 * 127.0.0.1: the settings (administrators only, the secret sealed and never answered, the
 * issuer checked by discovery, 409 without a server key), the flow (PKCE, state, nonce; a
 * member matched by verified e-mail then by subject, joining by an allowed domain with the
 * configured role, a disallowed domain, an unverified e-mail, a deactivated member, a wrong
 * state, a replayed callback, an expired ID token, a provider that is down, a refusal at the
 * provider), no second factor after it, discovery for the sign-in page, and password sign-in
 * turned off.
 */

const PUBLIC_URL = 'http://sheaf.test';
const REDIRECT_URI = `${PUBLIC_URL}/web/api/sso/callback`;
const PASSWORD = 'correct horse battery staple';
const OWNER_PASSWORD = `${PASSWORD} owner`;

let ctx: TestContext;
let provider: TestProvider;
let owner: Caller;
let ownerSession: Caller;
let companyId: string;
let domain: string;

beforeAll(async () => {
  // ID tokens live 2 minutes: the expiry test moves Sheaf's clock 5 minutes on (the pending login lives 10).
  provider = await startProvider([REDIRECT_URI], { idTokenTtlSeconds: 120 });
  ctx = await createTestContext({ config: { publicUrl: PUBLIC_URL } });
  const w = await createWorkspaceWithOwner(ctx.db, 'Single Sign-On Inc');
  owner = w.owner;
  companyId = w.company.id;
  await setPassword(ctx.db, owner.userId, OWNER_PASSWORD); // before the session: a new password ends the others
  ownerSession = await sessionFor(ctx.db, owner, ctx.clock.now());
  domain = `sso-${Date.now().toString(36)}.example`;
  const saved = await put(ownerSession, settings());
  expect(saved.statusCode, saved.body).toBe(200);
});
afterAll(async () => {
  await ctx?.close();
  await provider?.stop();
});

function settings(overrides: Record<string, unknown> = {}) {
  return {
    issuer: provider.issuer,
    client_id: provider.clientId,
    client_secret: provider.clientSecret,
    allowed_domains: [domain],
    new_member_role: 'manager',
    allow_password_sign_in: true,
    display_name: 'Acme ID',
    ...overrides,
  };
}

const put = (caller: Caller | null, payload: object) => request(ctx.app, caller, { method: 'PUT', url: '/web/api/single-sign-on', payload });
const get = (caller: Caller | null) => request(ctx.app, caller, { method: 'GET', url: '/web/api/single-sign-on' });

let counter = 0;
/** A fresh account at the provider; its id is the subject. */
function account(claims: { email?: string; email_verified?: boolean; given_name?: string; family_name?: string }) {
  const id = `subject-${++counter}-${Date.now().toString(36)}`;
  provider.accounts.set(id, claims);
  return id;
}

/** The start route: its 302 to the provider. */
async function start(workspace = companyId, next?: string) {
  const res = await ctx.app.inject({ method: 'GET', url: `/web/api/sso/${workspace}/start${next ? `?next=${encodeURIComponent(next)}` : ''}` });
  return res;
}

/** Start, log in at the provider as `accountId`: the callback URL the provider sends the browser to (not yet called). */
async function throughProvider(accountId: string, workspace = companyId, next?: string): Promise<URL> {
  const res = await start(workspace, next);
  expect(res.statusCode, res.body).toBe(302);
  const auth = new URL(res.headers.location as string);
  expect(auth.origin).toBe(provider.issuer);
  return provider.login(auth.href, accountId);
}

const callback = (url: URL) => ctx.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });

async function signInThrough(accountId: string, next?: string) {
  return callback(await throughProvider(accountId, companyId, next));
}

function sessionCookie(res: LightMyRequestResponse): string | undefined {
  const cookies = res.headers['set-cookie'];
  const list = Array.isArray(cookies) ? cookies : cookies ? [String(cookies)] : [];
  return list.map((c) => c.split(';')[0]!).find((c) => /^sheaf_session=[A-Za-z0-9_-]{20,}/.test(c));
}

async function whoIs(res: LightMyRequestResponse) {
  const cookie = sessionCookie(res);
  expect(cookie, 'a session cookie').toBeDefined();
  const me = await ctx.app.inject({ method: 'GET', url: '/web/api/session', headers: { cookie: cookie! } });
  expect(me.statusCode).toBe(200);
  return me.json() as { user: { id: string; email: string }; workspace: { id: string; role: string } };
}

const failures = (reason: string) =>
  ctx.db
    .selectFrom('audit_logs')
    .select(['details', 'subject_id'])
    .where('company_id', '=', companyId)
    .where('action', '=', 'session.sign_in_failed')
    .where(({ eb, ref }) => eb(eb.cast(ref('details'), 'text'), 'like', `%"reason": "${reason}"%`).or(eb(eb.cast(ref('details'), 'text'), 'like', `%"reason":"${reason}"%`)))
    .execute();

describe('settings', () => {
  it('keeps the client secret sealed: never in an answer, only client_secret_set', async () => {
    const res = await get(ownerSession);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      enabled: true,
      issuer: provider.issuer,
      client_id: provider.clientId,
      client_secret_set: true,
      allowed_domains: [domain],
      new_member_role: 'manager',
      allow_password_sign_in: true,
      display_name: 'Acme ID',
      redirect_uri: REDIRECT_URI,
      available: true,
    });
    expect(res.body).not.toContain(provider.clientSecret);
    const row = await ctx.db.selectFrom('single_sign_on_configs').select('client_secret').where('company_id', '=', companyId).executeTakeFirstOrThrow();
    expect(row.client_secret).toMatch(/^v1\./);
    expect(row.client_secret).not.toContain(provider.clientSecret);
    // Saving without a secret keeps the stored one; the answer again lacks it.
    const again = await put(ownerSession, { ...settings(), client_secret: undefined, display_name: 'Acme ID' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.body).not.toContain(provider.clientSecret);
    const audit = await ctx.db.selectFrom('audit_logs').select('details').where('company_id', '=', companyId).where('action', '=', 'sso.configured').execute();
    expect(audit.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(audit)).not.toContain(provider.clientSecret);
  });

  it('is never in the backup: the tables are excluded, and no resource carries the secret', async () => {
    for (const table of ['single_sign_on_configs', 'single_sign_on_links', 'single_sign_on_logins']) expect(EXCLUDED_TABLES[table]).toBeDefined();
    const sealed = (await ctx.db.selectFrom('single_sign_on_configs').select('client_secret').where('company_id', '=', companyId).executeTakeFirstOrThrow()).client_secret;
    const manifest = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/backup' });
    expect(manifest.statusCode).toBe(200);
    for (const r of manifest.json().resources as { name: string; endpoint: string }[]) {
      const page = await request(ctx.app, owner, { method: 'GET', url: r.endpoint });
      expect(page.body).not.toContain(provider.clientSecret);
      expect(page.body).not.toContain(sealed);
    }
  });

  it('refuses members (403), unknown fields and wrong types (400), an issuer that is no provider (400 naming issuer)', async () => {
    const member = await sessionFor(ctx.db, await addMember(ctx.db, companyId, { role: 'member' }), ctx.clock.now());
    const manager = await sessionFor(ctx.db, await addMember(ctx.db, companyId, { role: 'manager', permissions: ['edit_projects'] }), ctx.clock.now());
    for (const who of [member, manager]) {
      expect((await get(who)).statusCode).toBe(403);
      expect((await put(who, settings())).statusCode).toBe(403);
      expect((await request(ctx.app, who, { method: 'DELETE', url: '/web/api/single-sign-on' })).statusCode).toBe(403);
    }
    const unknown = await put(ownerSession, { ...settings(), surprise: true });
    expect(unknown.statusCode).toBe(400);
    for (const [field, value] of [
      ['allow_password_sign_in', 'yes'],
      ['allowed_domains', 'example.com'],
      ['new_member_role', 'owner'],
      ['issuer', 42],
      ['display_name', ''],
    ] as const) {
      const res = await put(ownerSession, { ...settings(), [field]: value });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
    }
    const badDomain = await put(ownerSession, settings({ allowed_domains: ['not a domain'] }));
    expect(badDomain.statusCode).toBe(400);
    expect(badDomain.json().field).toBe('allowed_domains.0');
    // A closed port on this machine: nothing answers discovery.
    const unreachable = await put(ownerSession, settings({ issuer: 'http://127.0.0.1:9/nothing' }));
    expect(unreachable.statusCode, unreachable.body).toBe(400);
    expect(unreachable.json().field).toBe('issuer');
    // Plain HTTP is refused anywhere but this machine.
    const insecure = await put(ownerSession, settings({ issuer: 'http://idp.example.com' }));
    expect(insecure.statusCode).toBe(400);
    expect(insecure.json().field).toBe('issuer');
    // Nothing of that changed the stored settings.
    expect((await get(ownerSession)).json()).toMatchObject({ issuer: provider.issuer, display_name: 'Acme ID' });
  });

  it('is per workspace: another workspace’s administrator sees and removes only their own', async () => {
    const other = await createWorkspaceWithOwner(ctx.db, 'Elsewhere');
    const otherSession = await sessionFor(ctx.db, other.owner, ctx.clock.now());
    const theirs = await get(otherSession);
    expect(theirs.json()).toMatchObject({ enabled: false, issuer: null, client_secret_set: false });
    expect((await request(ctx.app, otherSession, { method: 'DELETE', url: '/web/api/single-sign-on' })).statusCode).toBe(204);
    expect((await get(ownerSession)).json().enabled).toBe(true);
    // Starting a sign-in at a workspace without single sign-on, or one that does not exist.
    for (const id of [other.company.id, '019a0000-0000-7000-8000-000000000000', 'not-an-id']) {
      const res = await start(id);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/sign-in?sso_error=provider');
    }
  });

  it('refuses to save without a server secret key (409) and says so in the state', async () => {
    const bare = await createTestContext({ env: { SHEAF_SECRET_KEY: '' }, config: { publicUrl: PUBLIC_URL } });
    try {
      const w = await createWorkspaceWithOwner(bare.db, 'No Key');
      const s = await sessionFor(bare.db, w.owner, bare.clock.now());
      const state = await request(bare.app, s, { method: 'GET', url: '/web/api/single-sign-on' });
      expect(state.json()).toMatchObject({ enabled: false, available: false });
      const res = await request(bare.app, s, { method: 'PUT', url: '/web/api/single-sign-on', payload: settings() });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('SHEAF_SECRET_KEY');
    } finally {
      await bare.close();
    }
  });
});

describe('signing in through the provider', () => {
  it('matches a member by verified e-mail, links the subject, then matches by subject alone', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member', email: `mia.${Date.now().toString(36)}@elsewhere.example` });
    const subject = account({ email: m.email, email_verified: true, given_name: 'Mia' });
    const res = await signInThrough(subject, '/time/week?start=2026-01-05');
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/time/week?start=2026-01-05');
    const me = await whoIs(res);
    expect(me.user.id).toBe(m.userId);
    expect(me.workspace.id).toBe(companyId);
    const link = await ctx.db.selectFrom('single_sign_on_links').selectAll().where('user_id', '=', m.userId).executeTakeFirstOrThrow();
    expect(link).toMatchObject({ company_id: companyId, issuer: provider.issuer, subject });
    const signedIn = await ctx.db.selectFrom('audit_logs').select('details').where('company_id', '=', companyId).where('subject_id', '=', m.userId).where('action', '=', 'session.signed_in').execute();
    expect(signedIn.map((r) => (r.details as { method: string }).method)).toContain('sso');
    // The new way into the account is e-mailed to its owner, once.
    const linkedMail = async () =>
      (await ctx.db.selectFrom('outbox').select('payload').where('company_id', '=', companyId).where('kind', '=', 'sso_linked').execute()).filter((r) =>
        JSON.stringify(r.payload).includes(m.email),
      );
    expect(await linkedMail()).toHaveLength(1);

    // The provider now says another, unverified address: the subject still finds the person.
    provider.accounts.set(subject, { email: 'changed@nowhere.example', email_verified: false });
    const again = await signInThrough(subject);
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('/');
    expect((await whoIs(again)).user.id).toBe(m.userId);
    expect(await linkedMail()).toHaveLength(1);
  });

  it('asks no second factor of a person with two-factor codes: the provider is it', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member', email: `tf.${Date.now().toString(36)}@elsewhere.example` });
    await ctx.db
      .insertInto('user_two_factor')
      .values({ user_id: m.userId, secret: sealSecret([TEST_SECRET_KEY], 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'), enabled_at: ctx.clock.now() })
      .execute();
    const res = await signInThrough(account({ email: m.email, email_verified: true }));
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
    expect((await whoIs(res)).user.id).toBe(m.userId);
  });

  it('lets a new person of an allowed domain join with the configured role', async () => {
    const email = `newcomer.${Date.now().toString(36)}@${domain}`;
    const res = await signInThrough(account({ email, email_verified: true, given_name: 'Nora', family_name: 'Newcomer' }));
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/');
    const me = await whoIs(res);
    expect(me.user.email).toBe(email);
    expect(me.workspace.role).toBe('manager');
    const user = await ctx.db.selectFrom('users').select(['first_name', 'last_name']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(user).toEqual({ first_name: 'Nora', last_name: 'Newcomer' });
    const actions = await ctx.db.selectFrom('audit_logs').select('action').where('company_id', '=', companyId).where('subject_id', '=', me.user.id).execute();
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['member.created', 'sso.member_joined', 'session.signed_in']));
  });

  it('refuses a new person of another domain, creating nobody', async () => {
    const email = `stranger.${Date.now().toString(36)}@not-allowed.example`;
    const res = await signInThrough(account({ email, email_verified: true, given_name: 'Stan' }));
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/sign-in?sso_error=domain');
    expect(sessionCookie(res)).toBeUndefined();
    expect(await ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    expect((await failures('sso_domain')).length).toBeGreaterThan(0);
  });

  it('refuses an e-mail the provider has not verified, even of an allowed domain or a member', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member', email: `unv.${Date.now().toString(36)}@${domain}` });
    const res = await signInThrough(account({ email: m.email, email_verified: false }));
    expect(res.headers.location).toBe('/sign-in?sso_error=unverified');
    const none = await signInThrough(account({}));
    expect(none.headers.location).toBe('/sign-in?sso_error=unverified');
    expect(await ctx.db.selectFrom('single_sign_on_links').select('user_id').where('user_id', '=', m.userId).executeTakeFirst()).toBeUndefined();
  });

  it('refuses anyone whose account is active in another workspace that does not trust this provider, by e-mail, by joining and by subject', async () => {
    // The victim: a member of another workspace only. This workspace's administrators run the
    // provider, so it could assert the victim's address; joining or matching would hand over the account.
    const other = await createWorkspaceWithOwner(ctx.db, 'Victim’s Workspace');
    const victim = await addMember(ctx.db, other.company.id, { role: 'owner', email: `victim.${Date.now().toString(36)}@${domain}` });
    const joining = await signInThrough(account({ email: victim.email, email_verified: true }));
    expect(joining.headers.location).toBe('/sign-in?sso_error=elsewhere');
    expect(sessionCookie(joining)).toBeUndefined();
    expect(await ctx.db.selectFrom('memberships').select('user_id').where('user_id', '=', victim.userId).where('company_id', '=', companyId).executeTakeFirst()).toBeUndefined();

    // A member of both (added here by an administrator) is refused as well, and no subject is linked.
    await addMember(ctx.db, companyId, { role: 'member', email: victim.email });
    const subject = account({ email: victim.email, email_verified: true });
    expect((await signInThrough(subject)).headers.location).toBe('/sign-in?sso_error=elsewhere');
    expect(await ctx.db.selectFrom('single_sign_on_links').select('user_id').where('user_id', '=', victim.userId).executeTakeFirst()).toBeUndefined();
    expect((await failures('sso_elsewhere')).length).toBeGreaterThan(0);

    // Someone linked earlier who then joins a workspace without this provider is refused by subject too.
    const m = await addMember(ctx.db, companyId, { role: 'member', email: `later.${Date.now().toString(36)}@${domain}` });
    const theirs = account({ email: m.email, email_verified: true });
    expect((await signInThrough(theirs)).headers.location).toBe('/');
    await addMember(ctx.db, other.company.id, { role: 'member', email: m.email });
    expect((await signInThrough(theirs)).headers.location).toBe('/sign-in?sso_error=elsewhere');
  });

  it('refuses a deactivated member, by e-mail and by subject', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member', email: `gone.${Date.now().toString(36)}@${domain}` });
    const subject = account({ email: m.email, email_verified: true });
    expect((await signInThrough(subject)).headers.location).toBe('/');
    await deactivateMember(ctx.db, operatorPrincipal(companyId), m.userId);
    const res = await signInThrough(subject);
    expect(res.headers.location).toBe('/sign-in?sso_error=deactivated');
    const other = await signInThrough(account({ email: m.email, email_verified: true }));
    expect(other.headers.location).toBe('/sign-in?sso_error=deactivated');
    expect((await failures('sso_deactivated')).some((r) => r.subject_id === m.userId)).toBe(true);
  });

  it('refuses a wrong state, and a callback used twice (a replayed code)', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member', email: `replay.${Date.now().toString(36)}@elsewhere.example` });
    const back = await throughProvider(account({ email: m.email, email_verified: true }));
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state-we-sent');
    const wrong = await callback(forged);
    expect(wrong.headers.location).toBe('/sign-in?sso_error=state');
    expect(sessionCookie(wrong)).toBeUndefined();
    const missing = await ctx.app.inject({ method: 'GET', url: '/web/api/sso/callback?code=abc' });
    expect(missing.headers.location).toBe('/sign-in?sso_error=state');

    const first = await callback(back);
    expect(first.headers.location).toBe('/');
    const replay = await callback(back);
    expect(replay.statusCode).toBe(302);
    expect(replay.headers.location).toBe('/sign-in?sso_error=state');
    expect(sessionCookie(replay)).toBeUndefined();
    expect((await failures('sso_state')).length).toBeGreaterThan(0);
  });

  it('refuses an ID token past its expiry (Sheaf’s clock 5 minutes on; the token lives 2), and a pending login past 10 minutes', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member', email: `late.${Date.now().toString(36)}@elsewhere.example` });
    const subject = account({ email: m.email, email_verified: true });
    const back = await throughProvider(subject);
    ctx.clock.advance(5 * 60_000);
    const res = await callback(back);
    expect(res.headers.location).toBe('/sign-in?sso_error=expired');
    expect(sessionCookie(res)).toBeUndefined();
    const detail = (await failures('sso_expired')).map((r) => (r.details as { detail: string }).detail);
    expect(detail.some((d) => /ID token/.test(d))).toBe(true);

    // The pending login itself: 10 minutes.
    const slow = await throughProvider(subject);
    ctx.clock.advance(11 * 60_000);
    expect((await callback(slow)).headers.location).toBe('/sign-in?sso_error=expired');
  });

  it('says denied when the person refuses at the provider', async () => {
    const res = await start();
    const state = new URL(res.headers.location as string).searchParams.get('state')!;
    const back = await ctx.app.inject({ method: 'GET', url: `/web/api/sso/callback?error=access_denied&state=${encodeURIComponent(state)}` });
    expect(back.headers.location).toBe('/sign-in?sso_error=denied');
  });

  it('stores the pending login by the state’s hash, with PKCE and a nonce in the URL', async () => {
    const res = await start(companyId, 'https://evil.example/steal');
    const url = new URL(res.headers.location as string);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    const state = url.searchParams.get('state')!;
    const rows = await ctx.db.selectFrom('single_sign_on_logins').select(['state_hash', 'next']).execute();
    expect(JSON.stringify(rows)).not.toContain(state);
    // Another origin as `next` becomes home.
    expect(rows.map((r) => r.next)).not.toContain('https://evil.example/steal');
  });

  it('sends the browser back to sign-in with sso_error=provider when the provider is down', async () => {
    const down = await startProvider([REDIRECT_URI]);
    const w = await createWorkspaceWithOwner(ctx.db, 'Down Provider');
    const s = await sessionFor(ctx.db, w.owner, ctx.clock.now());
    const saved = await put(s, { ...settings({ allowed_domains: [] }), issuer: down.issuer, client_id: down.clientId, client_secret: down.clientSecret });
    expect(saved.statusCode, saved.body).toBe(200);
    await down.stop();
    const res = await start(w.company.id);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/sign-in?sso_error=provider');
    const logged = await ctx.db.selectFrom('audit_logs').select('details').where('company_id', '=', w.company.id).where('action', '=', 'session.sign_in_failed').execute();
    expect(logged.map((r) => (r.details as { reason: string }).reason)).toContain('sso_provider');
  });
});

describe('the sign-in page’s discovery', () => {
  it('answers the workspaces that take an e-mail’s domain, and the one a link names: ids and button names only', async () => {
    const found = await ctx.app.inject({ method: 'GET', url: `/web/api/sso/discover?email=${encodeURIComponent(`someone@${domain.toUpperCase()}`)}` });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual([{ workspace_id: companyId, name: 'Acme ID' }]);
    for (const email of ['someone@unknown.example', 'nonsense', '']) {
      expect((await ctx.app.inject({ method: 'GET', url: `/web/api/sso/discover?email=${encodeURIComponent(email)}` })).json()).toEqual([]);
    }
    expect((await ctx.app.inject({ method: 'GET', url: `/web/api/sso/discover?workspace=${companyId}` })).json()).toEqual([{ workspace_id: companyId, name: 'Acme ID' }]);
    expect((await ctx.app.inject({ method: 'GET', url: '/web/api/sso/discover?workspace=not-an-id' })).json()).toEqual([]);
    expect((await ctx.app.inject({ method: 'GET', url: '/web/api/sso/discover?other=1' })).statusCode).toBe(400);
  });
});

describe('password sign-in turned off', () => {
  it('refuses a right password of a person whose every workspace is single sign-on only (403), not a wrong one (401), and never an owner', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'administrator' });
    await setPassword(ctx.db, m.userId, PASSWORD);
    const signIn = (email: string, password: string) => ctx.app.inject({ method: 'POST', url: '/web/api/session', payload: { email, password } });
    expect((await signIn(m.email, PASSWORD)).statusCode).toBe(200);

    expect((await put(ownerSession, settings({ allow_password_sign_in: false }))).statusCode).toBe(200);
    try {
      const refused = await signIn(m.email, PASSWORD);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('password_sign_in_disabled');
      expect(sessionCookie(refused)).toBeUndefined();
      // A wrong password still says only that.
      expect((await signIn(m.email, 'wrong password entirely')).json().error).toBe('invalid_credentials');
      // The owner keeps the password.
      expect((await signIn(owner.email, OWNER_PASSWORD)).statusCode).toBe(200);
      // A workspace of theirs that allows passwords lets them in.
      const other = await createWorkspaceWithOwner(ctx.db, 'Passwords Welcome');
      await addMember(ctx.db, other.company.id, { role: 'member', email: m.email });
      expect((await signIn(m.email, PASSWORD)).statusCode).toBe(200);
    } finally {
      expect((await put(ownerSession, settings({ allow_password_sign_in: true }))).statusCode).toBe(200);
    }
  });

  it('sends no reset link to such a person, and a link sent before sets no password', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member' });
    await setPassword(ctx.db, m.userId, PASSWORD);
    const resets = async () =>
      (await ctx.db.selectFrom('outbox').select('payload').where('company_id', '=', companyId).where('kind', '=', 'password_reset').execute()).filter((r) =>
        JSON.stringify(r.payload).includes(m.email),
      );
    const ask = () => ctx.app.inject({ method: 'POST', url: '/web/api/password-resets', payload: { email: m.email } });
    expect((await ask()).statusCode).toBe(202);
    await ctx.app.afterAnswer.settled();
    const sent = await resets();
    expect(sent).toHaveLength(1);
    const token = /reset-password#([A-Za-z0-9_-]{43})/.exec(JSON.stringify(sent[0]!.payload))![1]!;

    expect((await put(ownerSession, settings({ allow_password_sign_in: false }))).statusCode).toBe(200);
    try {
      // The same answer as for any address (it says nothing), and no e-mail: past the minute
      // between two resets, so the refusal is the setting's, not the throttle's.
      ctx.clock.advance(RESET_MAIL_EVERY_MS);
      expect((await ask()).statusCode).toBe(202);
      await ctx.app.afterAnswer.settled();
      expect(await resets()).toHaveLength(1);
      const redeem = await ctx.app.inject({ method: 'POST', url: '/web/api/password-resets/redeem', payload: { token, password: 'a brand new password here' } });
      expect(redeem.statusCode).toBe(403);
      expect(redeem.json().error).toBe('password_sign_in_disabled');
      expect(sessionCookie(redeem)).toBeUndefined();
    } finally {
      expect((await put(ownerSession, settings({ allow_password_sign_in: true }))).statusCode).toBe(200);
    }
    // The old password is still the one.
    expect((await ctx.app.inject({ method: 'POST', url: '/web/api/session', payload: { email: m.email, password: PASSWORD } })).statusCode).toBe(200);
  });

  it('turns off with DELETE, recorded in the log; discovery then finds nothing', async () => {
    const w = await createWorkspaceWithOwner(ctx.db, 'Removing');
    const s = await sessionFor(ctx.db, w.owner, ctx.clock.now());
    const d = `rm-${Date.now().toString(36)}.example`;
    expect((await put(s, settings({ allowed_domains: [d] }))).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: `/web/api/sso/discover?email=a@${d}` })).json()).toHaveLength(1);
    expect((await request(ctx.app, s, { method: 'DELETE', url: '/web/api/single-sign-on' })).statusCode).toBe(204);
    expect((await ctx.app.inject({ method: 'GET', url: `/web/api/sso/discover?email=a@${d}` })).json()).toEqual([]);
    const actions = await ctx.db.selectFrom('audit_logs').select('action').where('company_id', '=', w.company.id).execute();
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['sso.configured', 'sso.removed']));
  });
});
