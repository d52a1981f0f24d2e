import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { addMember, createTestContext, createWorkspaceWithOwner, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { RESET_MAIL_EVERY_MS, setPassword } from '../src/modules/people/sessions/service.ts';
import { issueLink, lookUpLink } from '../src/auth/one-time-links.ts';
import {
  ACCOUNT_LIMIT,
  ACCOUNT_WINDOW_MS,
  ADDRESS_LIMIT,
  DEVICE_COOKIE,
  DEVICE_LIMIT,
  PAIR_LIMIT,
  WINDOW_MS,
  beginSignInAttempt,
} from '../src/auth/sign-in-throttle.ts';
import { hashToken, SESSION_IDLE_MS, SESSION_LIFETIME_MS } from '../src/auth/sessions.ts';
import { newId } from '../src/ids.ts';

/**
 * The web app's sign-in (issue 15): e-mail + password sessions in an HttpOnly
 * cookie stored server-side, throttled guessing, sign-out (one or all), expiry,
 * one-time sign-in links, password change and reset by e-mail, CSRF, and a
 * session as one more way to call /api/v2 as the signed-in person.
 */

let ctx: TestContext;
let owner: Caller;
let companyId: string;
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  ctx = await createTestContext();
  const w = await createWorkspaceWithOwner(ctx.db, 'Sessions Inc');
  owner = w.owner;
  companyId = w.company.id;
  await setPassword(ctx.db, owner.userId, PASSWORD);
});
afterAll(() => ctx.close());

const json = (payload: object, headers: Record<string, string> = {}) => ({ payload, headers });

async function signIn(email: string, password: string, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method: 'POST', url: '/web/api/session', ...json({ email, password }, headers) });
}

/** The cookie and CSRF headers of a sign-in response, as the browser and the web app would send them back. */
function sessionHeaders(res: LightMyRequestResponse): Record<string, string> {
  const cookie = String(res.headers['set-cookie']).split(';')[0];
  return { cookie, 'x-csrf-token': res.json().csrf_token };
}

/** The Set-Cookie headers of a response, as a list. */
const setCookies = (res: LightMyRequestResponse): string[] => {
  const h = res.headers['set-cookie'];
  return h === undefined ? [] : Array.isArray(h) ? h : [String(h)];
};

const get = (url: string, headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url, headers });

describe('signing in with e-mail and password', () => {
  it('opens a session in an HttpOnly, SameSite=Lax cookie and says who is signed in where', async () => {
    const res = await signIn(owner.email.toUpperCase(), PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^sheaf_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/); // plain HTTP here; over TLS it is Secure
    const body = res.json();
    expect(body).toMatchObject({
      user: { id: owner.userId, email: owner.email, has_password: true },
      workspace: { id: companyId, name: 'Sessions Inc', role: 'owner' },
      workspaces: [{ id: companyId, name: 'Sessions Inc', role: 'owner' }],
    });
    expect(body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(body)).not.toMatch(/password_hash|scrypt/);

    const again = await get('/web/api/session', sessionHeaders(res));
    expect(again.statusCode).toBe(200);
    expect(again.json().user.id).toBe(owner.userId);
    // The table keeps only the token's hash.
    const stored = await ctx.db.selectFrom('sessions').select('token_hash').where('user_id', '=', owner.userId).execute();
    const token = sessionHeaders(res).cookie.split('=')[1];
    expect(stored.some((s) => s.token_hash.toString('base64url') === token)).toBe(false);
  });

  it('refuses a wrong password and an unknown address with the same 401, and agents never sign in', async () => {
    const wrong = await signIn(owner.email, 'not the password at all');
    const unknown = await signIn('nobody@example.com', PASSWORD);
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        error: 'invalid_credentials',
        error_description: 'The e-mail address or the password is not right.',
        message: 'The e-mail address or the password is not right.',
      });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const agent = await addMember(ctx.db, companyId, { userType: 'agent', role: 'member' });
    await setPassword(ctx.db, agent.userId, PASSWORD);
    expect((await signIn(agent.email, PASSWORD)).statusCode).toBe(401);
  });

  it('answers bad input with 400 and no session', async () => {
    for (const payload of [{}, { email: owner.email }, { email: owner.email, password: PASSWORD, remember: true }, { email: 1, password: PASSWORD }]) {
      const res = await ctx.app.inject({ method: 'POST', url: '/web/api/session', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('is refused from another site (login CSRF), allowed from its own', async () => {
    const evil = await signIn(owner.email, PASSWORD, { origin: 'https://evil.example' });
    expect(evil.statusCode).toBe(403);
    expect(evil.json().error).toBe('csrf_failed');
    expect(evil.headers['set-cookie']).toBeUndefined();
    const own = await signIn(owner.email, PASSWORD, { origin: 'http://localhost:80', host: 'localhost:80' });
    expect(own.statusCode).toBe(200);
  });
});

describe('throttling failed sign-ins', () => {
  /** A sign-in from a client address, with the browser's device cookie if it has one. */
  const signInFrom = (address: string, email: string, password: string, device?: string) =>
    ctx.app.inject({ method: 'POST', url: '/web/api/session', remoteAddress: address, payload: { email, password }, headers: device ? { cookie: `${DEVICE_COOKIE}=${device}` } : {} });
  /** The device cookie a response sets, if any. */
  const deviceOf = (res: LightMyRequestResponse) => setCookies(res).find((c) => c.startsWith(`${DEVICE_COOKIE}=`))?.split(';')[0].split('=')[1];
  /** Failures recorded as the throttle would record a wrong password (each costs a scrypt over HTTP). */
  const fail = async (n: number, attempt: { email: string; address: string; device?: string }) => {
    for (let i = 0; i < n; i++) await beginSignInAttempt(ctx.db, { ...attempt, at: ctx.clock.now() });
  };
  const member = async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member' });
    await setPassword(ctx.db, m.userId, PASSWORD);
    return m;
  };
  const expectThrottled = (res: LightMyRequestResponse, windowMs = WINDOW_MS) => {
    expect(res.statusCode, res.body).toBe(429);
    expect(res.json()).toMatchObject({ error: 'rate_limited' });
    expect(res.json().message).toMatch(/Too many failed sign-ins: wait \d+ minutes/);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
    expect(res.headers['set-cookie']).toBeUndefined();
    return retryAfter;
  };

  it(`attacker: ${PAIR_LIMIT} wrong passwords from one address refuse that address for the account, even the right password, the same whether the account exists or not`, async () => {
    const m = await member();
    for (let i = 0; i < 2; i++) expect((await signInFrom('203.0.113.1', m.email, `wrong ${i}`)).statusCode).toBe(401);
    await fail(PAIR_LIMIT - 2, { email: m.email, address: '203.0.113.1' });
    const retryAfter = expectThrottled(await signInFrom('203.0.113.1', m.email, PASSWORD));
    // An address nobody has: the same answer after the same failures.
    await fail(PAIR_LIMIT, { email: 'nobody-here@example.com', address: '203.0.113.1' });
    expectThrottled(await signInFrom('203.0.113.1', 'nobody-here@example.com', PASSWORD));
    // Another account from the same address is not affected.
    expect((await signInFrom('203.0.113.1', owner.email, PASSWORD)).statusCode).toBe(200);

    ctx.clock.advance(retryAfter * 1000);
    expect((await signInFrom('203.0.113.1', m.email, PASSWORD)).statusCode).toBe(200);
    // The success forgave that address's failures for the account, not the account's own count.
    const left = await ctx.db.selectFrom('sign_in_failures').select('scope').where('subject', 'like', `%${m.email}`).execute();
    expect(left.map((r) => r.scope).sort()).toEqual(Array(PAIR_LIMIT).fill('account'));
    ctx.clock.advance(ACCOUNT_WINDOW_MS);
  });

  it('victim: after a stranger\'s failures, signs in from another address, and from the same address with their device cookie', async () => {
    const victim = await member();
    // The victim signed in before from the office (behind one NAT address) and has its device cookie.
    const before = await signInFrom('198.51.100.9', victim.email, PASSWORD);
    const device = deviceOf(before);
    expect(device).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A stranger in the same office guesses the victim's password, then many others'.
    for (let i = 0; i < 2; i++) expect((await signInFrom('198.51.100.9', victim.email, `guess ${i}`)).statusCode).toBe(401);
    await fail(PAIR_LIMIT, { email: victim.email, address: '198.51.100.9' });
    for (let i = 0; i < ADDRESS_LIMIT; i++) await fail(1, { email: `colleague${i}@example.com`, address: '198.51.100.9' });
    expectThrottled(await signInFrom('198.51.100.9', victim.email, PASSWORD));
    // A colleague without a device cookie at that address waits (the address guessed too much);
    const colleague = await member();
    expectThrottled(await signInFrom('198.51.100.9', colleague.email, PASSWORD));
    // from home, without a device cookie, they sign in;
    const home = await signInFrom('192.0.2.200', colleague.email, PASSWORD);
    expect(home.statusCode).toBe(200);
    // the victim on the same address with their device cookie signs in;
    const office = await signInFrom('198.51.100.9', victim.email, PASSWORD, device);
    expect(office.statusCode, office.body).toBe(200);
    expect(deviceOf(office)).toBe(device); // the same browser keeps its cookie
    // and the victim without a device cookie at another address signs in too.
    expect((await signInFrom('192.0.2.201', victim.email, PASSWORD)).statusCode).toBe(200);
    // The colleague's browser from home now knows them: back at the office, it is not refused either.
    expect((await signInFrom('198.51.100.9', colleague.email, PASSWORD, deviceOf(home))).statusCode).toBe(200);
    ctx.clock.advance(ACCOUNT_WINDOW_MS);
  });

  it(`attacker: a guesser spread over many addresses is bounded per account (${ACCOUNT_LIMIT} an hour), and the victim's device is not`, async () => {
    const victim = await member();
    const device = deviceOf(await signInFrom('192.0.2.50', victim.email, PASSWORD));
    for (let i = 0; i < ACCOUNT_LIMIT; i++) await fail(1, { email: victim.email, address: `10.20.${i >> 8}.${i & 255}` });
    const retryAfter = expectThrottled(await signInFrom('10.21.0.1', victim.email, PASSWORD), ACCOUNT_WINDOW_MS);
    expect(retryAfter).toBeGreaterThan(WINDOW_MS / 1000);
    // An unknown address's account is throttled the same way.
    for (let i = 0; i < ACCOUNT_LIMIT; i++) await fail(1, { email: 'ghost@example.com', address: `10.22.${i >> 8}.${i & 255}` });
    expectThrottled(await signInFrom('10.21.0.1', 'ghost@example.com', PASSWORD), ACCOUNT_WINDOW_MS);
    // The victim's own browser signs in, from anywhere.
    expect((await signInFrom('10.21.0.2', victim.email, PASSWORD, device)).statusCode).toBe(200);
    ctx.clock.advance(retryAfter * 1000);
    expect((await signInFrom('10.21.0.1', victim.email, PASSWORD)).statusCode).toBe(200);
    ctx.clock.advance(ACCOUNT_WINDOW_MS);
  });

  it(`a known device is throttled per account and device (${DEVICE_LIMIT}), which locks out only that device`, async () => {
    const m = await member();
    const device = deviceOf(await signInFrom('192.0.2.60', m.email, PASSWORD))!;
    expect((await signInFrom('192.0.2.60', m.email, 'wrong', device)).statusCode).toBe(401);
    await fail(DEVICE_LIMIT - 1, { email: m.email, address: '192.0.2.60', device });
    expectThrottled(await signInFrom('192.0.2.61', m.email, PASSWORD, device));
    // Its failures counted for no address and not for the account.
    expect((await signInFrom('192.0.2.60', m.email, PASSWORD)).statusCode).toBe(200);
    ctx.clock.advance(WINDOW_MS);
  });

  it('the device cookie: HttpOnly, SameSite=Lax, a year, stored hashed, set only on success; a forged or another account\'s gives no way past', async () => {
    const m = await member();
    const ok = await signInFrom('192.0.2.70', m.email, PASSWORD);
    const cookie = setCookies(ok).find((c) => c.startsWith(`${DEVICE_COOKIE}=`))!;
    expect(cookie).toMatch(/^sheaf_device=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Max-Age=31536000/);
    expect(cookie).not.toMatch(/Secure/); // plain HTTP here; over TLS it is Secure
    expect(setCookies(ok)[0]).toMatch(/^sheaf_session=/);
    const device = deviceOf(ok)!;
    const stored = await ctx.db.selectFrom('sign_in_devices').select('token_hash').where('user_id', '=', m.userId).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash.toString('base64url')).not.toBe(device);
    expect(stored[0].token_hash.equals(hashToken(device))).toBe(true);
    // A failure sets no cookie.
    expect((await signInFrom('192.0.2.70', m.email, 'wrong')).headers['set-cookie']).toBeUndefined();

    // Locked out from an address: a forged cookie, another account's, or a cookie the server never issued do not help.
    await fail(PAIR_LIMIT, { email: m.email, address: '192.0.2.71' });
    const ownersDevice = deviceOf(await signInFrom('192.0.2.72', owner.email, PASSWORD))!;
    for (const forged of ['x'.repeat(43), ownersDevice, device.slice(0, 42) + (device.endsWith('A') ? 'B' : 'A'), 'y'.repeat(500)]) {
      expectThrottled(await signInFrom('192.0.2.71', m.email, PASSWORD, forged));
    }
    // An unknown cookie value is replaced on success, never adopted.
    const adopted = await signInFrom('192.0.2.73', m.email, PASSWORD, 'z'.repeat(43));
    expect(deviceOf(adopted)).not.toBe('z'.repeat(43));
    expect(await ctx.db.selectFrom('sign_in_devices').select('user_id').where('token_hash', '=', hashToken('z'.repeat(43))).execute()).toEqual([]);
    // The real one works.
    expect((await signInFrom('192.0.2.71', m.email, PASSWORD, device)).statusCode).toBe(200);
    // A new password forgets the account's devices: the old cookie no longer passes.
    await setPassword(ctx.db, m.userId, PASSWORD);
    expectThrottled(await signInFrom('192.0.2.71', m.email, PASSWORD, device));
    ctx.clock.advance(ACCOUNT_WINDOW_MS);
  });

  it('a password change forgets the account\'s other devices and remembers the browser that made it', async () => {
    const m = await member();
    const here = await signInFrom('192.0.2.80', m.email, PASSWORD);
    const there = deviceOf(await signInFrom('192.0.2.81', m.email, PASSWORD))!;
    const { cookie, 'x-csrf-token': csrf } = sessionHeaders(here);
    const NEW = 'a brand new password of mine';
    const changed = await ctx.app.inject({
      method: 'PUT',
      url: '/web/api/password',
      headers: { cookie: `${cookie}; ${DEVICE_COOKIE}=${deviceOf(here)}`, 'x-csrf-token': csrf },
      payload: { current_password: PASSWORD, password: NEW },
    });
    expect(changed.statusCode, changed.body).toBe(204);
    const remembered = deviceOf(changed);
    expect(remembered).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await fail(PAIR_LIMIT, { email: m.email, address: '192.0.2.82' });
    expect((await signInFrom('192.0.2.82', m.email, NEW, remembered)).statusCode).toBe(200);
    expectThrottled(await signInFrom('192.0.2.82', m.email, NEW, there));
    ctx.clock.advance(ACCOUNT_WINDOW_MS);
  });

  it('lets no burst of parallel guesses past the limit', async () => {
    const m = await member();
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => signIn(m.email, `guess ${i}`)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(PAIR_LIMIT);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(16 - PAIR_LIMIT);
    expect(codes.every((c) => c === 401 || c === 429)).toBe(true);
    ctx.clock.advance(WINDOW_MS);
  });

  it(`attacker: one client address guessing many accounts is refused after ${ADDRESS_LIMIT} failures; other addresses are not`, async () => {
    const at = ctx.clock.now();
    let tries = 0;
    for (let wait = 0; wait === 0 && tries < 100; tries++) wait = await beginSignInAttempt(ctx.db, { email: `victim${tries}@example.com`, address: '192.0.2.7', at });
    expect(tries).toBe(ADDRESS_LIMIT + 1);
    expect(await beginSignInAttempt(ctx.db, { email: 'someone@example.com', address: '192.0.2.8', at })).toBe(0);
    ctx.clock.advance(WINDOW_MS);
  });
});

describe('a session', () => {
  it('signs out with DELETE /web/api/session (CSRF token required), and the cookie is cleared', async () => {
    const headers = sessionHeaders(await signIn(owner.email, PASSWORD));
    const noToken = await ctx.app.inject({ method: 'DELETE', url: '/web/api/session', headers: { cookie: headers.cookie } });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json().error).toBe('csrf_failed');
    expect((await get('/web/api/session', headers)).statusCode).toBe(200);

    const out = await ctx.app.inject({ method: 'DELETE', url: '/web/api/session', headers });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^sheaf_session=;.*Max-Age=0/);
    const after = await get('/web/api/session', headers);
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('unauthorized');
  });

  it('signs out everywhere with DELETE /web/api/sessions', async () => {
    const a = sessionHeaders(await signIn(owner.email, PASSWORD));
    const b = sessionHeaders(await signIn(owner.email, PASSWORD));
    expect((await ctx.app.inject({ method: 'DELETE', url: '/web/api/sessions', headers: a })).statusCode).toBe(204);
    expect((await get('/web/api/session', a)).statusCode).toBe(401);
    expect((await get('/web/api/session', b)).statusCode).toBe(401);
  });

  it('expires after two idle weeks, and after thirty days however busy', async () => {
    const idle = await sessionFor(ctx.db, owner, ctx.clock.now());
    ctx.clock.advance(SESSION_IDLE_MS + 60_000);
    expect((await get('/web/api/session', idle.headers)).statusCode).toBe(401);

    const busy = await sessionFor(ctx.db, owner, ctx.clock.now());
    for (let elapsed = 0; elapsed + SESSION_IDLE_MS / 2 < SESSION_LIFETIME_MS; elapsed += SESSION_IDLE_MS / 2) {
      expect((await get('/web/api/session', busy.headers)).statusCode).toBe(200);
      ctx.clock.advance(SESSION_IDLE_MS / 2);
    }
    ctx.clock.advance(SESSION_IDLE_MS / 2);
    expect((await get('/web/api/session', busy.headers)).statusCode).toBe(401);
  });

  it('calls /api/v2 as the signed-in person in its workspace; changes need the CSRF token and leave nothing on refusal', async () => {
    const s = await sessionFor(ctx.db, owner, ctx.clock.now());
    const me = await get('/api/v2/users/me', { cookie: s.headers.cookie });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: owner.userId, company: { id: companyId } });

    const before = await ctx.db.selectFrom('clients').select('id').where('company_id', '=', companyId).execute();
    const forged = await ctx.app.inject({ method: 'POST', url: '/api/v2/clients', headers: { cookie: s.headers.cookie }, payload: { name: 'Forged' } });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error).toBe('csrf_failed');
    const wrong = await ctx.app.inject({ method: 'POST', url: '/api/v2/clients', headers: { cookie: s.headers.cookie, 'x-csrf-token': 'x'.repeat(43) }, payload: { name: 'Forged' } });
    expect(wrong.statusCode).toBe(403);
    const crossSite = await ctx.app.inject({ method: 'POST', url: '/api/v2/clients', headers: { ...s.headers, origin: 'https://evil.example' }, payload: { name: 'Forged' } });
    expect(crossSite.statusCode).toBe(403);
    expect(await ctx.db.selectFrom('clients').select('id').where('company_id', '=', companyId).execute()).toHaveLength(before.length);

    const made = await ctx.app.inject({ method: 'POST', url: '/api/v2/clients', headers: s.headers, payload: { name: 'Made in the browser' } });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.headers.vary).toBe('Authorization, Service-Account-Id, Cookie');
  });

  it('follows role changes and deactivation on the next request', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member' });
    const s = await sessionFor(ctx.db, m, ctx.clock.now());
    const create = () => ctx.app.inject({ method: 'POST', url: '/api/v2/clients', headers: s.headers, payload: { name: `C ${newId()}` } });
    expect((await create()).statusCode).toBe(403);
    await ctx.db.updateTable('memberships').set({ role: 'administrator' }).where('company_id', '=', companyId).where('user_id', '=', m.userId).execute();
    expect((await create()).statusCode).toBe(201);
    await ctx.db.updateTable('memberships').set({ is_active: false }).where('company_id', '=', companyId).where('user_id', '=', m.userId).execute();
    expect((await get('/api/v2/users/me', s.headers)).statusCode).toBe(401);
    // The session itself still answers, listing no workspace, so the page can say so.
    const session = await get('/web/api/session', s.headers);
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ workspace: null, workspaces: [] });
  });

  it('switches between the person’s workspaces, never into another', async () => {
    const second = await createWorkspaceWithOwner(ctx.db, 'Second Co');
    await ctx.db.insertInto('memberships').values({ company_id: second.company.id, user_id: owner.userId, role: 'member' }).execute();
    const foreign = await createWorkspaceWithOwner(ctx.db, 'Foreign Co');
    const s = await sessionFor(ctx.db, owner, ctx.clock.now());
    const put = (company_id: string) => ctx.app.inject({ method: 'PUT', url: '/web/api/session/workspace', headers: s.headers, payload: { company_id } });

    for (const id of [foreign.company.id, newId(), 'not-an-id']) {
      const res = await put(id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    const switched = await put(second.company.id);
    expect(switched.statusCode).toBe(200);
    expect(switched.json().workspace).toMatchObject({ id: second.company.id, role: 'member' });
    expect(switched.json().workspaces.map((w: { name: string }) => w.name)).toEqual(['Second Co', 'Sessions Inc']);
    expect((await get('/api/v2/users/me', s.headers)).json().company.id).toBe(second.company.id);
  });
});

describe('web-only routes', () => {
  it('refuse API keys with 403 session_required', async () => {
    const web = ctx.app.routeCatalog.filter((r) => r.web && r.access !== 'public');
    expect(web.length).toBeGreaterThan(3);
    for (const route of web) {
      const res = await request(ctx.app, owner, { method: route.method as 'GET', url: route.url.replace(/:[a-z_]+/g, newId()), payload: {} });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json().error).toBe('session_required');
    }
  });

  it('stay out of the API document, which the web app gets in full from /web/api/openapi.json', async () => {
    const api = (await ctx.app.inject({ method: 'GET', url: '/api/v2/openapi.json' })).json();
    expect(Object.keys(api.paths).filter((p) => p.startsWith('/web/'))).toEqual([]);
    expect(api.components.securitySchemes.session).toBeUndefined();
    const full = (await ctx.app.inject({ method: 'GET', url: '/web/api/openapi.json' })).json();
    expect(full.paths['/web/api/session'].post.security).toEqual([]);
    expect(full.paths['/web/api/session'].get.security).toEqual([{ session: [] }]);
  });
});

describe('one-time links and passwords', () => {
  it('a sign-in link works once; its session may set the first password without a current one', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member' });
    const token = await issueLink(ctx.db, m.userId, 'sign_in', ctx.clock.now());
    const res = await ctx.app.inject({ method: 'POST', url: '/web/api/sign-in-links/redeem', payload: { token } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ id: m.userId, has_password: false });
    const again = await ctx.app.inject({ method: 'POST', url: '/web/api/sign-in-links/redeem', payload: { token } });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('link_invalid');

    const headers = sessionHeaders(res);
    const short = await ctx.app.inject({ method: 'PUT', url: '/web/api/password', headers, payload: { password: 'short' } });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: 'invalid_request', field: 'password' });
    expect((await ctx.app.inject({ method: 'PUT', url: '/web/api/password', headers, payload: { password: PASSWORD } })).statusCode).toBe(204);
    expect((await get('/web/api/session', headers)).json().user.has_password).toBe(true);
    expect((await signIn(m.email, PASSWORD)).statusCode).toBe(200);
  });

  it('an expired, unknown or malformed link is a clear 400', async () => {
    const token = await issueLink(ctx.db, owner.userId, 'sign_in', ctx.clock.now());
    ctx.clock.advance(25 * 60 * 60 * 1000);
    for (const t of [token, 'x'.repeat(43), 'short']) {
      const res = await ctx.app.inject({ method: 'POST', url: '/web/api/sign-in-links/redeem', payload: { token: t } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('link_invalid');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it("a sign-in link opened on a German page makes an account that never signed in German; one with a password keeps its language", async () => {
    const fresh = await addMember(ctx.db, companyId, { role: 'owner' });
    const unknown = await ctx.app.inject({ method: 'POST', url: '/web/api/sign-in-links/redeem', payload: { token: await issueLink(ctx.db, fresh.userId, 'sign_in', ctx.clock.now()), language: 'xx' } });
    expect(unknown.statusCode).toBe(400);
    const res = await ctx.app.inject({ method: 'POST', url: '/web/api/sign-in-links/redeem', payload: { token: await issueLink(ctx.db, fresh.userId, 'sign_in', ctx.clock.now()), language: 'de' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.preferences.language).toBe('de');
    const settled = await addMember(ctx.db, companyId, { role: 'member' });
    await setPassword(ctx.db, settled.userId, PASSWORD);
    const again = await ctx.app.inject({ method: 'POST', url: '/web/api/sign-in-links/redeem', payload: { token: await issueLink(ctx.db, settled.userId, 'sign_in', ctx.clock.now()), language: 'de' } });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().user.preferences.language).toBe('en');
  });

  it('changing a password needs the current one, and ends the other sessions', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member' });
    await setPassword(ctx.db, m.userId, PASSWORD);
    const mine = await sessionFor(ctx.db, m, ctx.clock.now());
    const other = await sessionFor(ctx.db, m, ctx.clock.now());
    const change = (payload: object) => ctx.app.inject({ method: 'PUT', url: '/web/api/password', headers: mine.headers, payload });
    const missing = await change({ password: 'a new long password' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ field: 'current_password' });
    expect((await change({ current_password: 'wrong', password: 'a new long password' })).statusCode).toBe(400);
    expect((await change({ current_password: PASSWORD, password: 'a new long password' })).statusCode).toBe(204);
    expect((await get('/web/api/session', mine.headers)).statusCode).toBe(200);
    expect((await get('/web/api/session', other.headers)).statusCode).toBe(401);
    expect((await signIn(m.email, 'a new long password')).statusCode).toBe(200);
    // The person is told, in case it was not them; a refused change sends nothing.
    const notices = await ctx.db.selectFrom('outbox').select('payload').where('company_id', '=', companyId).where('kind', '=', 'password_changed').execute();
    const theirs = notices.map((n) => n.payload as { to: Array<{ email: string }>; subject: string }).filter((n) => n.to[0]!.email === m.email);
    expect(theirs.map((n) => n.subject)).toEqual(['Your Sheaf password was changed']);
  });

  it('a reset is e-mailed through the outbox, answers 202 for any address, works once and signs out elsewhere', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member' });
    await setPassword(ctx.db, m.userId, PASSWORD);
    const elsewhere = await sessionFor(ctx.db, m, ctx.clock.now());
    const outbox = () => ctx.db.selectFrom('outbox').select(['payload']).where('company_id', '=', companyId).where('kind', '=', 'password_reset').execute();
    const before = (await outbox()).length;

    const unknown = await ctx.app.inject({ method: 'POST', url: '/web/api/password-resets', payload: { email: 'nobody@example.com' } });
    expect(unknown.statusCode).toBe(202);
    const known = await ctx.app.inject({ method: 'POST', url: '/web/api/password-resets', payload: { email: ` ${m.email.toUpperCase()} ` } });
    expect(known.statusCode).toBe(202);
    // The mail is made after the answer (its time would tell which addresses exist); the unknown address got none.
    await ctx.app.afterAnswer.settled();
    const mails = await outbox();
    expect(mails).toHaveLength(before + 1);
    const mail = mails.at(-1)!.payload as { to: Array<{ email: string }>; text: string };
    expect(mail.to[0].email).toBe(m.email);
    const link = mail.text.match(/(http:\/\/\S+)\/reset-password#([A-Za-z0-9_-]{43})/);
    expect(link?.[1]).toBe(`http://${ctx.config.host}:${ctx.config.port}`);
    const token = link![2];

    const redeem = (password: string) => ctx.app.inject({ method: 'POST', url: '/web/api/password-resets/redeem', payload: { token, password } });
    const short = await redeem('short');
    expect(short.statusCode).toBe(400);
    expect(short.json().field).toBe('password');
    const done = await redeem('my brand new password');
    expect(done.statusCode).toBe(200);
    expect(done.json().user.id).toBe(m.userId);
    expect((await redeem('another new password')).json().error).toBe('link_invalid');
    const notice = await ctx.db.selectFrom('outbox').select('payload').where('company_id', '=', companyId).where('kind', '=', 'password_changed').execute();
    expect(notice.filter((n) => JSON.stringify(n.payload).includes(m.email))).toHaveLength(1);
    expect((await get('/web/api/session', elsewhere.headers)).statusCode).toBe(401);
    expect((await signIn(m.email, 'my brand new password')).statusCode).toBe(200);
  });

  it('sends no reset to a person with no active membership: there is nothing they could sign in to', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member' });
    await setPassword(ctx.db, m.userId, PASSWORD);
    await ctx.db.updateTable('memberships').set({ is_active: false }).where('user_id', '=', m.userId).execute();
    const res = await ctx.app.inject({ method: 'POST', url: '/web/api/password-resets', payload: { email: m.email } });
    expect(res.statusCode).toBe(202);
    await ctx.app.afterAnswer.settled();
    const mails = await ctx.db.selectFrom('outbox').select('payload').where('kind', '=', 'password_reset').execute();
    expect(mails.filter((r) => JSON.stringify(r.payload).includes(m.email))).toHaveLength(0);
  });

  it('sends one reset e-mail a minute however often it is asked for, at once or one after another', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member' });
    await setPassword(ctx.db, m.userId, PASSWORD);
    const resets = async () => (await ctx.db.selectFrom('outbox').select('payload').where('kind', '=', 'password_reset').execute()).filter((r) => JSON.stringify(r.payload).includes(m.email));
    const ask = () => ctx.app.inject({ method: 'POST', url: '/web/api/password-resets', payload: { email: m.email } });
    const answers = await Promise.all(Array.from({ length: 20 }, ask));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(202));
    await ctx.app.afterAnswer.settled();
    expect(await resets()).toHaveLength(1);
    const token = /reset-password#([A-Za-z0-9_-]{43})/.exec(JSON.stringify((await resets())[0]!.payload))![1]!;
    ctx.clock.advance(RESET_MAIL_EVERY_MS - 1000);
    expect((await ask()).statusCode).toBe(202);
    await ctx.app.afterAnswer.settled();
    expect(await resets()).toHaveLength(1);
    // The first link still works meanwhile; after the minute a new one is sent, and it replaces the first.
    expect(await lookUpLink(ctx.db, token, 'password_reset', ctx.clock.now())).toBe('usable');
    ctx.clock.advance(1000);
    expect((await ask()).statusCode).toBe(202);
    await ctx.app.afterAnswer.settled();
    expect(await resets()).toHaveLength(2);
    expect(await lookUpLink(ctx.db, token, 'password_reset', ctx.clock.now())).toBe('invalid');
  });

  it("the reset mail is in the person's language: German for a German-preferring person, English as before for an English one", async () => {
    const outbox = () => ctx.db.selectFrom('outbox').select(['payload']).where('company_id', '=', companyId).where('kind', '=', 'password_reset').orderBy('id').execute();
    const base = `http://${ctx.config.host}:${ctx.config.port}`;
    const mailTo = async (email: string) => {
      const res = await ctx.app.inject({ method: 'POST', url: '/web/api/password-resets', payload: { email } });
      expect(res.statusCode).toBe(202);
      await ctx.app.afterAnswer.settled();
      const mail = (await outbox()).map((r) => r.payload as { to: Array<{ email: string }>; subject: string; text: string }).filter((m) => m.to[0].email === email).at(-1)!;
      return { ...mail, token: /reset-password#([A-Za-z0-9_-]{43})$/m.exec(mail.text)![1] };
    };

    const greta = await addMember(ctx.db, companyId, { role: 'member', firstName: 'Greta' });
    await ctx.db.updateTable('users').set({ language: 'de' }).where('id', '=', greta.userId).execute();
    const de = await mailTo(greta.email);
    expect(de.subject).toBe('Ihr Sheaf-Passwort zurücksetzen');
    expect(de.text).toBe(
      [
        'Guten Tag Greta,',
        '',
        'Jemand (hoffentlich Sie) hat angefordert, das Passwort Ihres Sheaf-Kontos zurückzusetzen.',
        'Öffnen Sie diesen Link innerhalb einer Stunde, um ein neues Passwort zu wählen:',
        '',
        `${base}/reset-password#${de.token}`,
        '',
        'Falls Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.',
      ].join('\n'),
    );

    const emma = await addMember(ctx.db, companyId, { role: 'member', firstName: 'Emma' });
    const en = await mailTo(emma.email);
    expect(en.subject).toBe('Reset your Sheaf password');
    expect(en.text).toBe(
      [
        'Hello Emma,',
        '',
        'Someone (hopefully you) asked to reset the password of your Sheaf account.',
        'Open this link within an hour to choose a new one:',
        '',
        `${base}/reset-password#${en.token}`,
        '',
        'If you did not ask for this, ignore this e-mail: your password stays as it is.',
      ].join('\n'),
    );
  });

  it('a reset link can be looked up without using it: usable, then used, expired or invalid (the page asks as it opens)', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member' });
    const lookUp = (token: unknown) => ctx.app.inject({ method: 'POST', url: '/web/api/password-resets/lookup', payload: { token } });
    const token = await issueLink(ctx.db, m.userId, 'password_reset', ctx.clock.now());
    for (let i = 0; i < 2; i++) {
      const res = await lookUp(token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ state: 'usable' }); // names nobody, and looking twice does not use it
    }
    expect((await ctx.app.inject({ method: 'POST', url: '/web/api/password-resets/redeem', payload: { token, password: 'a reset password 1' } })).statusCode).toBe(200);
    expect((await lookUp(token)).json()).toEqual({ state: 'used' });

    const old = await issueLink(ctx.db, m.userId, 'password_reset', ctx.clock.now());
    const fresh = await issueLink(ctx.db, m.userId, 'password_reset', ctx.clock.now());
    expect((await lookUp(old)).json()).toEqual({ state: 'invalid' }); // replaced by the newer link
    ctx.clock.advance(61 * 60_000);
    expect((await lookUp(fresh)).json()).toEqual({ state: 'expired' });
    ctx.clock.advance(-61 * 60_000);
    // A sign-in link is not a reset link; garbage and a wrong type are answered, never a 500.
    expect((await lookUp(await issueLink(ctx.db, m.userId, 'sign_in', ctx.clock.now()))).json()).toEqual({ state: 'invalid' });
    expect((await lookUp('not-a-token')).json()).toEqual({ state: 'invalid' });
    expect((await lookUp(42)).statusCode).toBe(400);
    const extra = await ctx.app.inject({ method: 'POST', url: '/web/api/password-resets/lookup', payload: { token, extra: 1 } });
    expect(extra.statusCode).toBe(400);
  });
});
