import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { withTenant } from '../src/db/tenant.ts';
import { rateHistory, rateOn } from '../src/modules/catalog/rates/service.ts';
import { createMember, updateMember } from '../src/modules/people/users/service.ts';
import { addMember, createTestContext, type Caller, type TestContext } from './helpers.ts';
import { addDays, apiOf, assign, makeProjectWorkspace, uniqueName, workspaceTodayOf, type ProjectWorkspace } from './fixtures/projects.ts';
import { operatorPrincipal } from '../src/access/operator.ts';

/**
 * Project user assignments (/api/v2/projects/:id/user_assignments): who may
 * manage a project's people, the rules on who can be assigned and made a
 * project manager, the effective-dated person rate, and visibility following
 * the assignment on the very next request.
 */

const BASE_FIELDS = ['project_id', 'user_id', 'user', 'is_project_manager', 'is_active', 'created_at', 'updated_at'];
const sorted = (keys: string[]) => [...keys].sort();

let ctx: TestContext;
let ws: ProjectWorkspace;
let other: ProjectWorkspace;
const api = apiOf(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  ws = await makeProjectWorkspace(ctx.db, 'Acme');
  other = await makeProjectWorkspace(ctx.db, 'Other');
});
afterAll(async () => ctx?.close());

/** A project by the owner with the given managers (is_project_manager) and members assigned. */
async function project(options: { managers?: Caller[]; members?: Caller[]; body?: Record<string, unknown> } = {}) {
  const res = await api(ws.owner, 'POST', '/api/v2/projects', { client_id: ws.clientId, name: uniqueName(), task_ids: [], ...options.body });
  expect(res.statusCode, res.body).toBe(201);
  const p = res.json();
  for (const m of options.managers ?? []) await assign(ctx.db, ws.companyId, p.id, m.userId, { manager: true });
  for (const m of options.members ?? []) await assign(ctx.db, ws.companyId, p.id, m.userId);
  return p as { id: string; name: string };
}

const url = (projectId: string, userId?: string) => `/api/v2/projects/${projectId}/user_assignments${userId ? `/${userId}` : ''}`;

function personRate(projectId: string, userId: string, date: string) {
  return withTenant(ctx.db, ws.companyId, (trx) => rateOn(trx, ws.companyId, { kind: 'billable', projectId, userId }, date));
}

async function storedAssignment(projectId: string, userId: string) {
  return ctx.db
    .selectFrom('project_user_assignments')
    .select(['is_project_manager', 'is_active', 'budget'])
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

describe('who may manage a project’s people', () => {
  it('owners, administrators and the project’s managers (with or without permission flags) may; others who see it get 403', async () => {
    const p = await project({ managers: [ws.mgrPlain, ws.mgrRates], members: [ws.member, ws.contractor, ws.mgrAll] });
    for (const who of [ws.owner, ws.admin, ws.mgrPlain, ws.mgrRates]) {
      const res = await api(who, 'GET', url(p.id));
      expect(res.statusCode, res.body).toBe(200);
    }
    // mgrAll is merely assigned (not its manager): reading the project is fine, managing its people is not.
    for (const who of [ws.member, ws.contractor, ws.mgrAll]) {
      expect((await api(who, 'GET', url(p.id))).statusCode).toBe(403);
      expect((await api(who, 'POST', url(p.id), { user_id: ws.mgrCosts.userId })).statusCode).toBe(403);
      expect((await api(who, 'PATCH', url(p.id, ws.member.userId), { is_active: false })).statusCode).toBe(403);
      expect((await api(who, 'DELETE', url(p.id, ws.member.userId))).statusCode).toBe(403);
    }
    expect(await storedAssignment(p.id, ws.member.userId)).toMatchObject({ is_active: true });
  });

  it('a project the caller does not see is 404 (even for a manager with edit_projects)', async () => {
    const p = await project();
    for (const who of [ws.mgrEdit, ws.mgrAll, ws.member]) {
      expect((await api(who, 'GET', url(p.id))).statusCode).toBe(404);
      expect((await api(who, 'POST', url(p.id), { user_id: who.userId })).statusCode).toBe(404);
    }
    expect((await api(ws.owner, 'GET', url(newId()))).statusCode).toBe(404);
    expect((await api(ws.owner, 'GET', url('nope'))).statusCode).toBe(404);
  });

  it('personal sync keys are refused every route', async () => {
    const p = await project({ members: [ws.member] });
    expect((await api(ws.memberPersonal, 'GET', url(p.id))).statusCode).toBe(403);
    expect((await api(ws.adminPersonal, 'POST', url(p.id), { user_id: ws.mgrPlain.userId })).statusCode).toBe(403);
    expect((await api(ws.adminPersonal, 'DELETE', url(p.id, ws.member.userId))).statusCode).toBe(403);
  });

  it('a demoted project manager loses the right on the next request', async () => {
    const p = await project({ managers: [ws.mgrPlain] });
    expect((await api(ws.mgrPlain, 'GET', url(p.id))).statusCode).toBe(200);
    await ctx.db.updateTable('project_user_assignments').set({ is_project_manager: false }).where('project_id', '=', p.id).execute();
    expect((await api(ws.mgrPlain, 'GET', url(p.id))).statusCode).toBe(403);
    expect((await api(ws.mgrPlain, 'PATCH', `/api/v2/projects/${p.id}`, { notes: 'x' })).statusCode).toBe(403);
  });
});

describe('POST /api/v2/projects/:id/user_assignments', () => {
  it('assigns a member (201, Location); the member sees the project on the next request', async () => {
    const p = await project({ managers: [ws.mgrPlain] });
    const who = await addMember(ctx.db, ws.companyId, { role: 'member', firstName: 'Nia', lastName: 'New' });
    expect((await api(who, 'GET', `/api/v2/projects/${p.id}`)).statusCode).toBe(404);
    const res = await api(ws.mgrPlain, 'POST', url(p.id), { user_id: who.userId });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers.location).toBe(url(p.id, who.userId));
    expect(res.json()).toMatchObject({
      project_id: p.id,
      user_id: who.userId,
      user: { id: who.userId, name: 'Nia New', email: who.email },
      is_project_manager: false,
      is_active: true,
    });
    expect((await api(who, 'GET', `/api/v2/projects/${p.id}`)).statusCode).toBe(200);
    const listed = (await api(who, 'GET', '/api/v2/projects')).json().projects.map((x: { id: string }) => x.id);
    expect(listed).toContain(p.id);
  });

  it('an existing assignment, active or not, is 409', async () => {
    const p = await project({ members: [ws.member] });
    await assign(ctx.db, ws.companyId, p.id, ws.contractor.userId, { active: false });
    for (const who of [ws.member, ws.contractor]) {
      const res = await api(ws.owner, 'POST', url(p.id), { user_id: who.userId });
      expect(res.statusCode).toBe(409);
    }
  });

  it('refuses (400 naming user_id) client memberships, deactivated members, unknown and other-workspace users', async () => {
    const p = await project();
    const client = await createMember(ctx.db, operatorPrincipal(ws.companyId), { email: `c.${newId()}@example.com`, first_name: 'C', role: 'client' });
    const gone = await addMember(ctx.db, ws.companyId, { role: 'member' });
    await updateMember(ctx.db, operatorPrincipal(ws.companyId), gone.userId, { is_active: false });
    for (const userId of [client.user_id, gone.userId, other.member.userId, newId(), 'x']) {
      const res = await api(ws.owner, 'POST', url(p.id), { user_id: userId });
      expect(res.statusCode, userId).toBe(400);
      expect(res.json().field).toBe('user_id');
    }
    // Only the creator (assigned when creating the project).
    const rows = await ctx.db.selectFrom('project_user_assignments').select('user_id').where('project_id', '=', p.id).execute();
    expect(rows).toEqual([{ user_id: ws.owner.userId }]);
  });

  it('is_project_manager only for the manager role; a new project manager may then update the project', async () => {
    const p = await project();
    const bad = await api(ws.owner, 'POST', url(p.id), { user_id: ws.member.userId, is_project_manager: true });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('is_project_manager');
    const adminAsPm = await api(ws.owner, 'POST', url(p.id), { user_id: ws.admin.userId, is_project_manager: true });
    expect(adminAsPm.statusCode).toBe(400);
    expect((await api(ws.mgrCosts, 'PATCH', `/api/v2/projects/${p.id}`, { notes: 'x' })).statusCode).toBe(404);
    const ok = await api(ws.owner, 'POST', url(p.id), { user_id: ws.mgrCosts.userId, is_project_manager: true });
    expect(ok.statusCode).toBe(201);
    expect((await api(ws.mgrCosts, 'PATCH', `/api/v2/projects/${p.id}`, { notes: 'x' })).statusCode).toBe(200);
  });

  it('unknown and read-only properties are 400', async () => {
    const p = await project();
    for (const field of ['project_id', 'user', 'created_at', 'updated_at', 'colour']) {
      const res = await api(ws.owner, 'POST', url(p.id), { user_id: ws.member.userId, [field]: 'x' });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().field).toBe(field);
    }
    expect((await api(ws.owner, 'POST', url(p.id), {})).json().field).toBe('user_id');
  });

  it('replays with the same Idempotency-Key and assigns once', async () => {
    const p = await project();
    const key = `ua-${newId()}`;
    const first = await api(ws.owner, 'POST', url(p.id), { user_id: ws.member.userId }, { 'idempotency-key': key });
    const second = await api(ws.owner, 'POST', url(p.id), { user_id: ws.member.userId }, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
  });
});

describe('rates and budgets on an assignment', () => {
  it('hourly_rate and budget need view_billable_rates to set (403, nothing changed) and to see', async () => {
    const p = await project({ managers: [ws.mgrPlain, ws.mgrRates], members: [ws.member], body: { bill_by: 'people', budget_by: 'person' } });
    const denied = await api(ws.mgrPlain, 'POST', url(p.id), { user_id: ws.contractor.userId, hourly_rate: 90 });
    expect(denied.statusCode).toBe(403);
    expect(await storedAssignment(p.id, ws.contractor.userId)).toBeUndefined();
    for (const body of [{ hourly_rate: 90 }, { budget: 10 }, { hourly_rate: 1, hourly_rate_effective_from: '2024-01-01' }]) {
      expect((await api(ws.mgrPlain, 'PATCH', url(p.id, ws.member.userId), body)).statusCode).toBe(403);
    }
    expect(await storedAssignment(p.id, ws.member.userId)).toMatchObject({ budget: null });

    const set = await api(ws.mgrRates, 'PATCH', url(p.id, ws.member.userId), { hourly_rate: 90, budget: 25.5 });
    expect(set.statusCode, set.body).toBe(200);
    const today = await workspaceTodayOf(ctx, ws.companyId);
    expect(set.json()).toMatchObject({ hourly_rate: 90, hourly_rate_effective_from: today, budget: 25.5 });

    // What each caller sees (absent, not null, when hidden).
    const plain = (await api(ws.mgrPlain, 'GET', url(p.id, ws.member.userId))).json();
    expect(sorted(Object.keys(plain))).toEqual(sorted([...BASE_FIELDS, 'budget']));
    const rates = (await api(ws.mgrRates, 'GET', url(p.id, ws.member.userId))).json();
    expect(sorted(Object.keys(rates))).toEqual(sorted([...BASE_FIELDS, 'hourly_rate', 'hourly_rate_effective_from', 'budget']));
    const list = (await api(ws.mgrPlain, 'GET', url(p.id))).json().user_assignments;
    for (const item of list) {
      expect(item).not.toHaveProperty('hourly_rate');
      expect(item).not.toHaveProperty('hourly_rate_effective_from');
    }
  });

  it('the budget is hidden from a project manager when it is money at cost and they may not see internal costs', async () => {
    const p = await project({ managers: [ws.mgrRates], members: [ws.member], body: { budget_by: 'project_cost', budget: 100 } });
    const item = (await api(ws.mgrRates, 'GET', url(p.id, ws.member.userId))).json();
    expect(item).not.toHaveProperty('budget');
    const res = await api(ws.mgrRates, 'PATCH', url(p.id, ws.member.userId), { budget: 5 });
    expect(res.statusCode).toBe(403);
  });

  it('a rate change never reprices an earlier date', async () => {
    const p = await project({ members: [ws.member], body: { bill_by: 'people' } });
    const today = await workspaceTodayOf(ctx, ws.companyId);
    const first = await api(ws.owner, 'PATCH', url(p.id, ws.member.userId), { hourly_rate: 80, hourly_rate_effective_from: '2024-01-01' });
    expect(first.json()).toMatchObject({ hourly_rate: 80, hourly_rate_effective_from: '2024-01-01' });
    const second = await api(ws.owner, 'PATCH', url(p.id, ws.member.userId), { hourly_rate: 95 });
    expect(second.json()).toMatchObject({ hourly_rate: 95, hourly_rate_effective_from: today });
    expect(await personRate(p.id, ws.member.userId, '2023-12-31')).toBeNull();
    expect(await personRate(p.id, ws.member.userId, '2024-01-01')).toBe('80.00');
    expect(await personRate(p.id, ws.member.userId, addDays(today, -1))).toBe('80.00');
    expect(await personRate(p.id, ws.member.userId, today)).toBe('95.00');
    // The same rate again from today writes nothing new.
    const before = (await api(ws.owner, 'GET', url(p.id, ws.member.userId))).json();
    ctx.clock.advance(1000);
    const same = await api(ws.owner, 'PATCH', url(p.id, ws.member.userId), { hourly_rate: 95 });
    expect(same.json().updated_at).toBe(before.updated_at);
  });

  it('rejects bad amounts and dates with 400 naming the field', async () => {
    const p = await project({ members: [ws.member] });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ hourly_rate: -1 }, 'hourly_rate'],
      [{ hourly_rate: 1.234 }, 'hourly_rate'],
      [{ hourly_rate: null }, 'hourly_rate'],
      [{ budget: 1e13 }, 'budget'],
      [{ hourly_rate_effective_from: '2024-01-01' }, 'hourly_rate_effective_from'],
      [{ hourly_rate: 1, hourly_rate_effective_from: '2024-13-01' }, 'hourly_rate_effective_from'],
      [{ is_active: 'no' }, 'is_active'],
    ];
    for (const [body, field] of cases) {
      const res = await api(ws.owner, 'PATCH', url(p.id, ws.member.userId), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field).toBe(field);
    }
    const history = await withTenant(ctx.db, ws.companyId, (trx) =>
      rateHistory(trx, ws.companyId, { kind: 'billable', projectId: p.id, userId: ws.member.userId }),
    );
    expect(history).toEqual([]);
  });
});

describe('PATCH and DELETE: visibility follows the assignment on the next request', () => {
  it('deactivating hides the project from the person (full-access and personal keys); reactivating shows it again', async () => {
    const p = await project({ managers: [ws.mgrPlain], members: [ws.member] });
    const seen = async (c: Caller) => (await api(c, 'GET', `/api/v2/projects/${p.id}`)).statusCode;
    expect(await seen(ws.member)).toBe(200);
    expect(await seen(ws.memberPersonal)).toBe(200);
    const off = await api(ws.mgrPlain, 'PATCH', url(p.id, ws.member.userId), { is_active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().is_active).toBe(false);
    expect(await seen(ws.member)).toBe(404);
    expect(await seen(ws.memberPersonal)).toBe(404);
    const ids = (await api(ws.memberPersonal, 'GET', '/api/v2/projects')).json().projects.map((x: { id: string }) => x.id);
    expect(ids).not.toContain(p.id);
    // listed with is_active filter
    const inactive = (await api(ws.mgrPlain, 'GET', `${url(p.id)}?is_active=false`)).json().user_assignments;
    expect(inactive.map((a: { user_id: string }) => a.user_id)).toEqual([ws.member.userId]);
    await api(ws.mgrPlain, 'PATCH', url(p.id, ws.member.userId), { is_active: true });
    expect(await seen(ws.member)).toBe(200);
  });

  it('removing hides the project on the next request and keeps the rate history', async () => {
    const p = await project({ members: [ws.member] });
    await api(ws.owner, 'PATCH', url(p.id, ws.member.userId), { hourly_rate: 70, hourly_rate_effective_from: '2024-01-01' });
    const res = await api(ws.owner, 'DELETE', url(p.id, ws.member.userId));
    expect(res.statusCode).toBe(204);
    expect(await storedAssignment(p.id, ws.member.userId)).toBeUndefined();
    expect((await api(ws.member, 'GET', `/api/v2/projects/${p.id}`)).statusCode).toBe(404);
    expect((await api(ws.memberPersonal, 'GET', `/api/v2/projects/${p.id}`)).statusCode).toBe(404);
    expect(await personRate(p.id, ws.member.userId, '2024-06-01')).toBe('70.00');
    expect((await api(ws.owner, 'DELETE', url(p.id, ws.member.userId))).statusCode).toBe(404);
    expect((await api(ws.owner, 'PATCH', url(p.id, ws.member.userId), { is_active: true })).statusCode).toBe(404);
  });

  it('a project manager may step down or remove themselves, and then loses the right', async () => {
    const p = await project({ managers: [ws.mgrPlain] });
    expect((await api(ws.mgrPlain, 'PATCH', url(p.id, ws.mgrPlain.userId), { is_project_manager: false })).statusCode).toBe(200);
    expect((await api(ws.mgrPlain, 'GET', url(p.id))).statusCode).toBe(403);
    expect((await api(ws.mgrPlain, 'GET', `/api/v2/projects/${p.id}`)).statusCode).toBe(200);
  });

  it('is_project_manager cannot be given to a non-manager by PATCH; an empty or read-only body is 400', async () => {
    const p = await project({ members: [ws.member] });
    const bad = await api(ws.owner, 'PATCH', url(p.id, ws.member.userId), { is_project_manager: true });
    expect(bad.statusCode).toBe(400);
    expect((await api(ws.owner, 'PATCH', url(p.id, ws.member.userId), {})).statusCode).toBe(400);
    for (const field of ['user_id', 'project_id', 'user']) {
      const res = await api(ws.owner, 'PATCH', url(p.id, ws.member.userId), { [field]: 'x' });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().field).toBe(field);
    }
    expect(await storedAssignment(p.id, ws.member.userId)).toMatchObject({ is_project_manager: false, is_active: true });
  });

  it('a PATCH that changes nothing writes nothing', async () => {
    const p = await project({ members: [ws.member] });
    const before = (await api(ws.owner, 'GET', url(p.id, ws.member.userId))).json();
    ctx.clock.advance(1000);
    const same = await api(ws.owner, 'PATCH', url(p.id, ws.member.userId), { is_active: true, is_project_manager: false });
    expect(same.json()).toEqual(before);
  });
});

describe('cross-workspace', () => {
  it('a user or project of another workspace is never reached', async () => {
    const p = await project({ members: [ws.member] });
    // Another workspace's owner addressing this project: 404 on every route.
    for (const [method, path, body] of [
      ['GET', url(p.id)],
      ['GET', url(p.id, ws.member.userId)],
      ['POST', url(p.id), { user_id: other.member.userId }],
      ['PATCH', url(p.id, ws.member.userId), { is_active: false }],
      ['DELETE', url(p.id, ws.member.userId)],
    ] as const) {
      const res = await api(other.owner, method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    expect(await storedAssignment(p.id, ws.member.userId)).toMatchObject({ is_active: true });
    // This workspace's owner naming another workspace's user on its own project.
    expect((await api(ws.owner, 'GET', url(p.id, other.member.userId))).statusCode).toBe(404);
    expect((await api(ws.owner, 'PATCH', url(p.id, other.member.userId), { is_active: false })).statusCode).toBe(404);
  });
});
