import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { addMember, createTestContext, createWorkspaceWithOwner, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { setPassword } from '../src/modules/people/sessions/service.ts';
import { issueLink } from '../src/auth/one-time-links.ts';
import { PAIR_LIMIT } from '../src/auth/sign-in-throttle.ts';
import { codeAt, TOTP_PERIOD_S } from '../src/auth/two-factor.ts';
import { openSecret } from '../src/auth/secret-box.ts';
import { TEST_SECRET_KEY } from './secret-key.ts';

/**
 * Two-factor codes (issue 28 item 2): enrolment with a first code and ten recovery
 * codes shown once, sign-in in two steps (password or link, then the code), the ±1
 * step window and no replay on a fixed clock, recovery codes used once, the sign-in
 * throttle, turning it off, a workspace's requirement, the audit records, bad input.
 */

let ctx: TestContext;
let owner: Caller;
let companyId: string;
const PASSWORD = 'correct horse battery staple';
const STEP_MS = TOTP_PERIOD_S * 1000;

beforeAll(async () => {
  ctx = await createTestContext();
  const w = await createWorkspaceWithOwner(ctx.db, 'Two Factor Inc');
  owner = w.owner;
  companyId = w.company.id;
});
afterAll(() => ctx.close());

/** Moves the test clock to 5 s into the next time step, so a test's codes do not straddle a step by accident. */
function alignClock() {
  const now = ctx.clock.now().getTime();
  ctx.clock.advance(STEP_MS - (now % STEP_MS) + 5000);
}

const post = (url: string, caller: Caller | null, payload: object, headers: Record<string, string> = {}) =>
  request(ctx.app, caller, { method: 'POST', url, payload, headers });

function sessionHeaders(res: LightMyRequestResponse): Record<string, string> {
  const cookies = res.headers['set-cookie'];
  const list = Array.isArray(cookies) ? cookies : [String(cookies)];
  const cookie = list.map((c) => c.split(';')[0]).find((c) => c.startsWith('sheaf_session='))!;
  return { cookie, 'x-csrf-token': res.json().csrf_token };
}

const asCaller = (userId: string, headers: Record<string, string>): Caller => ({ userId, companyId, email: '', key: '', keyId: '', headers });

/** A member with a password and a browser session, and two-factor codes set up; returns the secret and recovery codes. */
async function enrolledMember(role: 'member' | 'administrator' = 'member') {
  const m = await addMember(ctx.db, companyId, { role });
  await setPassword(ctx.db, m.userId, PASSWORD);
  const session = await sessionFor(ctx.db, m, ctx.clock.now());
  alignClock();
  const setup = await post('/web/api/two-factor/setup', session, {});
  expect(setup.statusCode, setup.body).toBe(200);
  const secret = setup.json().secret as string;
  const enable = await post('/web/api/two-factor/enable', session, { code: codeAt(secret, ctx.clock.now()) });
  expect(enable.statusCode, enable.body).toBe(200);
  return { member: m, session, secret, recovery: enable.json().recovery_codes as string[] };
}

async function passwordStep(email: string) {
  const res = await ctx.app.inject({ method: 'POST', url: '/web/api/session', payload: { email, password: PASSWORD } });
  return res;
}

const codeStep = (challenge: string, code: string) => ctx.app.inject({ method: 'POST', url: '/web/api/session/two-factor', payload: { challenge, code } });

async function auditActions(userId: string) {
  const rows = await ctx.db.selectFrom('audit_logs').select(['action', 'details']).where('subject_id', '=', userId).where('company_id', '=', companyId).orderBy('occurred_at').execute();
  return rows;
}

describe('enrolling', () => {
  it('makes a secret with its QR code, refuses a wrong first code, and turns on with the right one, answering ten recovery codes once', async () => {
    const m = await addMember(ctx.db, companyId);
    await setPassword(ctx.db, m.userId, PASSWORD);
    const session = await sessionFor(ctx.db, m, ctx.clock.now());
    alignClock();
    const before = await request(ctx.app, session, { method: 'GET', url: '/web/api/two-factor' });
    expect(before.json()).toMatchObject({ enabled: false, recovery_codes_left: 0, required: false, available: true });

    const setup = await post('/web/api/two-factor/setup', session, {});
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret, otpauth_uri, qr_svg } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/Sheaf:.+\?.*secret=/);
    expect(qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    // Not in force until confirmed: the password alone still signs in.
    const stillOne = await passwordStep(m.email);
    expect(stillOne.statusCode).toBe(200);

    const wrong = await post('/web/api/two-factor/enable', session, { code: codeAt(secret, new Date(ctx.clock.now().getTime() + 5 * STEP_MS)) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'invalid_request', field: 'code' });
    expect((await request(ctx.app, session, { method: 'GET', url: '/web/api/two-factor' })).json().enabled).toBe(false);

    const right = await post('/web/api/two-factor/enable', session, { code: codeAt(secret, ctx.clock.now()) });
    expect(right.statusCode, right.body).toBe(200);
    const codes = right.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    // Stored hashed: no plain code in the table.
    const stored = await ctx.db.selectFrom('two_factor_recovery_codes').select('code_hash').where('user_id', '=', m.userId).execute();
    expect(stored).toHaveLength(10);
    const dump = JSON.stringify(stored.map((r) => Buffer.from(r.code_hash).toString('latin1')));
    for (const c of codes) {
      expect(dump).not.toContain(c);
      expect(dump).not.toContain(c.replace('-', ''));
    }

    // The secret never appears in an answer after enrolment, nor are the codes shown again.
    const state = await request(ctx.app, session, { method: 'GET', url: '/web/api/two-factor' });
    expect(state.json()).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    const sessionBody = await request(ctx.app, session, { method: 'GET', url: '/web/api/session' });
    expect(sessionBody.json().two_factor).toEqual({ enabled: true, enrolment_required: false });
    for (const res of [state, sessionBody, await request(ctx.app, session, { method: 'GET', url: '/web/api/profile' })]) {
      expect(res.body).not.toContain(secret);
      for (const c of codes) expect(res.body).not.toContain(c);
    }
    // A second setup while it is on is refused.
    expect((await post('/web/api/two-factor/setup', session, {})).statusCode).toBe(409);
    // Recorded in the workspace's audit log.
    expect((await auditActions(m.userId)).map((r) => r.action)).toContain('two_factor.enabled');
  });
});

describe('signing in with a second factor', () => {
  it('opens no session on the password alone; the code opens it', async () => {
    const { member, secret } = await enrolledMember();
    const first = await passwordStep(member.email);
    expect(first.statusCode, first.body).toBe(202);
    expect(first.headers['set-cookie'] ?? '').not.toMatch(/sheaf_session=[A-Za-z0-9_-]{43}/);
    const { challenge, second_factor_required } = first.json();
    expect(second_factor_required).toBe(true);
    expect(first.body).not.toContain('csrf_token');

    ctx.clock.advance(STEP_MS); // the enrolment's code is used; the next step's code is new
    const ok = await codeStep(challenge, codeAt(secret, ctx.clock.now()));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().user.id).toBe(member.userId);
    const headers = sessionHeaders(ok);
    expect((await request(ctx.app, null, { method: 'GET', url: '/web/api/session', headers })).statusCode).toBe(200);
    // The challenge is used up.
    ctx.clock.advance(STEP_MS);
    const again = await codeStep(challenge, codeAt(secret, ctx.clock.now()));
    expect(again.statusCode).toBe(401);
  });

  it('accepts a code one step either side of now, not two, and each code once (no replay)', async () => {
    const { member, secret } = await enrolledMember();
    ctx.clock.advance(10 * STEP_MS);
    const now = ctx.clock.now().getTime();
    const challenge = (await passwordStep(member.email)).json().challenge as string;

    expect((await codeStep(challenge, codeAt(secret, new Date(now - 2 * STEP_MS)))).statusCode).toBe(401);
    expect((await codeStep(challenge, codeAt(secret, new Date(now + 2 * STEP_MS)))).statusCode).toBe(401);
    const prev = await codeStep(challenge, codeAt(secret, new Date(now - STEP_MS)));
    expect(prev.statusCode, prev.body).toBe(200);

    // The same code again (same step) is refused, as is an earlier step's.
    const c2 = (await passwordStep(member.email)).json().challenge as string;
    const replay = await codeStep(c2, codeAt(secret, new Date(now - STEP_MS)));
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('invalid_code');
    // The next step's code (within the window) works once.
    const next = await codeStep(c2, codeAt(secret, new Date(now + STEP_MS)));
    expect(next.statusCode, next.body).toBe(200);
    const c3 = (await passwordStep(member.email)).json().challenge as string;
    // Now's code belongs to an earlier step than the one just accepted: refused too.
    expect((await codeStep(c3, codeAt(secret, new Date(now)))).statusCode).toBe(401);

    const failures = (await auditActions(member.userId)).filter((r) => r.action === 'session.sign_in_failed');
    expect(failures.length).toBeGreaterThanOrEqual(4);
    expect(failures.every((f) => (f.details as { reason: string }).reason === 'wrong_code')).toBe(true);
  });

  it('takes a recovery code once', async () => {
    const { member, recovery } = await enrolledMember();
    const challenge = (await passwordStep(member.email)).json().challenge as string;
    const ok = await codeStep(challenge, recovery[3].toUpperCase());
    expect(ok.statusCode, ok.body).toBe(200);
    const c2 = (await passwordStep(member.email)).json().challenge as string;
    const again = await codeStep(c2, recovery[3]);
    expect(again.statusCode).toBe(401);
    const state = await request(ctx.app, asCaller(member.userId, sessionHeaders(ok)), { method: 'GET', url: '/web/api/two-factor' });
    expect(state.json().recovery_codes_left).toBe(9);
    expect((await auditActions(member.userId)).map((r) => r.action)).toContain('two_factor.recovery_used');
  });

  it('throttles wrong codes as wrong passwords (429 with Retry-After), the right code too', async () => {
    const { member, secret } = await enrolledMember();
    const challenge = (await passwordStep(member.email)).json().challenge as string;
    ctx.clock.advance(STEP_MS);
    const wrong = codeAt(secret, new Date(ctx.clock.now().getTime() + 10 * STEP_MS));
    for (let i = 0; i < PAIR_LIMIT; i++) expect((await codeStep(challenge, wrong)).statusCode).toBe(401);
    const limited = await codeStep(challenge, codeAt(secret, ctx.clock.now()));
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error).toBe('rate_limited');
  });

  it('asks for the code after a one-time sign-in link too', async () => {
    const { member, secret } = await enrolledMember();
    const token = await issueLink(ctx.db, member.userId, 'sign_in', ctx.clock.now());
    const res = await ctx.app.inject({ method: 'POST', url: '/web/api/sign-in-links/redeem', payload: { token } });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.headers['set-cookie'] ?? '').not.toMatch(/sheaf_session=[A-Za-z0-9_-]{43}/);
    ctx.clock.advance(STEP_MS);
    const ok = await codeStep(res.json().challenge, codeAt(secret, ctx.clock.now()));
    expect(ok.statusCode, ok.body).toBe(200);
    const signIns = (await auditActions(member.userId)).filter((r) => r.action === 'session.signed_in');
    expect((signIns.at(-1)!.details as { method: string }).method).toBe('link');
  });

  it('a challenge expires after five minutes', async () => {
    const { member, secret } = await enrolledMember();
    const challenge = (await passwordStep(member.email)).json().challenge as string;
    ctx.clock.advance(5 * 60 * 1000 + 1000);
    expect((await codeStep(challenge, codeAt(secret, ctx.clock.now()))).statusCode).toBe(401);
  });
});

describe('turning it off and new recovery codes', () => {
  it('needs the password and a code; wrong either way changes nothing', async () => {
    const { member, session, secret } = await enrolledMember();
    ctx.clock.advance(STEP_MS);
    const noPassword = await post('/web/api/two-factor/disable', session, { current_password: 'wrong password here', code: codeAt(secret, ctx.clock.now()) });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().field).toBe('current_password');
    const wrongCode = await post('/web/api/two-factor/disable', session, {
      current_password: PASSWORD,
      code: codeAt(secret, new Date(ctx.clock.now().getTime() + 9 * STEP_MS)),
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().field).toBe('code');
    expect((await passwordStep(member.email)).statusCode).toBe(202);

    const regenerated = await post('/web/api/two-factor/recovery-codes', session, { code: codeAt(secret, ctx.clock.now()) });
    expect(regenerated.statusCode, regenerated.body).toBe(200);
    expect(regenerated.json().recovery_codes).toHaveLength(10);

    ctx.clock.advance(STEP_MS);
    const off = await post('/web/api/two-factor/disable', session, { current_password: PASSWORD, code: codeAt(secret, ctx.clock.now()) });
    expect(off.statusCode, off.body).toBe(204);
    expect((await passwordStep(member.email)).statusCode).toBe(200);
    const actions = (await auditActions(member.userId)).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['two_factor.enabled', 'two_factor.code_refused', 'two_factor.recovery_regenerated', 'two_factor.disabled']));
    expect(await ctx.db.selectFrom('two_factor_recovery_codes').select('id').where('user_id', '=', member.userId).execute()).toHaveLength(0);

    // Each change was e-mailed to the person (a change they did not make must not go unnoticed); a refused code was not.
    const mails = await ctx.db.selectFrom('outbox').select(['kind', 'payload']).where('company_id', '=', companyId).execute();
    const theirs = mails.filter((m) => JSON.stringify(m.payload).includes(member.email)).map((m) => m.kind);
    expect(theirs.sort()).toEqual(['recovery_codes_replaced', 'two_factor_disabled', 'two_factor_enabled']);
  });
});

describe('the secret at rest', () => {
  it('is stored sealed with SHEAF_SECRET_KEY, not as the base32 an app reads', async () => {
    const { member, secret } = await enrolledMember();
    const row = await ctx.db.selectFrom('user_two_factor').select('secret').where('user_id', '=', member.userId).executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(row.secret).not.toContain(secret);
    expect(openSecret([TEST_SECRET_KEY], row.secret)).toBe(secret);
    expect(() => openSecret(['another key of at least thirty-two characters'], row.secret)).toThrow(/no key/);
    // A previous key still opens it after a rotation.
    expect(openSecret(['the new key of at least thirty-two characters', TEST_SECRET_KEY], row.secret)).toBe(secret);
  });

  it('a server without a secret key refuses set-up with a 409 that says so, and says it is unavailable', async () => {
    const bare = await createTestContext({ env: { SHEAF_SECRET_KEY: '' } });
    try {
      const w = await createWorkspaceWithOwner(bare.db, 'No Key Inc');
      const session = await sessionFor(bare.db, w.owner, bare.clock.now());
      const state = await request(bare.app, session, { method: 'GET', url: '/web/api/two-factor' });
      expect(state.json()).toMatchObject({ enabled: false, available: false });
      const setup = await request(bare.app, session, { method: 'POST', url: '/web/api/two-factor/setup', payload: {} });
      expect(setup.statusCode).toBe(409);
      expect(setup.json().message).toContain('SHEAF_SECRET_KEY');
      expect(await bare.db.selectFrom('user_two_factor').select('user_id').where('user_id', '=', w.owner.userId).execute()).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });
});

describe("a workspace's requirement", () => {
  it('holds a person without codes to enrolment (403 two_factor_enrolment_required elsewhere) and lets them on once enrolled', async () => {
    const { company: other, owner: otherOwner } = await createWorkspaceWithOwner(ctx.db, 'Required Ltd');
    const admin = await sessionFor(ctx.db, otherOwner, ctx.clock.now());
    const person = await addMember(ctx.db, other.id);
    await setPassword(ctx.db, person.userId, PASSWORD);

    // Another workspace's administrator cannot change this one's setting: the route acts on the session's workspace.
    const ownerSession = await sessionFor(ctx.db, owner, ctx.clock.now());
    const before = await request(ctx.app, ownerSession, { method: 'GET', url: '/web/api/workspace' });
    expect(before.json().require_two_factor).toBe(false);
    const cross = await request(ctx.app, admin, { method: 'PUT', url: '/web/api/session/workspace', payload: { company_id: companyId } });
    expect(cross.statusCode).toBe(404);

    const memberSession = await sessionFor(ctx.db, person, ctx.clock.now());
    expect((await request(ctx.app, memberSession, { method: 'PATCH', url: '/web/api/workspace', payload: { require_two_factor: true } })).statusCode).toBe(403);

    // The administrator needs codes of their own first, or the requirement would hold them back at once.
    const notYet = await request(ctx.app, admin, { method: 'PATCH', url: '/web/api/workspace', payload: { require_two_factor: true } });
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json().field).toBe('require_two_factor');
    alignClock();
    const adminSetup = await post('/web/api/two-factor/setup', admin, {});
    expect((await post('/web/api/two-factor/enable', admin, { code: codeAt(adminSetup.json().secret, ctx.clock.now()) })).statusCode).toBe(200);

    const set = await request(ctx.app, admin, { method: 'PATCH', url: '/web/api/workspace', payload: { require_two_factor: true } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().require_two_factor).toBe(true);
    expect((await request(ctx.app, ownerSession, { method: 'GET', url: '/web/api/workspace' })).json().require_two_factor).toBe(false);
    const logged = await ctx.db.selectFrom('audit_logs').select(['action', 'details']).where('company_id', '=', other.id).where('action', '=', 'workspace.settings_changed').execute();
    expect(logged.map((r) => r.details)).toContainEqual({ require_two_factor: true });

    // The person signs in with the password alone (they have no codes) and gets a session held to enrolment.
    const signIn = await passwordStep(person.email);
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(signIn.json().two_factor).toEqual({ enabled: false, enrolment_required: true });
    const session = { ...person, headers: sessionHeaders(signIn) };
    for (const url of ['/web/api/workspace', '/api/v2/users/me', '/web/api/home']) {
      const res = await request(ctx.app, session, { method: 'GET', url });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toBe('two_factor_enrolment_required');
    }
    // API keys are not held back.
    expect((await request(ctx.app, person, { method: 'GET', url: '/api/v2/users/me' })).statusCode).toBe(200);

    alignClock();
    const setup = await post('/web/api/two-factor/setup', session, {});
    expect(setup.statusCode, setup.body).toBe(200);
    const enable = await post('/web/api/two-factor/enable', session, { code: codeAt(setup.json().secret, ctx.clock.now()) });
    expect(enable.statusCode, enable.body).toBe(200);
    expect((await request(ctx.app, session, { method: 'GET', url: '/web/api/workspace' })).statusCode).toBe(200);

    const off = await request(ctx.app, admin, { method: 'PATCH', url: '/web/api/workspace', payload: { require_two_factor: false } });
    expect(off.statusCode).toBe(200);
    const logged2 = await ctx.db.selectFrom('audit_logs').select('details').where('company_id', '=', other.id).where('action', '=', 'workspace.settings_changed').execute();
    expect(logged2.map((r) => r.details)).toContainEqual({ require_two_factor: false });
  });
});

describe('bad input', () => {
  it('answers 400 and changes nothing', async () => {
    const { member, session, secret } = await enrolledMember();
    const challenge = (await passwordStep(member.email)).json().challenge as string;
    const cases: Array<[string, object]> = [
      ['/web/api/session/two-factor', { challenge, code: '1234567' }],
      ['/web/api/session/two-factor', { challenge, code: 123456 }],
      ['/web/api/session/two-factor', { challenge, code: '123456', extra: 1 }],
      ['/web/api/session/two-factor', { challenge }],
      ['/web/api/session/two-factor', { challenge, code: 'not a code!' }],
      ['/web/api/two-factor/setup', { secret: 'AAAA' }],
      ['/web/api/two-factor/enable', { code: '12345' }],
      ['/web/api/two-factor/disable', { current_password: PASSWORD, code: '1234567' }],
      ['/web/api/two-factor/disable', { current_password: PASSWORD, code: ['123456'] }],
      ['/web/api/two-factor/recovery-codes', { code: '123456', unknown: true }],
      ['/web/api/two-factor/recovery-codes', { code: '' }],
    ];
    for (const [url, payload] of cases) {
      const res = await post(url, url.startsWith('/web/api/two-factor') ? session : null, payload);
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}: ${res.body}`).toBe(400);
      expect(res.json()).toHaveProperty('error');
    }
    expect((await request(ctx.app, session, { method: 'PATCH', url: '/web/api/workspace', payload: { require_two_factor: 'yes' } })).statusCode).toBe(403);
    const adminSession = await sessionFor(ctx.db, owner, ctx.clock.now());
    expect((await request(ctx.app, adminSession, { method: 'PATCH', url: '/web/api/workspace', payload: { require_two_factor: 'yes' } })).statusCode).toBe(400);
    // Still on, and the challenge still usable.
    ctx.clock.advance(STEP_MS);
    expect((await codeStep(challenge, codeAt(secret, ctx.clock.now()))).statusCode).toBe(200);
  });
});
