import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { createTestContext, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { addDays, apiOf, assign, insertTask, makeProjectWorkspace, workspaceTodayOf, type ProjectWorkspace } from './fixtures/projects.ts';

/**
 * The web app's project screens (issue 16 item 4): /web/api/projects (the API's
 * list with a search), /web/api/project_choices (what the forms pick from and what
 * the caller may do) and /web/api/projects/:id/rate_history (every billable rate of
 * a project with its date, only for callers who may see billable rates). Session only.
 */

let ctx: TestContext;
const api = apiOf(() => ctx);
let w: ProjectWorkspace;
let other: ProjectWorkspace;
let today: string;
let projectId: string;
let hiddenId: string;
let foreignId: string;
let designId: string;
const s: Record<'owner' | 'member' | 'mgrEditRates' | 'mgrPlain' | 'otherOwner', Caller> = {} as never;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeProjectWorkspace(ctx.db, 'Acme');
  other = await makeProjectWorkspace(ctx.db, 'Other');
  today = await workspaceTodayOf(ctx, w.companyId);
  for (const who of ['owner', 'member', 'mgrEditRates', 'mgrPlain'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  s.otherOwner = await sessionFor(ctx.db, other.owner, ctx.clock.now());
  designId = await insertTask(ctx.db, w.companyId, { name: 'Design' });

  const created = await api(w.owner, 'POST', '/api/v2/projects', {
    client_id: w.clientId,
    name: 'Website relaunch',
    code: 'WEB-1',
    bill_by: 'project',
    hourly_rate: 100,
    task_ids: [designId],
  });
  expect(created.statusCode, created.body).toBe(201);
  projectId = created.json().id;
  const changed = await api(w.owner, 'PATCH', `/api/v2/projects/${projectId}`, { hourly_rate: 137.5, hourly_rate_effective_from: addDays(today, -10) });
  expect(changed.statusCode, changed.body).toBe(200);
  const task = await api(w.owner, 'PATCH', `/api/v2/projects/${projectId}/task_assignments/${designId}`, { hourly_rate: 90, hourly_rate_effective_from: today });
  expect(task.statusCode, task.body).toBe(200);
  for (const who of [w.member, w.mgrEditRates, w.mgrPlain]) await assign(ctx.db, w.companyId, projectId, who.userId);
  const person = await api(w.owner, 'PATCH', `/api/v2/projects/${projectId}/user_assignments/${w.member.userId}`, { hourly_rate: 120 });
  expect(person.statusCode, person.body).toBe(200);

  hiddenId = (await api(w.owner, 'POST', '/api/v2/projects', { client_id: w.clientId, name: 'Internal tooling', code: 'OPS' })).json().id;
  foreignId = (await api(other.owner, 'POST', '/api/v2/projects', { client_id: other.clientId, name: 'Website elsewhere', hourly_rate: 55 })).json().id;
});
afterAll(() => ctx.close());

describe('GET /web/api/projects/:id/rate_history', () => {
  it("gives an administrator every billable rate of the project, its tasks and its people, with the date each took effect", async () => {
    const res = await api(s.owner, 'GET', `/web/api/projects/${projectId}/rate_history`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      currency: expect.any(String),
      project: [
        { effective_from: null, hourly_rate: 100 },
        { effective_from: addDays(today, -10), hourly_rate: 137.5 },
      ],
      tasks: [{ task_id: designId, name: 'Design', rates: [{ effective_from: today, hourly_rate: 90 }] }],
      people: [{ user_id: w.member.userId, name: 'Mia Member', rates: [{ effective_from: today, hourly_rate: 120 }] }],
    });
  });

  it('gives a manager with the billable-rate permission the same, on a project they see', async () => {
    const res = await api(s.mgrEditRates, 'GET', `/web/api/projects/${projectId}/rate_history`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().project).toHaveLength(2);
  });

  it('refuses members and managers without the billable-rate permission, with no rate in the answer', async () => {
    for (const who of [s.member, s.mgrPlain]) {
      const res = await api(who, 'GET', `/web/api/projects/${projectId}/rate_history`);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.body).not.toMatch(/137|100|120|\b90\b/);
    }
  });

  it("is 404 for another workspace's project, an unassigned one, an unknown id and a malformed id", async () => {
    expect((await api(s.owner, 'GET', `/web/api/projects/${foreignId}/rate_history`)).statusCode).toBe(404);
    expect((await api(s.otherOwner, 'GET', `/web/api/projects/${projectId}/rate_history`)).statusCode).toBe(404);
    expect((await api(s.mgrEditRates, 'GET', `/web/api/projects/${hiddenId}/rate_history`)).statusCode).toBe(404);
    expect((await api(s.member, 'GET', `/web/api/projects/${hiddenId}/rate_history`)).statusCode).toBe(404);
    expect((await api(s.owner, 'GET', '/web/api/projects/0190a1b2-0000-7000-8000-000000000000/rate_history')).statusCode).toBe(404);
    expect((await api(s.owner, 'GET', '/web/api/projects/nope/rate_history')).statusCode).toBe(404);
  });

  it('is web-only: an API key is refused', async () => {
    expect((await api(w.owner, 'GET', `/web/api/projects/${projectId}/rate_history`)).statusCode).toBe(403);
  });
});

describe('GET /web/api/projects', () => {
  it('searches name and code, ignoring case, within what the caller sees', async () => {
    const names = async (who: Caller, query: string) =>
      (await api(who, 'GET', `/web/api/projects?${query}`)).json().projects.map((p: { name: string }) => p.name);
    expect(await names(s.owner, 'search=website')).toEqual(['Website relaunch']);
    expect(await names(s.owner, 'search=ops')).toEqual(['Internal tooling']);
    expect(await names(s.owner, 'search=%25')).toEqual([]);
    expect(await names(s.member, 'search=WEB')).toEqual(['Website relaunch']);
    expect(await names(s.otherOwner, 'search=website')).toEqual(['Website elsewhere']);
  });

  it('filters and pages like the API list, with rates only for those who may see them', async () => {
    const owner = (await api(s.owner, 'GET', `/web/api/projects?client_id=${w.clientId}&is_active=true&per_page=1&page=2`)).json();
    expect(owner).toMatchObject({ page: 2, per_page: 1, total_entries: 2, total_pages: 2 });
    expect(owner.projects.map((p: { name: string }) => p.name)).toEqual(['Website relaunch']);
    expect(owner.projects[0].hourly_rate).toBe(137.5);
    const member = await api(s.member, 'GET', '/web/api/projects');
    expect(member.statusCode).toBe(200);
    expect(member.json().projects[0]).not.toHaveProperty('hourly_rate');
    expect(member.body).not.toContain('137.5');
  });

  it('pages 2,000 projects on the server: one page and the total, never the whole list', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      company_id: other.companyId,
      id: newId(),
      client_id: other.clientId,
      name: `Bulk ${String(i).padStart(4, '0')}`,
      code: `B${i}`,
    }));
    await ctx.db.insertInto('projects').values(rows).execute();
    const page = await api(s.otherOwner, 'GET', '/web/api/projects?per_page=50&page=3');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ page: 3, per_page: 50, total_entries: 2001, total_pages: 41 });
    expect(page.json().projects).toHaveLength(50);
    const found = (await api(s.otherOwner, 'GET', '/web/api/projects?search=b1999')).json();
    expect(found.projects.map((p: { name: string }) => p.name)).toEqual(['Bulk 1999']);
  });

  it('rejects unknown query parameters', async () => {
    expect((await api(s.owner, 'GET', '/web/api/projects?name=x')).statusCode).toBe(400);
  });
});

describe('GET /web/api/project_choices', () => {
  it("lists the workspace's clients, people and tasks, and what an administrator may do", async () => {
    const res = await api(s.owner, 'GET', `/web/api/project_choices?project_id=${projectId}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.today).toBe(today);
    expect(body.clients.map((c: { id: string }) => c.id)).toContain(w.clientId);
    expect(body.people.find((p: { id: string }) => p.id === w.mgrPlain.userId)).toMatchObject({ may_manage: true });
    expect(body.people.find((p: { id: string }) => p.id === w.member.userId)).toMatchObject({ may_manage: false });
    expect(body.tasks.map((t: { name: string }) => t.name)).toContain('Design');
    expect(body.may).toEqual({ create: true, see_rates: true, set_commercial: true, see_internal_costs: true, update: true, delete: true, edit_tasks: true });
  });

  it('tells a member they may change nothing, and a manager what their flags allow', async () => {
    const member = (await api(s.member, 'GET', `/web/api/project_choices?project_id=${projectId}`)).json();
    expect(member.may).toEqual({ create: false, see_rates: false, set_commercial: false, see_internal_costs: false, update: false, delete: false, edit_tasks: false });
    const manager = (await api(s.mgrEditRates, 'GET', `/web/api/project_choices?project_id=${projectId}`)).json();
    expect(manager.may).toMatchObject({ create: true, see_rates: true, update: false, delete: false });
  });

  it("gives the workspace's currency, which a new project's form prices in until a client is picked (issue 21)", async () => {
    const currency = async (caller: Caller) => (await api(caller, 'GET', '/web/api/project_choices')).json().currency;
    const before = await currency(s.owner);
    const eur = before === 'EUR' ? 'CHF' : 'EUR';
    expect((await api(s.owner, 'PATCH', '/web/api/workspace', { currency: eur })).statusCode).toBe(200);
    try {
      expect(await currency(s.owner)).toBe(eur);
      expect(await currency(s.member)).toBe(eur);
      expect(await currency(s.otherOwner)).not.toBe(eur); // each workspace its own
    } finally {
      await api(s.owner, 'PATCH', '/web/api/workspace', { currency: before });
    }
  });

  it("is 404 for a project the caller does not see or of another workspace", async () => {
    expect((await api(s.member, 'GET', `/web/api/project_choices?project_id=${hiddenId}`)).statusCode).toBe(404);
    expect((await api(s.owner, 'GET', `/web/api/project_choices?project_id=${foreignId}`)).statusCode).toBe(404);
  });
});
