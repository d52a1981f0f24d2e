import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { withTenant } from '../src/db/tenant.ts';
import { newId } from '../src/ids.ts';
import { createMember, updateMember } from '../src/modules/people/users/service.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, issueKey, request, type Caller, type TestContext } from './helpers.ts';
import { operatorPrincipal } from '../src/access/operator.ts';

const DIRECTORY_FIELDS = ['first_name', 'id', 'is_active', 'is_contractor', 'last_name', 'roles'];
const keys = (o: object) => Object.keys(o).sort();

describe('users/me and the users directory', () => {
  let ctx: TestContext;
  let owner: Caller;
  let personal: Caller;
  let manager: Caller;
  let contractor: Caller;
  let inactiveId: string;
  let agentId: string;
  let clientId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ owner } = await createWorkspaceWithOwner(ctx.db, 'Acme'));
    personal = await addMember(ctx.db, owner.companyId, { role: 'member', keyKind: 'personal', firstName: 'Pia', lastName: 'Personal' });
    manager = await addMember(ctx.db, owner.companyId, { role: 'manager', permissions: ['view_billable_rates'], lastName: 'Manager' });
    contractor = await addMember(ctx.db, owner.companyId, { role: 'member', isContractor: true, lastName: 'Contractor' });
    const inactive = await createMember(ctx.db, operatorPrincipal(owner.companyId), { email: `gone.${newId()}@example.com`, first_name: 'Gone', last_name: 'Inactive', is_active: false });
    inactiveId = inactive.user_id;
    agentId = (await createMember(ctx.db, operatorPrincipal(owner.companyId), { email: `bot.${newId()}@example.com`, first_name: 'Bot', user_type: 'agent' })).user_id;
    clientId = (await createMember(ctx.db, operatorPrincipal(owner.companyId), { email: `cl.${newId()}@example.com`, first_name: 'Cleo', role: 'client' })).user_id;
  });
  afterAll(() => ctx.close());

  it('full-access users/me has exactly the spec’s fields', async () => {
    const res = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users/me' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(keys(body)).toEqual(['company', 'email', 'first_name', 'id', 'last_name', 'roles', 'user_type']);
    expect(body).toMatchObject({ id: owner.userId, email: owner.email, user_type: 'human', roles: ['owner', 'administrator'] });
    expect(body.company).toEqual({ id: owner.companyId, name: 'Acme' });
  });

  it('personal users/me has exactly the sync fields and capabilities, no company or user_type', async () => {
    const res = await request(ctx.app, personal, { method: 'GET', url: '/api/v2/users/me' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(keys(body)).toEqual(['capabilities', 'email', 'first_name', 'id', 'is_active', 'is_contractor', 'last_name', 'roles']);
    expect(keys(body.capabilities)).toEqual([
      'can_read_clients',
      'can_read_own_profile',
      'can_read_own_time_entries',
      'can_read_projects',
      'can_read_users',
    ]);
    for (const value of Object.values(body.capabilities)) expect(typeof value).toBe('boolean');
    expect(body.capabilities).toMatchObject({ can_read_own_profile: true, can_read_users: true, can_read_clients: true, can_read_projects: true });
    expect(body).toMatchObject({ id: personal.userId, is_active: true, is_contractor: false, roles: ['member'] });
  });

  it('users/me takes no identity-selecting parameters', async () => {
    for (const caller of [owner, personal]) {
      const res = await request(ctx.app, caller, { method: 'GET', url: `/api/v2/users/me?user_id=${manager.userId}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'unknown_field', field: 'user_id' });
    }
  });

  it('a personal key lists exactly the directory fields of internal humans, active and inactive', async () => {
    const res = await request(ctx.app, personal, { method: 'GET', url: '/api/v2/users' });
    expect(res.statusCode).toBe(200);
    const users = res.json().users as Array<Record<string, unknown>>;
    for (const user of users) expect(keys(user)).toEqual(DIRECTORY_FIELDS);
    const ids = users.map((u) => u.id);
    expect(ids).toEqual(expect.arrayContaining([owner.userId, personal.userId, manager.userId, contractor.userId, inactiveId]));
    expect(ids).not.toContain(agentId);
    expect(ids).not.toContain(clientId);
    expect(users.find((u) => u.id === contractor.userId)).toMatchObject({ is_contractor: true, roles: ['member', 'contractor'] });
  });

  it('filters is_active exactly true or false', async () => {
    const active = (await request(ctx.app, personal, { method: 'GET', url: '/api/v2/users?is_active=true' })).json().users;
    expect(active.every((u: { is_active: boolean }) => u.is_active)).toBe(true);
    expect(active.map((u: { id: string }) => u.id)).not.toContain(inactiveId);
    const inactive = (await request(ctx.app, personal, { method: 'GET', url: '/api/v2/users?is_active=false' })).json().users;
    expect(inactive.map((u: { id: string }) => u.id)).toEqual([inactiveId]);
    for (const bad of ['1', 'yes', '', 'TRUE']) {
      const res = await request(ctx.app, personal, { method: 'GET', url: `/api/v2/users?is_active=${bad}` });
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it('refuses updated_since and other filters to a personal key', async () => {
    const res = await request(ctx.app, personal, { method: 'GET', url: '/api/v2/users?updated_since=2026-01-01T00:00:00Z' });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('updated_since');
    expect((await request(ctx.app, personal, { method: 'GET', url: '/api/v2/users?role=owner' })).statusCode).toBe(400);
  });

  it('owners, administrators and managers see every membership with e-mail, type and permissions', async () => {
    for (const caller of [owner, manager]) {
      const res = await request(ctx.app, caller, { method: 'GET', url: '/api/v2/users?per_page=100' });
      const users = res.json().users as Array<Record<string, any>>;
      const ids = users.map((u) => u.id);
      expect(ids).toEqual(expect.arrayContaining([agentId, clientId, inactiveId]));
      const bot = users.find((u) => u.id === agentId)!;
      expect(bot.user_type).toBe('agent');
      expect(typeof bot.email).toBe('string');
      expect(users.find((u) => u.id === manager.userId)!.permissions).toEqual(['view_billable_rates']);
    }
  });

  it('members and contractors with a full-access key get the directory shape', async () => {
    // The personal key's member, here with a full-access (integration) key of their own.
    const member = await issueKey(ctx.db, owner.companyId, personal.userId, personal.email, 'integration');
    for (const caller of [member, contractor]) {
      const res = await request(ctx.app, caller, { method: 'GET', url: '/api/v2/users?per_page=100' });
      expect(res.statusCode).toBe(200);
      const users = res.json().users as Array<Record<string, unknown>>;
      // The directory lists the workspace's people (not only the caller), each in the directory shape.
      expect(users.map((u) => u.id)).toEqual(expect.arrayContaining([owner.userId, manager.userId, contractor.userId, personal.userId]));
      for (const user of users) expect(keys(user)).toEqual(DIRECTORY_FIELDS);
    }
  });

  it('filters by updated_since for full-access callers', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    await updateMember(ctx.db, operatorPrincipal(owner.companyId), contractor.userId, { last_name: 'Renamed' });
    const res = await request(ctx.app, owner, { method: 'GET', url: `/api/v2/users?updated_since=${encodeURIComponent(before)}` });
    expect(res.json().users.map((u: { id: string }) => u.id)).toContain(contractor.userId);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await request(ctx.app, owner, { method: 'GET', url: `/api/v2/users?updated_since=${encodeURIComponent(future)}` })).json().users).toEqual([]);
    expect((await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users?updated_since=yesterday' })).statusCode).toBe(400);
  });

  it('pages with the envelope and relative links that keep the filters', async () => {
    const res = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users?is_active=true&per_page=2' });
    const body = res.json();
    expect(body.users).toHaveLength(2);
    expect(body).toMatchObject({ page: 1, per_page: 2 });
    expect(body.total_pages).toBe(Math.ceil(body.total_entries / 2));
    expect(body.links.previous).toBeNull();
    expect(body.links.first).toBe('/api/v2/users?is_active=true&per_page=2&page=1');
    expect(body.links.next).toBe('/api/v2/users?is_active=true&per_page=2&page=2');
    const seen = new Set<string>(body.users.map((u: { id: string }) => u.id));
    let next = body.links.next;
    while (next) {
      const page = (await request(ctx.app, owner, { method: 'GET', url: next })).json();
      for (const u of page.users) {
        expect(seen.has(u.id)).toBe(false);
        seen.add(u.id);
      }
      expect(page.links.previous).not.toBeNull();
      next = page.links.next;
    }
    expect(seen.size).toBe(body.total_entries);
    const last = (await request(ctx.app, owner, { method: 'GET', url: body.links.last })).json();
    expect(last.links.next).toBeNull();
    expect((await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users' })).json().per_page).toBe(100);
  });

  it('rejects absurd paging', async () => {
    for (const q of ['page=0', 'page=-1', 'page=abc', 'per_page=0', 'per_page=2001', 'page=1e99', 'page=1&page=2', 'page=1.5']) {
      const res = await request(ctx.app, owner, { method: 'GET', url: `/api/v2/users?${q}` });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error).toMatch(/invalid_request|unknown_field/);
    }
    const beyond = (await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users?page=50' })).json();
    expect(beyond.users).toEqual([]);
    expect(beyond.total_entries).toBeGreaterThan(0);
  });
});

describe('tenant isolation', () => {
  let ctx: TestContext;
  let acme: Caller;
  let globex: Caller;

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ owner: acme } = await createWorkspaceWithOwner(ctx.db, 'Acme'));
    ({ owner: globex } = await createWorkspaceWithOwner(ctx.db, 'Globex'));
    await addMember(ctx.db, globex.companyId, { role: 'member', lastName: 'OnlyGlobex' });
  });
  afterAll(() => ctx.close());

  it('never lists another workspace’s members', async () => {
    const globexIds = (await ctx.db.selectFrom('memberships').select('user_id').where('company_id', '=', globex.companyId).execute()).map((r) => r.user_id);
    const users = (await request(ctx.app, acme, { method: 'GET', url: '/api/v2/users' })).json().users;
    for (const u of users) expect(globexIds).not.toContain(u.id);
  });

  it('one person in two workspaces sees the right workspace with each key', async () => {
    const email = `shared.${newId()}@example.com`;
    const inAcme = await createMember(ctx.db, operatorPrincipal(acme.companyId), { email, first_name: 'Sam', role: 'manager' });
    const inGlobex = await createMember(ctx.db, operatorPrincipal(globex.companyId), { email, first_name: 'Sam', role: 'member' });
    expect(inGlobex.user_id).toBe(inAcme.user_id);
    const acmeKey = await issueKey(ctx.db, acme.companyId, inAcme.user_id, email, 'integration');
    const globexKey = await issueKey(ctx.db, globex.companyId, inGlobex.user_id, email, 'integration');
    const a = (await request(ctx.app, acmeKey, { method: 'GET', url: '/api/v2/users/me' })).json();
    const g = (await request(ctx.app, globexKey, { method: 'GET', url: '/api/v2/users/me' })).json();
    expect(a).toMatchObject({ company: { name: 'Acme' }, roles: ['manager'] });
    expect(g).toMatchObject({ company: { name: 'Globex' }, roles: ['member'] });
    // A key only opens the workspace it was issued in.
    const crossed = await request(ctx.app, acmeKey, { method: 'GET', url: '/api/v2/users/me', headers: { 'service-account-id': globex.companyId } });
    expect(crossed.statusCode).toBe(401);
  });

  it('row-level security confines a tenant transaction to its workspace', async () => {
    const rows = await withTenant(ctx.db, acme.companyId, (trx) => sql<{ company_id: string }>`select company_id from memberships`.execute(trx));
    expect(rows.rows.length).toBeGreaterThan(0);
    expect(new Set(rows.rows.map((r) => r.company_id))).toEqual(new Set([acme.companyId]));
    const companies = await withTenant(ctx.db, acme.companyId, (trx) => sql<{ id: string }>`select id from companies`.execute(trx));
    expect(companies.rows.map((r) => r.id)).toEqual([acme.companyId]);
    await expect(
      withTenant(ctx.db, acme.companyId, (trx) =>
        sql`insert into audit_logs (company_id, id, action, subject_type) values (${globex.companyId}, ${newId()}, 'x', 'y')`.execute(trx),
      ),
    ).rejects.toThrow(/row-level security/);
    const none = await withTenant(ctx.db, newId(), (trx) => sql<{ n: string }>`select count(*) as n from users`.execute(trx));
    expect(none.rows[0].n).toBe('0');
  });
});
