import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { addMember, createTestContext, createWorkspaceWithOwner, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { setPassword } from '../src/modules/people/sessions/service.ts';
import { codeAt, TOTP_PERIOD_S } from '../src/auth/two-factor.ts';
import { SoftwareAuthenticator } from './fixtures/software-authenticator.ts';

/**
 * Passkeys (issue 28 item 3) against a software authenticator that follows the WebAuthn data
 * layouts (test/fixtures/software-authenticator.ts; the browser spec uses Chromium's virtual
 * authenticator): register several, name and remove them, sign in with one alone (discoverable,
 * user verification required) or as the second step after a password, and what is refused: a
 * replayed or foreign challenge, another site's origin, an unknown or removed passkey, another
 * person's passkey as a second step, unverified users signing in alone, bad input.
 */

let ctx: TestContext;
let companyId: string;
const PASSWORD = 'correct horse battery staple';
// The server listens on 127.0.0.1, which browsers refuse passkeys for; it answers as localhost too.
const ORIGIN = 'http://localhost:8080';
const browser = { origin: ORIGIN, host: 'localhost:8080' };

beforeAll(async () => {
  ctx = await createTestContext();
  companyId = (await createWorkspaceWithOwner(ctx.db, 'Passkeys Inc')).company.id;
});
afterAll(() => ctx.close());

const post = (url: string, caller: Caller | null, payload: object) => request(ctx.app, caller, { method: 'POST', url, payload, headers: browser });

async function person() {
  const m = await addMember(ctx.db, companyId);
  await setPassword(ctx.db, m.userId, PASSWORD);
  return { member: m, session: await sessionFor(ctx.db, m, ctx.clock.now()), authenticator: new SoftwareAuthenticator(ORIGIN) };
}

/** Adds a passkey made by the authenticator for the options the server gives. */
async function register(session: Caller, authenticator: SoftwareAuthenticator, name?: string) {
  const start = await post('/web/api/passkeys/registration-options', session, {});
  expect(start.statusCode, start.body).toBe(200);
  const res = await post('/web/api/passkeys', session, { name, credential: authenticator.create(start.json().options) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string };
}

async function passkeyOptions(challenge?: string) {
  const res = await post('/web/api/session/passkey-options', null, challenge ? { challenge } : {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json().options;
}

const sessionCookie = (res: LightMyRequestResponse) => [res.headers['set-cookie']].flat().find((c) => String(c).startsWith('sheaf_session='));

describe('registering passkeys', () => {
  it('adds several with names, lists them without their keys, renames and removes one; each change is recorded and e-mailed', async () => {
    const { member, session, authenticator } = await person();
    const start = await post('/web/api/passkeys/registration-options', session, {});
    const options = start.json().options;
    expect(options).toMatchObject({ rp: { id: 'localhost', name: 'Sheaf' }, user: { name: member.email }, attestation: 'none' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required' });

    const first = await post('/web/api/passkeys', session, { name: 'Laptop', credential: authenticator.create(options) });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ name: 'Laptop', last_used_at: null, synced: false });
    const second = await register(session, authenticator);
    expect(second.name).toBe('Passkey');

    // The second registration's options exclude the first passkey, so one authenticator does not add it twice.
    const again = (await post('/web/api/passkeys/registration-options', session, {})).json().options;
    expect(again.excludeCredentials).toHaveLength(2);

    const list = await request(ctx.app, session, { method: 'GET', url: '/web/api/passkeys' });
    expect(list.json().passkeys.map((p: { name: string }) => p.name)).toEqual(['Laptop', 'Passkey']);
    expect(list.body).not.toMatch(/public_key|credential_id|counter/);

    const renamed = await request(ctx.app, session, { method: 'PATCH', url: `/web/api/passkeys/${second.id}`, payload: { name: '  Phone  ' }, headers: browser });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().name).toBe('Phone');
    const removed = await request(ctx.app, session, { method: 'DELETE', url: `/web/api/passkeys/${second.id}`, headers: browser });
    expect(removed.statusCode).toBe(204);
    expect((await request(ctx.app, session, { method: 'GET', url: '/web/api/passkeys' })).json().passkeys).toHaveLength(1);

    const logged = await ctx.db.selectFrom('audit_logs').select('action').where('company_id', '=', companyId).where('subject_id', '=', member.userId).orderBy('occurred_at').execute();
    expect(logged.map((r) => r.action).filter((a) => a.startsWith('passkey.'))).toEqual(['passkey.added', 'passkey.added', 'passkey.removed']);
    const mails = await ctx.db.selectFrom('outbox').select(['kind', 'payload']).where('company_id', '=', companyId).execute();
    expect(mails.filter((m) => JSON.stringify(m.payload).includes(member.email)).map((m) => m.kind).sort()).toEqual(['passkey_added', 'passkey_added', 'passkey_removed']);
  });

  it('refuses an answer to no challenge of theirs, a used challenge, another site, or garbage, and adds nothing', async () => {
    const { member, session, authenticator } = await person();
    const other = await person();
    const options = (await post('/web/api/passkeys/registration-options', session, {})).json().options;

    // Another person's session cannot use this person's challenge.
    const foreign = await post('/web/api/passkeys', other.session, { credential: other.authenticator.create(options) });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().field).toBe('credential');
    // The challenge was used by that attempt: the right person's answer now fails too.
    expect((await post('/web/api/passkeys', session, { credential: authenticator.create(options) })).statusCode).toBe(400);

    const fresh = (await post('/web/api/passkeys/registration-options', session, {})).json().options;
    const phishing = await post('/web/api/passkeys', session, { credential: authenticator.create(fresh, { origin: 'https://evil.example' }) });
    expect(phishing.statusCode).toBe(400);

    const garbage = await post('/web/api/passkeys', session, {
      credential: { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'not json' }, clientExtensionResults: {} },
    });
    expect(garbage.statusCode).toBe(400);
    expect(await ctx.db.selectFrom('user_passkeys').select('id').where('user_id', '=', member.userId).execute()).toHaveLength(0);
  });

  it('answers 400 to unknown fields and wrong types, 404 to another person’s passkey, 401 without a session', async () => {
    const { session, authenticator } = await person();
    const other = await person();
    const theirs = await register(other.session, other.authenticator, 'Theirs');
    const options = (await post('/web/api/passkeys/registration-options', session, {})).json().options;
    expect((await post('/web/api/passkeys', session, { credential: authenticator.create(options), extra: 1 })).statusCode).toBe(400);
    expect((await post('/web/api/passkeys', session, { name: 7, credential: authenticator.create(options) })).statusCode).toBe(400);
    expect((await post('/web/api/passkeys', session, { name: 'x'.repeat(101), credential: authenticator.create(options) })).statusCode).toBe(400);
    expect((await post('/web/api/passkeys/registration-options', session, { user: 'someone' })).statusCode).toBe(400);

    for (const method of ['PATCH', 'DELETE'] as const) {
      const res = await request(ctx.app, session, { method, url: `/web/api/passkeys/${theirs.id}`, payload: method === 'PATCH' ? { name: 'Mine now' } : undefined, headers: browser });
      expect(res.statusCode).toBe(404);
    }
    expect((await request(ctx.app, other.session, { method: 'GET', url: '/web/api/passkeys' })).json().passkeys[0].name).toBe('Theirs');
    expect((await request(ctx.app, session, { method: 'PATCH', url: `/web/api/passkeys/${theirs.id}`, payload: { name: '   ' }, headers: browser })).statusCode).toBe(404);
    expect((await request(ctx.app, null, { method: 'GET', url: '/web/api/passkeys' })).statusCode).toBe(401);
  });

  it('is refused with a reason on a server reached only by an IP address', async () => {
    const { session } = await person();
    const res = await request(ctx.app, session, { method: 'POST', url: '/web/api/passkeys/registration-options', payload: {}, headers: { origin: 'http://127.0.0.1:8080', host: '127.0.0.1:8080' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('http://localhost:8080');
  });
});

describe('signing in with a passkey', () => {
  it('alone: the passkey names the person, a session opens, the passkey is marked used, and the sign-in is recorded', async () => {
    const { member, session, authenticator } = await person();
    const added = await register(session, authenticator, 'Laptop');
    const options = await passkeyOptions();
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);

    const res = await post('/web/api/session/passkey', null, { credential: authenticator.get(options) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.id).toBe(member.userId);
    expect(sessionCookie(res)).toBeDefined();
    const list = (await request(ctx.app, session, { method: 'GET', url: '/web/api/passkeys' })).json().passkeys;
    expect(list.find((p: { id: string }) => p.id === added.id).last_used_at).not.toBeNull();
    const logged = await ctx.db.selectFrom('audit_logs').select(['action', 'details']).where('company_id', '=', companyId).where('actor_user_id', '=', member.userId).where('action', '=', 'session.signed_in').execute();
    expect(logged.map((r) => (r.details as { method: string }).method)).toContain('passkey');
  });

  it('refuses a replayed answer, an unverified user, another site, an unknown or removed passkey, each as 401 passkey_refused', async () => {
    const { member, session, authenticator } = await person();
    const added = await register(session, authenticator);
    const options = await passkeyOptions();
    const answer = authenticator.get(options);
    expect((await post('/web/api/session/passkey', null, { credential: answer })).statusCode).toBe(200);
    const replay = await post('/web/api/session/passkey', null, { credential: answer });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('passkey_refused');

    const unverified = await post('/web/api/session/passkey', null, { credential: authenticator.get(await passkeyOptions(), { verified: false }) });
    expect(unverified.statusCode).toBe(401);
    const elsewhere = await post('/web/api/session/passkey', null, { credential: authenticator.get(await passkeyOptions(), { origin: 'https://evil.example' }) });
    expect(elsewhere.statusCode).toBe(401);
    const stranger = new SoftwareAuthenticator(ORIGIN);
    stranger.create({ challenge: 'x', rp: { id: 'localhost' }, user: { id: 'someone' } });
    const unknown = await post('/web/api/session/passkey', null, { credential: stranger.get(await passkeyOptions()) });
    expect(unknown.statusCode).toBe(401);
    expect(sessionCookie(unknown)).toBeUndefined();

    await request(ctx.app, session, { method: 'DELETE', url: `/web/api/passkeys/${added.id}`, headers: browser });
    const gone = await post('/web/api/session/passkey', null, { credential: authenticator.get(await passkeyOptions()) });
    expect(gone.statusCode).toBe(401);
    const failures = await ctx.db.selectFrom('audit_logs').select('details').where('company_id', '=', companyId).where('subject_id', '=', member.userId).where('action', '=', 'session.sign_in_failed').execute();
    expect(failures.map((f) => (f.details as { reason: string }).reason)).toEqual(['passkey_refused', 'passkey_refused']);
  });

  it('as the second step after a password: only the person’s own passkeys, and the challenge works once', async () => {
    const { member, session, authenticator } = await person();
    await register(session, authenticator);
    const other = await person();
    await register(other.session, other.authenticator);

    const first = await ctx.app.inject({ method: 'POST', url: '/web/api/session', payload: { email: member.email, password: PASSWORD } });
    expect(first.statusCode).toBe(202);
    expect(first.json()).toMatchObject({ second_factor_required: true, methods: ['passkey'] });
    const challenge = first.json().challenge as string;

    const options = await passkeyOptions(challenge);
    expect(options.allowCredentials).toHaveLength(1);
    expect(options.userVerification).toBe('preferred');
    // Another person's passkey is no second factor of this sign-in.
    const foreign = await post('/web/api/session/passkey', null, { challenge, credential: other.authenticator.get(options, { credential: other.authenticator.credentials[0] }) });
    expect(foreign.statusCode).toBe(401);

    const ok = await post('/web/api/session/passkey', null, { challenge, credential: authenticator.get(await passkeyOptions(challenge), { verified: false }) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().user.id).toBe(member.userId);
    // The sign-in's challenge is used: neither a passkey nor a code completes it again.
    expect((await post('/web/api/session/passkey-options', null, { challenge })).statusCode).toBe(401);
  });

  it('a person with codes and a passkey may use either; the workspace requirement is met by a passkey alone', async () => {
    const { member, session, authenticator } = await person();
    await register(session, authenticator);
    alignClock();
    const setup = await post('/web/api/two-factor/setup', session, {});
    await post('/web/api/two-factor/enable', session, { code: codeAt(setup.json().secret, ctx.clock.now()) });
    const res = await ctx.app.inject({ method: 'POST', url: '/web/api/session', payload: { email: member.email, password: PASSWORD } });
    expect(res.json().methods).toEqual(['totp', 'passkey']);

    const w = await createWorkspaceWithOwner(ctx.db, 'Requires A Second Factor');
    await ctx.db.updateTable('companies').set({ require_two_factor: true }).where('id', '=', w.company.id).execute();
    const withPasskey = await addMember(ctx.db, w.company.id);
    const theirs = await sessionFor(ctx.db, withPasskey, ctx.clock.now());
    const held = await request(ctx.app, theirs, { method: 'GET', url: '/web/api/profile' });
    const blocked = await request(ctx.app, theirs, { method: 'GET', url: '/web/api/home' });
    expect(held.statusCode).toBe(200);
    expect(blocked.statusCode).toBe(403);
    await register(theirs, new SoftwareAuthenticator(ORIGIN));
    expect((await request(ctx.app, theirs, { method: 'GET', url: '/web/api/home' })).statusCode).not.toBe(403);
  });

  it('answers 400 to a malformed body and changes nothing', async () => {
    for (const payload of [{}, { credential: 'x' }, { credential: { id: 'x' } }, { challenge: 5, credential: {} }, { credential: {}, extra: true }]) {
      const res = await post('/web/api/session/passkey', null, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await post('/web/api/session/passkey-options', null, { challenge: 'no-such-challenge' })).statusCode).toBe(401);
    expect((await post('/web/api/session/passkey-options', null, { who: 'me' })).statusCode).toBe(400);
  });
});

/** Moves the test clock to 5 s into the next time step (codes do not straddle a step). */
function alignClock() {
  const step = TOTP_PERIOD_S * 1000;
  const now = ctx.clock.now().getTime();
  ctx.clock.advance(step - (now % step) + 5000);
}
