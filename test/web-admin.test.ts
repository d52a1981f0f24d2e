import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { newId } from '../src/ids.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { setPassword } from '../src/modules/people/sessions/service.ts';
import { INVITATION_LIFETIME_MS } from '../src/modules/people/invitations/service.ts';
import { ROTATION_OVERLAP_MS } from '../src/modules/people/credentials/service.ts';
import { LAST_USED_EVERY_MS } from '../src/auth/authenticate.ts';
import { PAIR_LIMIT, WINDOW_MS, beginSignInAttempt } from '../src/auth/sign-in-throttle.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, request, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * The web app's administration (issue 15): workspace settings, members and
 * agents, API keys, and invitations, all on web-only routes that a browser
 * session reaches and an API key does not.
 */

let ctx: TestContext;
let companyId: string;
let owner: Caller;
let admin: Caller;
let manager: Caller;
let member: Caller;
const s: Record<'owner' | 'admin' | 'manager' | 'member', Caller> = {} as never;
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  ctx = await createTestContext();
  const w = await createWorkspaceWithOwner(ctx.db, 'Admin Works');
  owner = w.owner;
  companyId = w.company.id;
  admin = await addMember(ctx.db, companyId, { role: 'administrator', firstName: 'Ada', lastName: 'Admin' });
  manager = await addMember(ctx.db, companyId, { role: 'manager', firstName: 'Max', lastName: 'Manager' });
  member = await addMember(ctx.db, companyId, { role: 'member', firstName: 'Mia', lastName: 'Member' });
  for (const [name, caller] of Object.entries({ owner, admin, manager, member })) s[name as keyof typeof s] = await sessionFor(ctx.db, caller, ctx.clock.now());
});
afterAll(() => ctx.close());

const call = (caller: Caller | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  request(ctx.app, caller, { method, url, payload: payload as object, headers });

function expectError(res: LightMyRequestResponse, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
  expect(body.message).toBe(body.error_description);
  if (field !== undefined) expect(body.field).toBe(field);
}

/** Polls (no sleeping on a guess) until `check` holds or the deadline passes. */
async function eventually<T>(read: () => Promise<T>, check: (v: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((r) => setImmediate(r));
  }
}

const keyHeaders = (secret: string, company = companyId) => ({ authorization: `Bearer ${secret}`, 'service-account-id': company });
const me = (secret: string, company = companyId) => ctx.app.inject({ method: 'GET', url: '/api/v2/users/me', headers: keyHeaders(secret, company) });

describe('workspace settings', () => {
  const WORKSPACE_KEYS = [
    'address', 'allow_past_timer_starts', 'approvals_enabled', 'currency', 'id', 'invoice_before_approval', 'name', 'require_two_factor', 'rounding',
    'rounding_minutes', 'sender_email', 'sender_phone', 'tax_id', 'timezone', 'week_start',
  ];

  it('any member reads them; an administrator changes any subset, audited as theirs', async () => {
    const read = await call(s.member, 'GET', '/web/api/workspace');
    expect(read.statusCode).toBe(200);
    expect(Object.keys(read.json()).sort()).toEqual(WORKSPACE_KEYS);
    expect(read.json()).toMatchObject({ id: companyId, name: 'Admin Works', timezone: 'UTC', sender_email: null });

    const change = {
      name: 'Admin Works GmbH',
      address: 'Hauptstraße 1\n10115 Berlin',
      timezone: 'Europe/Berlin',
      currency: 'EUR',
      week_start: 'sunday',
      rounding: 'up',
      rounding_minutes: 6,
      approvals_enabled: true,
      allow_past_timer_starts: true,
      invoice_before_approval: false,
      require_two_factor: false,
      sender_email: 'billing@admin.example',
      sender_phone: '+49 30 123456',
      tax_id: 'DE123456789',
    };
    const res = await call(s.admin, 'PATCH', '/web/api/workspace', change);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: companyId, ...change });
    expect((await call(s.member, 'GET', '/web/api/workspace')).json()).toEqual({ id: companyId, ...change });
    const entry = await ctx.db
      .selectFrom('audit_logs')
      .select(['actor_user_id'])
      .where('company_id', '=', companyId)
      .where('action', '=', 'workspace.settings_changed')
      .executeTakeFirstOrThrow();
    expect(entry.actor_user_id).toBe(admin.userId);

    const cleared = await call(s.owner, 'PATCH', '/web/api/workspace', { tax_id: null, sender_email: '' });
    expect(cleared.json()).toMatchObject({ tax_id: null, sender_email: null, sender_phone: '+49 30 123456' });
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const before = (await call(s.owner, 'GET', '/web/api/workspace')).json();
    const cases: Array<[unknown, string, string | undefined]> = [
      [{ color: 'red' }, 'unknown_field', 'color'],
      [{ approvals_enabled: 'yes' }, 'invalid_request', 'approvals_enabled'],
      [{ rounding_minutes: 90 }, 'invalid_request', 'rounding_minutes'],
      [{ timezone: 'Mars/Olympus' }, 'invalid_request', 'timezone'],
      [{ currency: 'ABC' }, 'invalid_request', 'currency'],
      [{ name: '  ' }, 'invalid_request', 'name'],
      [{ sender_email: 'not an address' }, 'invalid_request', 'sender_email'],
      [{ sender_phone: 'call me' }, 'invalid_request', 'sender_phone'],
      [{}, 'invalid_request', undefined],
    ];
    for (const [payload, error, field] of cases) expectError(await call(s.owner, 'PATCH', '/web/api/workspace', payload), 400, error, field);
    expect((await call(s.owner, 'GET', '/web/api/workspace')).json()).toEqual(before);
  });

  it('only owners and administrators change them, only signed in, only with the CSRF token', async () => {
    const before = (await call(s.owner, 'GET', '/web/api/workspace')).json();
    for (const who of [s.manager, s.member]) expectError(await call(who, 'PATCH', '/web/api/workspace', { name: 'Mine' }), 403, 'forbidden');
    expectError(await call(owner, 'PATCH', '/web/api/workspace', { name: 'By key' }), 403, 'session_required');
    expectError(await call(owner, 'GET', '/web/api/workspace'), 403, 'session_required');
    const noToken = await ctx.app.inject({ method: 'PATCH', url: '/web/api/workspace', headers: { cookie: s.admin.headers.cookie }, payload: { name: 'Forged' } });
    expectError(noToken, 403, 'csrf_failed');
    const crossSite = await call(s.admin, 'PATCH', '/web/api/workspace', { name: 'Forged' }, { origin: 'https://evil.example' });
    expectError(crossSite, 403, 'csrf_failed');
    expect((await call(s.owner, 'GET', '/web/api/workspace')).json()).toEqual(before);
  });
});

describe('members', () => {
  const MEMBER_KEYS = [
    'email', 'expected_weekly_hours', 'first_name', 'id', 'is_active', 'is_contractor', 'last_name', 'permissions', 'role', 'teammate_ids', 'user_type',
  ];

  it('lists every membership with its flags and teammates', async () => {
    await ctx.db.insertInto('teammate_assignments').values({ company_id: companyId, manager_id: manager.userId, teammate_id: member.userId }).execute();
    const res = await call(s.admin, 'GET', '/web/api/members');
    expect(res.statusCode).toBe(200);
    const members = res.json().members as Array<Record<string, unknown>>;
    for (const m of members) expect(Object.keys(m).sort()).toEqual(MEMBER_KEYS);
    const byId = new Map(members.map((m) => [m.id, m]));
    expect(byId.get(owner.userId)).toMatchObject({ role: 'owner', user_type: 'human', is_active: true });
    expect(byId.get(manager.userId)).toMatchObject({ first_name: 'Max', role: 'manager', teammate_ids: [member.userId] });
    expect(byId.get(member.userId)).toMatchObject({ email: member.email, role: 'member', teammate_ids: [], expected_weekly_hours: null });
    await ctx.db.deleteFrom('teammate_assignments').where('company_id', '=', companyId).execute();
  });

  it('changes role, flags, hours and teammates; each change applies on the next /api/v2 request', async () => {
    const m = await addMember(ctx.db, companyId, { role: 'member' });
    const createClient = () => ctx.app.inject({ method: 'POST', url: '/api/v2/clients', headers: keyHeaders(m.key), payload: { name: `C ${newId()}` } });
    expect((await createClient()).statusCode).toBe(403);
    const promoted = await call(s.admin, 'PATCH', `/web/api/members/${m.userId}`, { role: 'administrator' });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json()).toMatchObject({ id: m.userId, role: 'administrator' });
    expect((await createClient()).statusCode).toBe(201);

    expect((await call(s.admin, 'PATCH', `/web/api/members/${m.userId}`, { is_active: false })).json().is_active).toBe(false);
    expect((await me(m.key)).statusCode).toBe(401);
    expect((await call(s.admin, 'PATCH', `/web/api/members/${m.userId}`, { is_active: true })).json().is_active).toBe(true);
    expect((await me(m.key)).statusCode).toBe(200);

    const res = await call(s.admin, 'PATCH', `/web/api/members/${manager.userId}`, {
      permissions: ['view_invoices', 'edit_projects'],
      teammate_ids: [member.userId, m.userId],
      expected_weekly_hours: '37.5',
      is_contractor: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ role: 'manager', permissions: ['view_invoices', 'edit_projects'], expected_weekly_hours: '37.50', is_contractor: true });
    expect([...res.json().teammate_ids].sort()).toEqual([member.userId, m.userId].sort());
    const replaced = await call(s.admin, 'PATCH', `/web/api/members/${manager.userId}`, { teammate_ids: [member.userId] });
    expect(replaced.json().teammate_ids).toEqual([member.userId]);
    const audited = await ctx.db.selectFrom('audit_logs').select('actor_user_id').where('company_id', '=', companyId).where('action', '=', 'teammate.unassigned').execute();
    expect(audited.map((a) => a.actor_user_id)).toEqual([admin.userId]);

    // Leaving the manager role drops flags and teammates (the operator's rule).
    const demoted = await call(s.admin, 'PATCH', `/web/api/members/${manager.userId}`, { role: 'member' });
    expect(demoted.json()).toMatchObject({ role: 'member', permissions: [], teammate_ids: [] });
    await call(s.admin, 'PATCH', `/web/api/members/${manager.userId}`, { role: 'manager', is_contractor: false, expected_weekly_hours: null });
  });

  it('refuses bad changes with a 400 naming the field, unknown members with 404, and changes nothing', async () => {
    const before = (await call(s.admin, 'GET', '/web/api/members')).json();
    const cases: Array<[string, unknown, string, string | undefined]> = [
      [member.userId, { permissions: ['view_invoices'] }, 'invalid_request', 'permissions'],
      [member.userId, { teammate_ids: [manager.userId] }, 'invalid_request', 'teammate_ids'],
      [manager.userId, { teammate_ids: [newId()] }, 'invalid_request', 'teammate_ids'],
      [manager.userId, { teammate_ids: [manager.userId] }, 'invalid_request', 'teammate_ids'],
      [manager.userId, { teammate_ids: ['not-an-id'] }, 'invalid_request', 'teammate_ids.0'],
      [manager.userId, { permissions: ['rule_the_world'] }, 'invalid_request', 'permissions.0'],
      [member.userId, { role: 'boss' }, 'invalid_request', 'role'],
      [member.userId, { email: 'x@example.com' }, 'unknown_field', 'email'],
      [member.userId, { is_active: 'no' }, 'invalid_request', 'is_active'],
      [member.userId, { expected_weekly_hours: '200' }, 'invalid_request', 'expected_weekly_hours'],
      [member.userId, { expected_weekly_hours: 40 }, 'invalid_request', 'expected_weekly_hours'],
      [member.userId, {}, 'invalid_request', undefined],
    ];
    for (const [id, payload, error, field] of cases) {
      expectError(await call(s.admin, 'PATCH', `/web/api/members/${id}`, payload), 400, error, field);
    }
    const foreign = await createWorkspaceWithOwner(ctx.db, 'Elsewhere');
    for (const id of [foreign.owner.userId, newId(), 'not-an-id']) {
      expectError(await call(s.admin, 'PATCH', `/web/api/members/${id}`, { role: 'member' }), 404, 'not_found');
    }
    expect((await call(s.admin, 'GET', '/web/api/members')).json()).toEqual(before);
    expect((await call(foreign.owner, 'GET', '/api/v2/users/me')).json().roles).toContain('owner');
    expectError(await call(s.manager, 'GET', '/web/api/members'), 403, 'forbidden');
    expectError(await call(s.member, 'PATCH', `/web/api/members/${member.userId}`, { role: 'administrator' }), 403, 'forbidden');
  });

  it('only an owner makes or changes an owner, and the last active owner stays', async () => {
    const company = await createWorkspace(ctx.db, { name: 'Owned' });
    const o = await addMember(ctx.db, company.id, { role: 'owner' });
    const a = await addMember(ctx.db, company.id, { role: 'administrator' });
    const [os, as] = [await sessionFor(ctx.db, o, ctx.clock.now()), await sessionFor(ctx.db, a, ctx.clock.now())];
    expectError(await call(as, 'PATCH', `/web/api/members/${a.userId}`, { role: 'owner' }), 403, 'forbidden');
    expectError(await call(as, 'PATCH', `/web/api/members/${o.userId}`, { role: 'member' }), 403, 'forbidden');
    expectError(await call(as, 'PATCH', `/web/api/members/${o.userId}`, { is_active: false }), 403, 'forbidden');
    expectError(await call(os, 'PATCH', `/web/api/members/${o.userId}`, { role: 'administrator' }), 409, 'conflict');
    expectError(await call(os, 'PATCH', `/web/api/members/${o.userId}`, { is_active: false }), 409, 'conflict');
    expect((await me(o.key, company.id)).json().roles).toContain('owner');

    expect((await call(os, 'PATCH', `/web/api/members/${a.userId}`, { role: 'owner' })).json().role).toBe('owner');
    // With another owner, an owner may step down.
    expect((await call(os, 'PATCH', `/web/api/members/${o.userId}`, { role: 'administrator' })).json().role).toBe('administrator');
    expectError(await call(as, 'PATCH', `/web/api/members/${a.userId}`, { is_active: false }), 409, 'conflict');
  });

  it('creates agent identities that never sign in and act only through keys', async () => {
    const res = await call(s.admin, 'POST', '/web/api/agents', { name: 'CI bot', role: 'manager', permissions: ['edit_projects'] });
    expect(res.statusCode, res.body).toBe(201);
    const agent = res.json();
    expect(Object.keys(agent).sort()).toEqual(MEMBER_KEYS);
    expect(agent).toMatchObject({ first_name: 'CI bot', last_name: '', user_type: 'agent', role: 'manager', permissions: ['edit_projects'], is_active: true });
    expect(agent.email).toMatch(/@agents\.invalid$/);
    expect((await call(s.admin, 'GET', '/web/api/members')).json().members.map((m: { id: string }) => m.id)).toContain(agent.id);

    for (const payload of [{ name: 'Boss bot', role: 'owner' }, { name: 'Client bot', role: 'client' }, { name: '' }, { name: 'x', email: 'x@y.z' }, { role: 'member' }]) {
      expect((await call(s.admin, 'POST', '/web/api/agents', payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expectError(await call(s.owner, 'PATCH', `/web/api/members/${agent.id}`, { role: 'owner' }), 400, 'invalid_request', 'role');
    expectError(await call(s.member, 'POST', '/web/api/agents', { name: 'Mine' }), 403, 'forbidden');

    const key = await call(s.admin, 'POST', '/web/api/keys', { kind: 'integration', name: 'Deploys', user_id: agent.id });
    expect(key.statusCode, key.body).toBe(201);
    expect((await me(key.json().secret)).json()).toMatchObject({ id: agent.id, user_type: 'agent' });
    expectError(await call(s.admin, 'POST', '/web/api/keys', { kind: 'personal', user_id: agent.id }), 403, 'forbidden');
  });
});

describe('API keys (Settings -> API and Developers)', () => {
  const KEY_KEYS = ['created_at', 'expires_at', 'id', 'kind', 'last_used_at', 'may_revoke', 'name', 'prefix', 'revoked_at', 'user'];

  it('an administrator creates a full-access key for a member: the secret once, never in the list; it works with Service-Account-Id', async () => {
    const res = await call(s.admin, 'POST', '/web/api/keys', { kind: 'integration', name: 'Reporting', user_id: member.userId });
    expect(res.statusCode, res.body).toBe(201);
    const { key, secret } = res.json();
    expect(Object.keys(key).sort()).toEqual(KEY_KEYS);
    expect(key).toMatchObject({ kind: 'integration', name: 'Reporting', user: { id: member.userId, name: 'Mia Member' }, last_used_at: null, revoked_at: null });
    expect(secret).toMatch(/^sheaf_fa_/);
    expect(secret.startsWith(key.prefix)).toBe(true);

    const list = await call(s.admin, 'GET', '/web/api/keys');
    expect(list.statusCode).toBe(200);
    expect(list.json().company_id).toBe(companyId);
    expect(list.json().keys.map((k: { id: string }) => k.id)).toContain(key.id);
    expect(list.body).not.toContain(secret);
    expect(list.body).not.toContain(secret.slice(key.prefix.length));

    const used = await me(secret);
    expect(used.statusCode).toBe(200);
    expect(used.json()).toMatchObject({ id: member.userId, company: { id: companyId } });
    expect((await me(secret, newId())).statusCode).toBe(401);
    // Last use is recorded (at most once a minute, off the request path).
    const row = await eventually(
      () => ctx.db.selectFrom('credentials').select('last_used_at').where('company_id', '=', companyId).where('id', '=', key.id).executeTakeFirstOrThrow(),
      (r) => r.last_used_at !== null,
    );
    expect(row.last_used_at?.getTime()).toBe(ctx.clock.now().getTime());
    const listed = (await call(s.admin, 'GET', '/web/api/keys')).json().keys.find((k: { id: string }) => k.id === key.id);
    expect(listed.last_used_at).toBe(ctx.clock.now().toISOString());

    // At most one write a minute per key: requests in between do not write.
    const spy = vi.spyOn(ctx.db, 'executeQuery');
    try {
      const writes = () => spy.mock.calls.filter(([q]) => 'sql' in q && q.sql.startsWith('update credentials set last_used_at')).length;
      ctx.clock.advance(30_000);
      expect((await me(secret)).statusCode).toBe(200);
      expect(writes()).toBe(0);
      ctx.clock.advance(LAST_USED_EVERY_MS);
      expect((await me(secret)).statusCode).toBe(200);
      expect(writes()).toBe(1);
      const later = ctx.clock.now().getTime();
      await eventually(
        () => ctx.db.selectFrom('credentials').select('last_used_at').where('company_id', '=', companyId).where('id', '=', key.id).executeTakeFirstOrThrow(),
        (r) => r.last_used_at?.getTime() === later,
      );
    } finally {
      spy.mockRestore();
    }
  });

  it('rotation: the old key works for the overlap, both stop at revocation', async () => {
    const created = (await call(s.owner, 'POST', '/web/api/keys', { kind: 'integration', name: 'Sync' })).json();
    expect(created.key.user.id).toBe(owner.userId);
    const rotated = await call(s.owner, 'POST', `/web/api/keys/${created.key.id}/rotate`);
    expect(rotated.statusCode, rotated.body).toBe(201);
    expect(rotated.json().secret).not.toBe(created.secret);
    expect(rotated.json().key).toMatchObject({ kind: 'integration', name: 'Sync' });
    const old = (await call(s.owner, 'GET', '/web/api/keys')).json().keys.find((k: { id: string }) => k.id === created.key.id);
    expect(old.expires_at).toBe(new Date(ctx.clock.now().getTime() + ROTATION_OVERLAP_MS).toISOString());
    expect((await me(created.secret)).statusCode).toBe(200);
    expect((await me(rotated.json().secret)).statusCode).toBe(200);
    expectError(await call(s.owner, 'POST', `/web/api/keys/${created.key.id}/rotate`), 409, 'conflict');

    expect((await call(s.owner, 'DELETE', `/web/api/keys/${rotated.json().key.id}`)).statusCode).toBe(204);
    expect((await me(created.secret)).statusCode).toBe(401);
    expect((await me(rotated.json().secret)).statusCode).toBe(401);

    // Without revocation, the old key stops when the overlap ends.
    const again = (await call(s.owner, 'POST', '/web/api/keys', { kind: 'integration' })).json();
    const next = (await call(s.owner, 'POST', `/web/api/keys/${again.key.id}/rotate`)).json();
    ctx.clock.advance(ROTATION_OVERLAP_MS + 1000);
    expect((await me(again.secret)).statusCode).toBe(401);
    expect((await me(next.secret)).statusCode).toBe(200);
  });

  it('personal sync keys: every member makes and rotates their own, for nobody else', async () => {
    const made = await call(s.member, 'POST', '/web/api/keys', { kind: 'personal', name: 'Laptop' });
    expect(made.statusCode, made.body).toBe(201);
    const { key, secret } = made.json();
    expect(key).toMatchObject({ kind: 'personal', user: { id: member.userId } });
    expect(secret).toMatch(/^sheaf_ps_/);
    expect((await me(secret)).json()).toHaveProperty('capabilities');
    const write = await ctx.app.inject({ method: 'POST', url: '/api/v2/clients', headers: keyHeaders(secret), payload: { name: 'No' } });
    expect(write.statusCode).toBe(403);

    expectError(await call(s.member, 'POST', '/web/api/keys', { kind: 'personal' }), 409, 'conflict');
    expectError(await call(s.member, 'POST', '/web/api/keys', { kind: 'personal', user_id: manager.userId }), 403, 'forbidden');
    expectError(await call(s.member, 'POST', '/web/api/keys', { kind: 'integration' }), 403, 'forbidden');
    expectError(await call(s.manager, 'POST', '/web/api/keys', { kind: 'integration', user_id: manager.userId }), 403, 'forbidden');

    // A member lists the keys bound to themselves only.
    const mine = (await call(s.member, 'GET', '/web/api/keys')).json();
    expect(mine.company_id).toBe(companyId);
    expect(mine.keys.length).toBeGreaterThan(0);
    expect(mine.keys.every((k: { user: { id: string } }) => k.user.id === member.userId)).toBe(true);
    const all = (await call(s.admin, 'GET', '/web/api/keys')).json().keys as Array<{ id: string; kind: string; user: { id: string } }>;
    const adminKey = all.find((k) => k.user.id === admin.userId)!;
    const memberIntegration = all.find((k) => k.user.id === member.userId && k.kind === 'integration')!;
    expectError(await call(s.member, 'POST', `/web/api/keys/${adminKey.id}/rotate`), 404, 'not_found');
    expectError(await call(s.member, 'DELETE', `/web/api/keys/${adminKey.id}`), 404, 'not_found');
    expectError(await call(s.member, 'POST', `/web/api/keys/${memberIntegration.id}/rotate`), 403, 'forbidden');
    expectError(await call(s.member, 'DELETE', `/web/api/keys/${memberIntegration.id}`), 403, 'forbidden');

    const rotated = await call(s.member, 'POST', `/web/api/keys/${key.id}/rotate`);
    expect(rotated.statusCode, rotated.body).toBe(201);
    // Nobody rotates another's personal key (it would hand them a key that reads as that person)...
    expectError(await call(s.admin, 'POST', `/web/api/keys/${rotated.json().key.id}/rotate`), 403, 'forbidden');
    // ...but an administrator may revoke it, at once, with the previous key of its rotation.
    expect((await call(s.admin, 'DELETE', `/web/api/keys/${rotated.json().key.id}`)).statusCode).toBe(204);
    expect((await me(secret)).statusCode).toBe(401);
    expect((await me(rotated.json().secret)).statusCode).toBe(401);
    expect((await call(s.member, 'POST', '/web/api/keys', { kind: 'personal' })).statusCode).toBe(201);
  });

  it('a key that acts as an owner is made, rotated and revoked by an owner only, not an administrator', async () => {
    const ownersKeys = async () =>
      Number((await ctx.db.selectFrom('credentials').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', companyId).where('user_id', '=', owner.userId).executeTakeFirstOrThrow()).n);
    const ownerKey = (await call(s.owner, 'POST', '/web/api/keys', { kind: 'integration', name: 'Owner sync' })).json();
    const before = await ownersKeys();
    // An administrator with such a key could act as the owner; with a revoke, cut the owner's integrations off.
    expectError(await call(s.admin, 'POST', '/web/api/keys', { kind: 'integration', name: 'As owner', user_id: owner.userId }), 403, 'forbidden');
    const listed = async (who: Caller) =>
      (await call(who, 'GET', '/web/api/keys')).json().keys.find((k: { id: string }) => k.id === ownerKey.key.id) as { may_revoke: boolean; revoked_at: string | null };
    expect(await listed(s.admin)).toMatchObject({ may_revoke: false });
    expect(await listed(s.owner)).toMatchObject({ may_revoke: true });
    expectError(await call(s.admin, 'POST', `/web/api/keys/${ownerKey.key.id}/rotate`), 403, 'forbidden');
    expectError(await call(s.admin, 'DELETE', `/web/api/keys/${ownerKey.key.id}`), 403, 'forbidden');
    // Nothing changed: no key made, the owner's still works, not rotated, not revoked.
    expect(await ownersKeys()).toBe(before);
    expect((await me(ownerKey.secret)).statusCode).toBe(200);
    expect(await listed(s.owner)).toMatchObject({ revoked_at: null, expires_at: null });
    // A second owner may (owners administer owners); an administrator's own and members' keys stay theirs to manage.
    const second = await addMember(ctx.db, companyId, { role: 'owner', firstName: 'Otto', lastName: 'Owner' });
    const secondSession = await sessionFor(ctx.db, second, ctx.clock.now());
    expect((await call(secondSession, 'POST', `/web/api/keys/${ownerKey.key.id}/rotate`)).statusCode).toBe(201);
    expect((await call(secondSession, 'DELETE', `/web/api/keys/${ownerKey.key.id}`)).statusCode).toBe(204);
    expect((await me(ownerKey.secret)).statusCode).toBe(401);
    const adminOwn = (await call(s.admin, 'POST', '/web/api/keys', { kind: 'integration', name: 'Admin own' })).json();
    expect(adminOwn.key.may_revoke).toBe(true);
    expect((await call(s.admin, 'DELETE', `/web/api/keys/${adminOwn.key.id}`)).statusCode).toBe(204);
  });

  it('refuses client memberships, bad input and keys it cannot see', async () => {
    const client = await addMember(ctx.db, companyId, { role: 'member' });
    await ctx.db.updateTable('memberships').set({ role: 'client' }).where('company_id', '=', companyId).where('user_id', '=', client.userId).execute();
    const cs = await sessionFor(ctx.db, client, ctx.clock.now());
    expectError(await call(cs, 'POST', '/web/api/keys', { kind: 'personal' }), 403, 'forbidden');
    expectError(await call(cs, 'GET', '/web/api/keys'), 403, 'forbidden');
    expectError(await call(s.admin, 'POST', '/web/api/keys', { kind: 'integration', user_id: client.userId }), 400, 'invalid_request', 'user_id');

    const cases: Array<[unknown, string, string]> = [
      [{ kind: 'master' }, 'invalid_request', 'kind'],
      [{ kind: 'personal', scope: 'all' }, 'unknown_field', 'scope'],
      [{ kind: 'integration', user_id: 'nope' }, 'invalid_request', 'user_id'],
      [{ kind: 'integration', name: 'x'.repeat(256) }, 'invalid_request', 'name'],
    ];
    for (const [payload, error, field] of cases) expectError(await call(s.admin, 'POST', '/web/api/keys', payload), 400, error, field);
    const foreign = await createWorkspaceWithOwner(ctx.db, 'Keys Elsewhere');
    expectError(await call(s.admin, 'POST', '/web/api/keys', { kind: 'integration', user_id: foreign.owner.userId }), 404, 'not_found');
    for (const id of [foreign.owner.keyId, newId(), 'not-an-id']) {
      expectError(await call(s.admin, 'POST', `/web/api/keys/${id}/rotate`), 404, 'not_found');
      expectError(await call(s.admin, 'DELETE', `/web/api/keys/${id}`), 404, 'not_found');
    }
    expect((await me(foreign.owner.key, foreign.company.id)).statusCode).toBe(200);
  });
});

describe('invitations', () => {
  const outbox = () =>
    ctx.db.selectFrom('outbox').select(['payload']).where('company_id', '=', companyId).where('kind', '=', 'invitation').orderBy('id').execute();
  /** The token of the latest invitation e-mail to `email`, checking the link's form. */
  async function tokenFor(email: string) {
    const mails = (await outbox()).map((m) => m.payload as { to: Array<{ email: string }>; text: string; subject: string });
    const mail = mails.filter((m) => m.to[0].email === email).at(-1)!;
    expect(mail.subject).toMatch(/invited you to /);
    const link = mail.text.match(/(http:\/\/\S+)\/invitations\/accept#([A-Za-z0-9_-]{43})/);
    expect(link?.[1]).toBe(`http://${ctx.config.host}:${ctx.config.port}`);
    return link![2];
  }
  const invite = (who: Caller, payload: object) => call(who, 'POST', '/web/api/invitations', payload);
  const lookup = (token: string) => call(null, 'POST', '/web/api/invitations/lookup', { token });
  const accept = (payload: object, headers: Record<string, string> = {}) => call(null, 'POST', '/web/api/invitations/accept', payload, headers);
  const cookieOf = (res: LightMyRequestResponse) => ({ cookie: String(res.headers['set-cookie']).split(';')[0], 'x-csrf-token': res.json().csrf_token });

  it('invite, e-mail, look up, accept: a new account signed in to the workspace with only what its role allows', async () => {
    const res = await invite(s.admin, { email: ' New.Person@Example.com ', role: 'member', is_contractor: true });
    expect(res.statusCode, res.body).toBe(201);
    const inv = res.json();
    expect(Object.keys(inv).sort()).toEqual(['created_at', 'email', 'expires_at', 'id', 'invited_by', 'is_contractor', 'permissions', 'role', 'status']);
    expect(inv).toMatchObject({
      email: 'new.person@example.com',
      role: 'member',
      permissions: [],
      is_contractor: true,
      invited_by: { id: admin.userId, name: 'Ada Admin' },
      status: 'pending',
      expires_at: new Date(ctx.clock.now().getTime() + INVITATION_LIFETIME_MS).toISOString(),
    });
    const token = await tokenFor('new.person@example.com');
    const stored = await ctx.db.selectFrom('invitations').select('token_hash').where('id', '=', inv.id).executeTakeFirstOrThrow();
    expect(stored.token_hash.toString('base64url')).not.toBe(token);

    const preview = await lookup(token);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({
      workspace_name: expect.any(String),
      email: 'new.person@example.com',
      role: 'member',
      invited_by: { id: admin.userId, name: 'Ada Admin' },
      account_exists: false,
    });

    expectError(await accept({ token, password: PASSWORD }), 400, 'invalid_request', 'first_name');
    expectError(await accept({ token, first_name: 'Nia', password: 'short' }), 400, 'invalid_request', 'password');
    expectError(await accept({ token, first_name: 'Nia', password: PASSWORD, role: 'owner' }), 400, 'unknown_field', 'role');
    const done = await accept({ token, first_name: 'Nia', last_name: 'New', password: PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    expect(String(done.headers['set-cookie'])).toMatch(/^sheaf_session=.*HttpOnly/);
    expect(done.json()).toMatchObject({
      user: { email: 'new.person@example.com', first_name: 'Nia', last_name: 'New', has_password: true },
      workspace: { id: companyId, role: 'member', is_contractor: true },
    });
    const headers = cookieOf(done);
    const session = { ...s.member, headers, userId: done.json().user.id };
    expect((await call(session, 'GET', '/api/v2/users/me')).json()).toMatchObject({ company: { id: companyId }, roles: ['member', 'contractor'] });
    expectError(await call(session, 'GET', '/web/api/members'), 403, 'forbidden');
    expect((await call(session, 'POST', '/api/v2/clients', { name: 'Not mine to make' })).statusCode).toBe(403);
    // The session came from the link: it may choose a new password at once, like a reset's.
    expect((await call(session, 'PUT', '/web/api/password', { password: 'another long password' })).statusCode).toBe(204);

    expectError(await accept({ token, first_name: 'Nia', password: PASSWORD }), 400, 'link_invalid');
    expectError(await lookup(token), 400, 'link_invalid');
    const listed = (await call(s.admin, 'GET', '/web/api/invitations')).json().invitations.find((i: { id: string }) => i.id === inv.id);
    expect(listed.status).toBe('accepted');
    const row = await ctx.db.selectFrom('invitations').select('accepted_user_id').where('id', '=', inv.id).executeTakeFirstOrThrow();
    expect(row.accepted_user_id).toBe(done.json().user.id);
    expectError(await call(s.admin, 'DELETE', `/web/api/invitations/${inv.id}`), 409, 'conflict');
    expectError(await call(s.admin, 'POST', `/web/api/invitations/${inv.id}/resend`), 409, 'conflict');
  });

  it('a resend replaces the link, a revocation ends it, and links expire after 7 days', async () => {
    const inv = (await invite(s.owner, { email: 'resend@example.com', role: 'manager', permissions: ['view_invoices'] })).json();
    const first = await tokenFor('resend@example.com');
    const resent = await call(s.admin, 'POST', `/web/api/invitations/${inv.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ id: inv.id, status: 'pending', permissions: ['view_invoices'] });
    const second = await tokenFor('resend@example.com');
    expect(second).not.toBe(first);
    expectError(await lookup(first), 400, 'link_invalid');
    expect((await lookup(second)).statusCode).toBe(200);

    expect((await call(s.admin, 'DELETE', `/web/api/invitations/${inv.id}`)).statusCode).toBe(204);
    expectError(await lookup(second), 400, 'link_invalid');
    expectError(await accept({ token: second, first_name: 'R', password: PASSWORD }), 400, 'link_invalid');
    expect((await call(s.admin, 'DELETE', `/web/api/invitations/${inv.id}`)).statusCode).toBe(204);
    expectError(await call(s.admin, 'POST', `/web/api/invitations/${inv.id}/resend`), 409, 'conflict');

    const late = (await invite(s.admin, { email: 'late@example.com', role: 'member' })).json();
    const lateToken = await tokenFor('late@example.com');
    ctx.clock.advance(INVITATION_LIFETIME_MS + 60_000);
    expectError(await lookup(lateToken), 400, 'link_invalid');
    const statuses = Object.fromEntries(
      (await call(s.admin, 'GET', '/web/api/invitations')).json().invitations.map((i: { id: string; status: string }) => [i.id, i.status]),
    );
    expect(statuses[inv.id]).toBe('revoked');
    expect(statuses[late.id]).toBe('expired');
    // An expired invitation may be sent again (and a new one made, as none is pending).
    const revived = await call(s.admin, 'POST', `/web/api/invitations/${late.id}/resend`);
    expect(revived.json().status).toBe('pending');
    expect((await lookup(await tokenFor('late@example.com'))).statusCode).toBe(200);
  });

  it('refuses duplicates, members, bad input, owner invitations by administrators, and others\u2019 ids', async () => {
    const pending = (await invite(s.admin, { email: 'dup@example.com', role: 'member' })).json();
    const dup = await invite(s.admin, { email: 'DUP@example.com', role: 'member' });
    expectError(dup, 409, 'conflict', 'email');
    expect(dup.json().invitation_id).toBe(pending.id);
    expectError(await invite(s.admin, { email: member.email, role: 'member' }), 409, 'conflict', 'email');
    const cases: Array<[object, string, string]> = [
      [{ email: 'nope', role: 'member' }, 'invalid_request', 'email'],
      [{ email: 'a@example.com', role: 'boss' }, 'invalid_request', 'role'],
      [{ email: 'a@example.com', role: 'member', permissions: ['view_invoices'] }, 'invalid_request', 'permissions'],
      [{ email: 'a@example.com', role: 'member', team: 'x' }, 'unknown_field', 'team'],
      [{ role: 'member' }, 'invalid_request', 'email'],
    ];
    for (const [payload, error, field] of cases) expectError(await invite(s.admin, payload), 400, error, field);
    expectError(await invite(s.admin, { email: 'boss@example.com', role: 'owner' }), 403, 'forbidden');
    expect((await invite(s.owner, { email: 'boss@example.com', role: 'owner' })).statusCode).toBe(201);
    for (const who of [s.manager, s.member]) {
      expectError(await call(who, 'GET', '/web/api/invitations'), 403, 'forbidden');
      expectError(await invite(who, { email: 'x@example.com', role: 'member' }), 403, 'forbidden');
    }
    expectError(await call(owner, 'GET', '/web/api/invitations'), 403, 'session_required');
    const noToken = await ctx.app.inject({ method: 'POST', url: '/web/api/invitations', headers: { cookie: s.admin.headers.cookie }, payload: { email: 'csrf@example.com', role: 'member' } });
    expectError(noToken, 403, 'csrf_failed');
    const foreign = await createWorkspaceWithOwner(ctx.db, 'Invites Elsewhere');
    const fs = await sessionFor(ctx.db, foreign.owner, ctx.clock.now());
    const theirs = (await invite(fs, { email: 'theirs@example.com', role: 'member' })).json();
    for (const id of [theirs.id, newId(), 'not-an-id']) {
      expectError(await call(s.admin, 'POST', `/web/api/invitations/${id}/resend`), 404, 'not_found');
      expectError(await call(s.admin, 'DELETE', `/web/api/invitations/${id}`), 404, 'not_found');
    }
    expect((await call(fs, 'GET', '/web/api/invitations')).json().invitations.map((i: { status: string }) => i.status)).toEqual(['pending']);
    const emails = (await outbox()).map((m) => (m.payload as { to: Array<{ email: string }> }).to[0].email);
    expect(emails).not.toContain('csrf@example.com');
    expect(emails).not.toContain('x@example.com');
    // The acceptance routes are for our own pages only (login CSRF).
    expectError(await accept({ token: 'x'.repeat(43) }, { origin: 'https://evil.example' }), 403, 'csrf_failed');
    for (const token of ['x'.repeat(43), 'short']) expectError(await lookup(token), 400, 'link_invalid');
  });

  it("a new account takes the language of the page it accepted on; an account with a password keeps its own", async () => {
    await invite(s.admin, { email: 'page-language@example.com', role: 'member' });
    expectError(await accept({ token: await tokenFor('page-language@example.com'), first_name: 'Jonas', password: PASSWORD, language: 'fr' }), 400, 'invalid_request', 'language');
    const created = await accept({ token: await tokenFor('page-language@example.com'), first_name: 'Jonas', password: PASSWORD, language: 'de' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().user.preferences.language).toBe('de');
    const elsewhere = await createWorkspaceWithOwner(ctx.db, 'Englisch GmbH');
    await setPassword(ctx.db, elsewhere.owner.userId, PASSWORD);
    await invite(s.admin, { email: elsewhere.owner.email, role: 'member' });
    const kept = await accept({ token: await tokenFor(elsewhere.owner.email), password: PASSWORD, language: 'de' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().user.preferences.language).toBe('en');
  });

  it('an existing account accepts with its password (throttled like a sign-in) or its session', async () => {
    const elsewhere = await createWorkspaceWithOwner(ctx.db, 'Their Own Place');
    const person = elsewhere.owner;
    await setPassword(ctx.db, person.userId, PASSWORD);
    await invite(s.admin, { email: person.email, role: 'manager' });
    const token = await tokenFor(person.email);
    expect((await lookup(token)).json().account_exists).toBe(true);
    expectError(await accept({ token }), 400, 'invalid_request', 'password');
    expectError(await accept({ token, password: 'not the password' }), 400, 'invalid_request', 'password');
    const failures = await ctx.db.selectFrom('sign_in_failures').select('id').where('scope', '=', 'account').where('subject', '=', person.email).execute();
    expect(failures).toHaveLength(1);
    // Guessing goes through the sign-in throttle: past its limit for this account from this address (inject's
    // 127.0.0.1), 429 with Retry-After, even for the right password.
    for (let i = 1; i < PAIR_LIMIT; i++) await beginSignInAttempt(ctx.db, { email: person.email, address: '127.0.0.1', at: ctx.clock.now() });
    const throttled = await accept({ token, password: PASSWORD });
    expectError(throttled, 429, 'rate_limited');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    // From another address the person is not locked out: the password is checked (and this one is wrong).
    const elsewhereTry = await ctx.app.inject({ method: 'POST', url: '/web/api/invitations/accept', remoteAddress: '192.0.2.90', payload: { token, password: 'still not it' } });
    expectError(elsewhereTry, 400, 'invalid_request', 'password');
    ctx.clock.advance(WINDOW_MS);
    const done = await accept({ token, password: PASSWORD, first_name: 'Renamed' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().user).toMatchObject({ id: person.userId, first_name: 'Olive' });
    expect(done.json().workspace).toMatchObject({ id: companyId, role: 'manager' });
    expect(done.json().workspaces.map((w: { id: string }) => w.id).sort()).toEqual([companyId, elsewhere.company.id].sort());

    // Signed in already as the invited account: no password needed; the old session ends.
    const other = await createWorkspaceWithOwner(ctx.db, 'Another Place');
    const hash = await ctx.db.selectFrom('users').select('password_hash').where('id', '=', person.userId).executeTakeFirstOrThrow();
    await ctx.db.updateTable('users').set({ password_hash: hash.password_hash }).where('id', '=', other.owner.userId).execute();
    const signedIn = await sessionFor(ctx.db, other.owner, ctx.clock.now());
    await invite(s.admin, { email: other.owner.email, role: 'member' });
    const viaSession = await accept({ token: await tokenFor(other.owner.email) }, { cookie: signedIn.headers.cookie });
    expect(viaSession.statusCode, viaSession.body).toBe(200);
    expect(viaSession.json().user.id).toBe(other.owner.userId);
    expect((await call(signedIn, 'GET', '/web/api/session')).statusCode).toBe(401);

    // An account made without a password (by the operator) gets the one chosen here.
    const bare = await createWorkspaceWithOwner(ctx.db, 'Bare');
    await invite(s.admin, { email: bare.owner.email, role: 'member' });
    const bareToken = await tokenFor(bare.owner.email);
    expect((await lookup(bareToken)).json().account_exists).toBe(false);
    const set = await accept({ token: bareToken, password: PASSWORD });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().user).toMatchObject({ id: bare.owner.userId, first_name: 'Olive', has_password: true });
  });

  it('refuses an address that belongs to an agent identity', async () => {
    const foreign = await createWorkspaceWithOwner(ctx.db, 'Agents Elsewhere');
    const bot = await addMember(ctx.db, foreign.company.id, { userType: 'agent', email: 'bot.invited@example.com' });
    await invite(s.admin, { email: bot.email, role: 'member' });
    const token = await tokenFor(bot.email);
    expect((await lookup(token)).json().account_exists).toBe(false);
    expectError(await accept({ token, first_name: 'Bot', password: PASSWORD }), 409, 'conflict');
    expect((await lookup(token)).statusCode).toBe(200);
    expect(await ctx.db.selectFrom('memberships').select('company_id').where('user_id', '=', bot.userId).execute()).toHaveLength(1);
  });

  it('of two acceptances of one link at once, exactly one succeeds', async () => {
    await invite(s.admin, { email: 'race@example.com', role: 'member' });
    const token = await tokenFor('race@example.com');
    const results = await Promise.all([1, 2].map((i) => accept({ token, first_name: `Racer ${i}`, password: PASSWORD })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.statusCode === 400)!.json().error).toBe('link_invalid');
    const users = await ctx.db.selectFrom('users').select('id').where('email', '=', 'race@example.com').execute();
    expect(users).toHaveLength(1);
    const memberships = await ctx.db.selectFrom('memberships').select('user_id').where('user_id', '=', users[0].id).execute();
    expect(memberships).toHaveLength(1);
  });

  describe("in the invitee's language, else the inviter's (users.language)", () => {
    type Mail = { to: Array<{ email: string }>; subject: string; text: string };
    const latestTo = async (email: string) => (await outbox()).map((m) => m.payload as Mail).filter((m) => m.to[0].email === email).at(-1)!;
    const setLanguage = (userId: string, language: 'en' | 'de') => ctx.db.updateTable('users').set({ language }).where('id', '=', userId).execute();
    const workspace = async () => (await ctx.db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirstOrThrow()).name;
    const base = () => `http://${ctx.config.host}:${ctx.config.port}`;
    const tokenOf = (m: Mail) => /#([A-Za-z0-9_-]{43})$/m.exec(m.text)![1];
    const german = (name: string, token: string) =>
      [
        'Guten Tag,',
        '',
        `Ada Admin hat Sie eingeladen, ${name} in Sheaf beizutreten, um dort Zeiten und Ausgaben zu erfassen.`,
        'Öffnen Sie diesen Link innerhalb von 7 Tagen, um die Einladung anzunehmen:',
        '',
        `${base()}/invitations/accept#${token}`,
        '',
        'Falls Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.',
      ].join('\n');
    const english = (name: string, token: string) =>
      [
        'Hello,',
        '',
        `Ada Admin invited you to join ${name} on Sheaf, to track time and expenses.`,
        'Open this link within 7 days to accept:',
        '',
        `${base()}/invitations/accept#${token}`,
        '',
        'If you did not expect this invitation, ignore this e-mail.',
      ].join('\n');

    it("a new address gets the inviter's language: German from a German-preferring inviter, English from an English one", async () => {
      const name = await workspace();
      await setLanguage(admin.userId, 'de');
      try {
        expect((await invite(s.admin, { email: 'neu@example.com', role: 'member' })).statusCode).toBe(201);
      } finally {
        await setLanguage(admin.userId, 'en');
      }
      const de = await latestTo('neu@example.com');
      expect(de.subject).toBe(`Ada Admin hat Sie zu ${name} in Sheaf eingeladen`);
      expect(de.text).toBe(german(name, tokenOf(de)));

      expect((await invite(s.admin, { email: 'new.en@example.com', role: 'member' })).statusCode).toBe(201);
      const en = await latestTo('new.en@example.com');
      expect(en.subject).toBe(`Ada Admin invited you to ${name} on Sheaf`);
      expect(en.text).toBe(english(name, await tokenFor('new.en@example.com')));
    });

    it("an address with an account gets its owner's language, whatever the inviter's, on the first mail and on a resend", async () => {
      const name = await workspace();
      const germanElsewhere = await createWorkspaceWithOwner(ctx.db, 'Anderswo');
      await setLanguage(germanElsewhere.owner.userId, 'de');
      const res = await invite(s.admin, { email: germanElsewhere.owner.email, role: 'member' });
      expect(res.statusCode, res.body).toBe(201);
      let mail = await latestTo(germanElsewhere.owner.email);
      expect(mail.subject).toBe(`Ada Admin hat Sie zu ${name} in Sheaf eingeladen`);
      expect(mail.text).toBe(german(name, tokenOf(mail)));
      expect((await call(s.admin, 'POST', `/web/api/invitations/${res.json().id}/resend`)).statusCode).toBe(200);
      const resent = await latestTo(germanElsewhere.owner.email);
      expect(resent.text).not.toBe(mail.text);
      expect(resent.subject).toBe(mail.subject);
      expect(resent.text).toBe(german(name, tokenOf(resent)));

      // A German-preferring inviter, an English-preferring invitee: English.
      const englishElsewhere = await createWorkspaceWithOwner(ctx.db, 'Elsewhere');
      await setLanguage(admin.userId, 'de');
      try {
        expect((await invite(s.admin, { email: englishElsewhere.owner.email, role: 'member' })).statusCode).toBe(201);
      } finally {
        await setLanguage(admin.userId, 'en');
      }
      mail = await latestTo(englishElsewhere.owner.email);
      expect(mail.subject).toBe(`Ada Admin invited you to ${name} on Sheaf`);
      expect(mail.text).toBe(english(name, tokenOf(mail)));
    });
  });
});
