import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { loadConfig } from '../src/config.ts';
import { newId } from '../src/ids.ts';
import { createKey, revokeKey, rotateKey, ROTATION_OVERLAP_MS } from '../src/modules/people/credentials/service.ts';
import { createMember, deactivateMember, updateMember } from '../src/modules/people/users/service.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, issueKey, request, type Caller, type TestContext } from './helpers.ts';
import { operatorPrincipal } from '../src/access/operator.ts';

const ME = { method: 'GET' as const, url: '/api/v2/users/me' };

function expectError(res: { statusCode: number; json(): any }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json();
  expect(body.error).toBe(code);
  expect(typeof body.error_description).toBe('string');
  expect(typeof body.message).toBe('string');
}

describe('API key authentication', () => {
  let ctx: TestContext;
  let owner: Caller;
  let otherOwner: Caller;

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ owner } = await createWorkspaceWithOwner(ctx.db, 'Acme'));
    ({ owner: otherOwner } = await createWorkspaceWithOwner(ctx.db, 'Globex'));
  });
  afterAll(() => ctx.close());

  it('accepts a valid key with its workspace id', async () => {
    const res = await request(ctx.app, owner, ME);
    expect(res.statusCode).toBe(200);
    expect(res.json().company).toEqual({ id: owner.companyId, name: 'Acme' });
  });

  it('401 without an Authorization header, with a malformed one, and with an unknown key', async () => {
    expectError(await ctx.app.inject({ ...ME, headers: { 'service-account-id': owner.companyId } }), 401, 'unauthorized');
    for (const authorization of ['Basic abc', 'Bearer', `Token ${owner.key}`, `Bearer ${owner.key} extra`]) {
      expectError(await ctx.app.inject({ ...ME, headers: { authorization, 'service-account-id': owner.companyId } }), 401, 'unauthorized');
    }
    const forged = owner.key.slice(0, -4) + (owner.key.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expectError(await request(ctx.app, null, { ...ME, headers: { authorization: `Bearer ${forged}`, 'service-account-id': owner.companyId } }), 401, 'unauthorized');
    expectError(await request(ctx.app, null, { ...ME, headers: { authorization: 'Bearer sheaf_fa_short', 'service-account-id': owner.companyId } }), 401, 'unauthorized');
  });

  it('401 without Service-Account-Id, with a malformed one, and with another workspace’s id', async () => {
    expectError(await request(ctx.app, null, { ...ME, headers: { authorization: `Bearer ${owner.key}` } }), 401, 'unauthorized');
    expectError(await request(ctx.app, owner, { ...ME, headers: { 'service-account-id': 'acme' } }), 401, 'unauthorized');
    expectError(await request(ctx.app, owner, { ...ME, headers: { 'service-account-id': otherOwner.companyId } }), 401, 'unauthorized');
    expectError(await request(ctx.app, owner, { ...ME, headers: { 'service-account-id': newId() } }), 401, 'unauthorized');
  });

  it('401 when Authorization or Service-Account-Id is sent twice, even with the same valid value twice', async () => {
    const other = await addMember(ctx.db, owner.companyId, { role: 'member' });
    const cases: Record<string, string | string[]>[] = [
      // Node would keep the first Authorization and silently drop the second
      { authorization: [`Bearer ${owner.key}`, `Bearer ${other.key}`], 'service-account-id': owner.companyId },
      { authorization: [`Bearer ${owner.key}`, `Bearer ${owner.key}`], 'service-account-id': owner.companyId },
      { authorization: `Bearer ${owner.key}`, 'service-account-id': [owner.companyId, owner.companyId] },
    ];
    for (const headers of cases) {
      const res = await ctx.app.inject({ ...ME, headers });
      expectError(res, 401, 'unauthorized');
      expect(res.json().message).toMatch(/exactly one (Authorization|Service-Account-Id) header/);
    }
    expect((await request(ctx.app, owner, ME)).statusCode).toBe(200);
  });

  it('revocation takes effect on the next request', async () => {
    const caller = await addMember(ctx.db, owner.companyId, { role: 'member' });
    expect((await request(ctx.app, caller, ME)).statusCode).toBe(200);
    await revokeKey(ctx.db, operatorPrincipal(owner.companyId), caller.keyId, ctx.clock.now());
    expectError(await request(ctx.app, caller, ME), 401, 'unauthorized');
  });

  it('a rotated key keeps working for 15 minutes, then stops; the new key works', async () => {
    const caller = await addMember(ctx.db, owner.companyId, { role: 'member', keyKind: 'personal' });
    const rotated = await rotateKey(ctx.db, operatorPrincipal(owner.companyId), caller.keyId, ctx.clock.now());
    const fresh = { ...caller, headers: { ...caller.headers, authorization: `Bearer ${rotated.secret}` } };
    expect((await request(ctx.app, caller, ME)).statusCode).toBe(200);
    expect((await request(ctx.app, fresh, ME)).statusCode).toBe(200);
    ctx.clock.advance(ROTATION_OVERLAP_MS - 1000);
    expect((await request(ctx.app, caller, ME)).statusCode).toBe(200);
    ctx.clock.advance(2000);
    expectError(await request(ctx.app, caller, ME), 401, 'unauthorized');
    expect((await request(ctx.app, fresh, ME)).statusCode).toBe(200);
  });

  it('revoking during the rotation handover kills the previous key too', async () => {
    const caller = await addMember(ctx.db, owner.companyId, { role: 'member', keyKind: 'personal' });
    const rotated = await rotateKey(ctx.db, operatorPrincipal(owner.companyId), caller.keyId, ctx.clock.now());
    const fresh = { ...caller, headers: { ...caller.headers, authorization: `Bearer ${rotated.secret}` } };
    await revokeKey(ctx.db, operatorPrincipal(owner.companyId), rotated.credential.id, ctx.clock.now());
    expectError(await request(ctx.app, fresh, ME), 401, 'unauthorized');
    expectError(await request(ctx.app, caller, ME), 401, 'unauthorized');
  });

  it('a deactivated user is refused on the next request, and admitted again after reactivation', async () => {
    const caller = await addMember(ctx.db, owner.companyId, { role: 'member' });
    await deactivateMember(ctx.db, operatorPrincipal(owner.companyId), caller.userId);
    expectError(await request(ctx.app, caller, ME), 401, 'unauthorized');
    await updateMember(ctx.db, operatorPrincipal(owner.companyId), caller.userId, { is_active: true });
    expect((await request(ctx.app, caller, ME)).statusCode).toBe(200);
  });

  it('role changes apply on the next request', async () => {
    const caller = await addMember(ctx.db, owner.companyId, { role: 'member' });
    expect((await request(ctx.app, caller, ME)).json().roles).toEqual(['member']);
    await updateMember(ctx.db, operatorPrincipal(owner.companyId), caller.userId, { role: 'administrator' });
    expect((await request(ctx.app, caller, ME)).json().roles).toEqual(['administrator']);
  });

  it('a client membership gets 403 on a general credential', async () => {
    const caller = await addMember(ctx.db, owner.companyId, { role: 'member' });
    await updateMember(ctx.db, operatorPrincipal(owner.companyId), caller.userId, { role: 'client' });
    expectError(await request(ctx.app, caller, ME), 403, 'forbidden');
    expectError(await request(ctx.app, caller, { method: 'GET', url: '/api/v2/users' }), 403, 'forbidden');
  });

  it('clients and agents cannot hold personal keys; one live personal key per user', async () => {
    const client = await createMember(ctx.db, operatorPrincipal(owner.companyId), { email: `c.${newId()}@example.com`, first_name: 'C', role: 'client' });
    await expect(createKey(ctx.db, operatorPrincipal(owner.companyId), { userId: client.user_id, kind: 'personal' })).rejects.toMatchObject({ statusCode: 400 });
    await expect(createKey(ctx.db, operatorPrincipal(owner.companyId), { userId: client.user_id, kind: 'integration' })).rejects.toMatchObject({ statusCode: 400 });
    const agent = await createMember(ctx.db, operatorPrincipal(owner.companyId), { email: `a.${newId()}@example.com`, first_name: 'Bot', user_type: 'agent' });
    await expect(createKey(ctx.db, operatorPrincipal(owner.companyId), { userId: agent.user_id, kind: 'personal' })).rejects.toMatchObject({ statusCode: 400 });
    const agentKey = await issueKey(ctx.db, owner.companyId, agent.user_id, agent.email, 'integration');
    expect((await request(ctx.app, agentKey, ME)).json().user_type).toBe('agent');
    const person = await addMember(ctx.db, owner.companyId, { keyKind: 'personal' });
    await expect(createKey(ctx.db, operatorPrincipal(owner.companyId), { userId: person.userId, kind: 'personal' })).rejects.toMatchObject({ statusCode: 409 });
  });

  it('stores only a hash of the key', async () => {
    const rows = await ctx.db.selectFrom('credentials').selectAll().where('id', '=', owner.keyId).execute();
    const serialized = JSON.stringify(rows);
    expect(serialized).not.toContain(owner.key);
    expect(serialized).not.toContain(owner.key.slice(9));
  });
});

describe('identity-provider JWT', () => {
  let ctx: TestContext;
  let owner: Caller;
  let otherOwner: Caller;
  let privateKey: CryptoKey;
  let foreignKey: CryptoKey;
  const ISSUER = 'https://idp.example.com/';
  const AUDIENCE = 'sheaf-api';

  type TokenOptions = { key?: CryptoKey; issuer?: string; audience?: string; expires?: string | number | null; issuedAt?: number };
  const token = (claims: Record<string, unknown>, options: TokenOptions = {}) => {
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(options.issuer ?? ISSUER)
      .setAudience(options.audience ?? AUDIENCE)
      .setIssuedAt(options.issuedAt);
    if (options.expires !== null) jwt.setExpirationTime(options.expires ?? '5m');
    return jwt.sign(options.key ?? privateKey);
  };
  /** Seconds since the epoch on the server's (test) clock. */
  const nowSeconds = () => Math.floor(ctx.clock.now().getTime() / 1000);

  const bearer = async (jwt: Promise<string> | string, extra: Record<string, string> = {}) =>
    ctx.app.inject({ ...ME, headers: { authorization: `Bearer ${await jwt}`, ...extra } });

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    privateKey = pair.privateKey;
    foreignKey = (await generateKeyPair('RS256')).privateKey;
    ctx = await createTestContext({
      env: { JWT_PUBLIC_KEY: await exportSPKI(pair.publicKey), JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_ALGORITHMS: 'RS256' },
    });
    ({ owner } = await createWorkspaceWithOwner(ctx.db, 'Acme'));
    ({ owner: otherOwner } = await createWorkspaceWithOwner(ctx.db, 'Globex'));
  });
  afterAll(() => ctx.close());

  it('accepts a valid token by user id or e-mail, with no account header, as the full-access profile', async () => {
    for (const sub of [owner.userId, owner.email.toUpperCase()]) {
      const res = await bearer(token({ sub, company_id: owner.companyId }));
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual(['company', 'email', 'first_name', 'id', 'last_name', 'roles', 'user_type']);
      expect(res.json().company.id).toBe(owner.companyId);
    }
  });

  it('refuses expired, wrong-issuer, wrong-audience and foreign-signed tokens', async () => {
    const claims = { sub: owner.userId, company_id: owner.companyId };
    expectError(await bearer(token(claims, { expires: Math.floor(Date.now() / 1000) - 60 })), 401, 'unauthorized');
    expectError(await bearer(token(claims, { issuer: 'https://evil.example.com/' })), 401, 'unauthorized');
    expectError(await bearer(token(claims, { audience: 'other' })), 401, 'unauthorized');
    expectError(await bearer(token(claims, { key: foreignKey })), 401, 'unauthorized');
    expectError(await bearer('not.a.jwt'), 401, 'unauthorized');
  });

  it('requires exp, at most JWT_MAX_LIFETIME_SECONDS (default 24 h) ahead, and iat not in the future', async () => {
    const claims = { sub: owner.userId, company_id: owner.companyId };
    const noExp = await bearer(token(claims, { expires: null }));
    expectError(noExp, 401, 'unauthorized');
    expect(noExp.json().message).toMatch(/no exp claim/);
    const tooFar = await bearer(token(claims, { expires: nowSeconds() + 24 * 3600 + 120 }));
    expectError(tooFar, 401, 'unauthorized');
    expect(tooFar.json().message).toMatch(/expires more than 86400 seconds from now/);
    expect((await bearer(token(claims, { expires: nowSeconds() + 24 * 3600 - 120 }))).statusCode).toBe(200);
    // the identity provider's clock may run up to a minute ahead
    expect((await bearer(token(claims, { issuedAt: nowSeconds() + 30 }))).statusCode).toBe(200);
    const future = await bearer(token(claims, { issuedAt: nowSeconds() + 600 }));
    expectError(future, 401, 'unauthorized');
    expect(future.json().message).toMatch(/issued in the future/);
  });

  it('expiry is judged on the server clock', async () => {
    const jwt = await token({ sub: owner.userId, company_id: owner.companyId }, { expires: nowSeconds() + 300 });
    expect((await bearer(jwt)).statusCode).toBe(200);
    ctx.clock.advance(301_000);
    try {
      expectError(await bearer(jwt), 401, 'unauthorized');
    } finally {
      ctx.clock.advance(-301_000);
    }
  });

  it('401 when the token is sent in two Authorization headers', async () => {
    const jwt = await token({ sub: owner.userId, company_id: owner.companyId });
    const headers: Record<string, string[]> = { authorization: [`Bearer ${jwt}`, `Bearer ${jwt}`] };
    expectError(await ctx.app.inject({ ...ME, headers }), 401, 'unauthorized');
  });

  it('JWT_MAX_LIFETIME_SECONDS sets the bound; it must be a positive integer', () => {
    const env = { JWT_PUBLIC_KEY: 'pem', JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE };
    expect(loadConfig(env).jwt?.maxLifetimeSeconds).toBe(86_400);
    expect(loadConfig({ ...env, JWT_MAX_LIFETIME_SECONDS: '3600' }).jwt?.maxLifetimeSeconds).toBe(3600);
    expect(() => loadConfig({ ...env, JWT_MAX_LIFETIME_SECONDS: '1h' })).toThrow(/JWT_MAX_LIFETIME_SECONDS/);
  });

  it('refuses unknown subjects, other workspaces and a mismatching account header', async () => {
    expectError(await bearer(token({ sub: newId(), company_id: owner.companyId })), 401, 'unauthorized');
    expectError(await bearer(token({ sub: owner.userId, company_id: otherOwner.companyId })), 401, 'unauthorized');
    expectError(await bearer(token({ sub: owner.userId })), 401, 'unauthorized');
    expectError(
      await bearer(token({ sub: owner.userId, company_id: owner.companyId }), { 'service-account-id': otherOwner.companyId }),
      401,
      'unauthorized',
    );
    expect((await bearer(token({ sub: owner.userId, company_id: owner.companyId }), { 'service-account-id': owner.companyId })).statusCode).toBe(200);
    // The header names the same workspace in any case and padding, as it does with a key.
    const spelled = { 'service-account-id': ` ${owner.companyId.toUpperCase()} ` };
    expect((await bearer(token({ sub: owner.userId, company_id: owner.companyId }), spelled)).statusCode).toBe(200);
  });
});
