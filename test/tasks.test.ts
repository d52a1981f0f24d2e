import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createTestContext,
  createWorkspaceWithOwner,
  request,
  type Caller,
  type TestContext,
} from './helpers.ts';
import { assignTaskRow, assignUser, insertClient, insertProject, insertTask } from './fixtures/catalog-rows.ts';

/**
 * GET/POST/PATCH /api/v2/tasks for every identity of the permissions table, and
 * the budget rule: `budget` only with `project_id`, an active assignment, and a
 * caller who may view that project's budget (then 0 or null are shown as such).
 */

let ctx: TestContext;
let companyId: string;
let owner: Caller;
let admin: Caller;
let mgrPlain: Caller; // manager, no flags; manages P_hours
let mgrEdit: Caller; // edit_clients_and_tasks; manages P_hours and P_fees
let mgrEditRates: Caller; // edit_clients_and_tasks + view_billable_rates; merely assigned to P_hours, manages P_fees
let mgrRates: Caller; // view_billable_rates only
let member: Caller;
let contractor: Caller;
let personal: Caller;
let otherOwner: Caller;

let pHours: string; // budget_by task (hours), budgets hidden from non-managers
let pFees: string; // budget_by task_fees (money)
let pAll: string; // show_budget_to_all
let pHidden: string; // nobody assigned
let pForeign: string; // other workspace

let tDesign: string; // active assignment on P_hours, budget 10, default rate 100
let tDev: string; // active assignment, budget 0
let tMeet: string; // active assignment, budget null
let tOld: string; // inactive assignment, budget 5
let tLoose: string; // not assigned anywhere
let tForeign: string; // other workspace

const get = (caller: Caller | null, url: string) => request(ctx.app, caller, { method: 'GET', url });
const post = (caller: Caller, payload: unknown) => request(ctx.app, caller, { method: 'POST', url: '/api/v2/tasks', payload: payload as object });
const patch = (caller: Caller, id: string, payload: unknown, headers: Record<string, string> = {}) =>
  request(ctx.app, caller, { method: 'PATCH', url: `/api/v2/tasks/${id}`, payload: payload as object, headers });

const byId = (tasks: Array<{ id: string }>) => Object.fromEntries(tasks.map((t) => [t.id, t])) as Record<string, any>;
const taskCount = async () => Number((await ctx.db.selectFrom('tasks').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', companyId).executeTakeFirstOrThrow()).n);

beforeAll(async () => {
  ctx = await createTestContext();
  const ws = await createWorkspaceWithOwner(ctx.db);
  companyId = ws.company.id;
  owner = ws.owner;
  admin = await addMember(ctx.db, companyId, { role: 'administrator' });
  mgrPlain = await addMember(ctx.db, companyId, { role: 'manager' });
  mgrEdit = await addMember(ctx.db, companyId, { role: 'manager', permissions: ['edit_clients_and_tasks'] });
  mgrEditRates = await addMember(ctx.db, companyId, { role: 'manager', permissions: ['edit_clients_and_tasks', 'view_billable_rates'] });
  mgrRates = await addMember(ctx.db, companyId, { role: 'manager', permissions: ['view_billable_rates'] });
  member = await addMember(ctx.db, companyId, { role: 'member' });
  contractor = await addMember(ctx.db, companyId, { role: 'member', isContractor: true });
  personal = await addMember(ctx.db, companyId, { role: 'member', keyKind: 'personal' });

  const client = await insertClient(ctx.db, companyId);
  pHours = await insertProject(ctx.db, companyId, client, { budgetBy: 'task' });
  pFees = await insertProject(ctx.db, companyId, client, { budgetBy: 'task_fees' });
  pAll = await insertProject(ctx.db, companyId, client, { budgetBy: 'task', showBudgetToAll: true });
  pHidden = await insertProject(ctx.db, companyId, client);
  for (const c of [member, contractor, personal]) await assignUser(ctx.db, companyId, pHours, c.userId);
  await assignUser(ctx.db, companyId, pHours, mgrPlain.userId, { manager: true });
  await assignUser(ctx.db, companyId, pHours, mgrEdit.userId, { manager: true });
  await assignUser(ctx.db, companyId, pHours, mgrEditRates.userId);
  await assignUser(ctx.db, companyId, pFees, mgrEdit.userId, { manager: true });
  await assignUser(ctx.db, companyId, pFees, mgrEditRates.userId, { manager: true });
  await assignUser(ctx.db, companyId, pAll, member.userId);

  tDesign = await insertTask(ctx.db, companyId, { name: 'Design', rate: '100.50' });
  tDev = await insertTask(ctx.db, companyId, { name: 'Development' });
  tMeet = await insertTask(ctx.db, companyId, { name: 'Meetings' });
  tOld = await insertTask(ctx.db, companyId, { name: 'Old work' });
  tLoose = await insertTask(ctx.db, companyId, { name: 'Unassigned', isActive: false });
  await assignTaskRow(ctx.db, companyId, pHours, tDesign, { budget: '10' });
  await assignTaskRow(ctx.db, companyId, pHours, tDev, { budget: '0' });
  await assignTaskRow(ctx.db, companyId, pHours, tMeet, { budget: null });
  await assignTaskRow(ctx.db, companyId, pHours, tOld, { budget: '5', active: false });
  for (const p of [pFees, pAll]) await assignTaskRow(ctx.db, companyId, p, tDesign, { budget: '7.5' });

  const other = await createWorkspaceWithOwner(ctx.db, 'Other');
  otherOwner = other.owner;
  const otherClient = await insertClient(ctx.db, other.company.id);
  pForeign = await insertProject(ctx.db, other.company.id, otherClient);
  tForeign = await insertTask(ctx.db, other.company.id, { name: 'Design' });
  await assignTaskRow(ctx.db, other.company.id, pForeign, tForeign, { budget: '1' });
});
afterAll(() => ctx?.close());

describe('GET /api/v2/tasks', () => {
  it('lists every task of the workspace without budgets, by name, with the envelope', async () => {
    const res = await get(owner, '/api/v2/tasks');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.tasks.map((t: any) => t.name)).toEqual(['Design', 'Development', 'Meetings', 'Old work', 'Unassigned']);
    for (const t of body.tasks) expect(t).not.toHaveProperty('budget');
    expect(body).toMatchObject({ page: 1, per_page: 100, total_pages: 1, total_entries: 5 });
    expect(Object.keys(body.tasks[0]).sort()).toEqual(
      ['billable_by_default', 'created_at', 'default_hourly_rate', 'id', 'is_active', 'is_default', 'name', 'updated_at'].sort(),
    );
    expect(body.tasks[0].default_hourly_rate).toBe(100.5);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(String(res.headers['x-service-features'])).toContain('project-task-budgets');
  });

  it('pages and filters by is_active and updated_since', async () => {
    const page = (await get(owner, '/api/v2/tasks?per_page=2&page=2')).json();
    expect(page.tasks.map((t: any) => t.name)).toEqual(['Meetings', 'Old work']);
    expect(page).toMatchObject({ total_pages: 3, total_entries: 5 });
    expect(page.links.next).toBe('/api/v2/tasks?per_page=2&page=3');
    const inactive = (await get(owner, '/api/v2/tasks?is_active=false')).json();
    expect(inactive.tasks.map((t: any) => t.name)).toEqual(['Unassigned']);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await get(owner, `/api/v2/tasks?updated_since=${encodeURIComponent(future)}`)).json().total_entries).toBe(0);
  });

  it('refuses bad filters with 400', async () => {
    for (const q of ['is_active=yes', 'updated_since=yesterday', 'per_page=0', 'per_page=2001', 'page=0', 'colour=red']) {
      const res = await get(owner, `/api/v2/tasks?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error).toMatch(/invalid_request|unknown_field/);
    }
    // a blank project_id is refused, not ignored (the spec: blank filters are 400), on the list and the item
    const blank = await get(owner, '/api/v2/tasks?project_id=');
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ error: 'invalid_request', field: 'project_id' });
    expect((await get(owner, `/api/v2/tasks/${tDesign}?project_id=`)).statusCode).toBe(400);
  });

  it('shows default_hourly_rate only to callers who may see billable rates', async () => {
    const sees = [owner, admin, mgrEditRates, mgrRates];
    const blind = [mgrPlain, mgrEdit, member, contractor];
    for (const c of sees) {
      const t = byId((await get(c, '/api/v2/tasks')).json().tasks)[tDesign];
      expect(t.default_hourly_rate).toBe(100.5);
    }
    for (const c of blind) {
      const res = await get(c, '/api/v2/tasks');
      expect(res.statusCode).toBe(200);
      expect(byId(res.json().tasks)[tDesign]).not.toHaveProperty('default_hourly_rate');
      expect(byId(res.json().tasks)[tDesign].name).toBe('Design');
    }
  });

  it('is refused to a personal sync key', async () => {
    expect((await get(personal, '/api/v2/tasks')).statusCode).toBe(403);
    expect((await get(personal, `/api/v2/tasks/${tDesign}`)).statusCode).toBe(403);
    expect((await get(personal, `/api/v2/tasks?project_id=${pHours}`)).statusCode).toBe(403);
    expect((await post(personal, { name: 'Nope' })).statusCode).toBe(403);
  });

  it('needs a credential', async () => {
    expect((await get(null, '/api/v2/tasks')).statusCode).toBe(401);
  });
});

describe('GET /api/v2/tasks?project_id', () => {
  it('lists only actively assigned tasks, with budgets 10, 0 and null for callers who may see them', async () => {
    for (const c of [owner, admin, mgrPlain, mgrEdit]) {
      const res = await get(c, `/api/v2/tasks?project_id=${pHours}`);
      expect(res.statusCode).toBe(200);
      const tasks = res.json().tasks;
      expect(tasks.map((t: any) => t.name)).toEqual(['Design', 'Development', 'Meetings']);
      expect(tasks.map((t: any) => t.budget)).toEqual([10, 0, null]);
      for (const t of tasks) expect(t).toHaveProperty('budget');
    }
  });

  it('omits budget for callers who may not see the project budget (merely assigned manager, member, contractor)', async () => {
    for (const c of [mgrEditRates, member, contractor]) {
      const res = await get(c, `/api/v2/tasks?project_id=${pHours}`);
      expect(res.statusCode).toBe(200);
      const tasks = res.json().tasks;
      expect(tasks.map((t: any) => t.name)).toEqual(['Design', 'Development', 'Meetings']);
      for (const t of tasks) expect(t).not.toHaveProperty('budget');
    }
  });

  it('shows budgets to every assigned member when the project shows its budget to all', async () => {
    const tasks = (await get(member, `/api/v2/tasks?project_id=${pAll}`)).json().tasks;
    expect(tasks).toHaveLength(1);
    expect(tasks[0].budget).toBe(7.5);
  });

  it('money budgets (task_fees) need the billable-rate permission as well as managing the project', async () => {
    expect((await get(mgrEditRates, `/api/v2/tasks?project_id=${pFees}`)).json().tasks[0].budget).toBe(7.5);
    expect((await get(owner, `/api/v2/tasks?project_id=${pFees}`)).json().tasks[0].budget).toBe(7.5);
    const blind = (await get(mgrEdit, `/api/v2/tasks?project_id=${pFees}`)).json().tasks[0];
    expect(blind).not.toHaveProperty('budget');
    expect(blind.name).toBe('Design');
  });

  it('is 404 for a project the caller cannot see, of another workspace, or malformed', async () => {
    for (const c of [member, contractor, mgrPlain, mgrEdit, mgrRates]) {
      expect((await get(c, `/api/v2/tasks?project_id=${pHidden}`)).statusCode).toBe(404);
    }
    expect((await get(member, `/api/v2/tasks?project_id=${pFees}`)).statusCode).toBe(404);
    const ok = await get(owner, `/api/v2/tasks?project_id=${pHidden}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().tasks).toEqual([]);
    expect((await get(owner, `/api/v2/tasks?project_id=${pForeign}`)).statusCode).toBe(404);
    expect((await get(otherOwner, `/api/v2/tasks?project_id=${pHours}`)).statusCode).toBe(404);
    expect((await get(owner, '/api/v2/tasks?project_id=not-an-id')).statusCode).toBe(404);
  });

  it('an inactive assignment is not listed; a deactivated caller assignment hides the project', async () => {
    const names = (await get(owner, `/api/v2/tasks?project_id=${pHours}&is_active=true`)).json().tasks.map((t: any) => t.name);
    expect(names).not.toContain('Old work');
    const client = await insertClient(ctx.db, companyId);
    const p = await insertProject(ctx.db, companyId, client);
    await assignUser(ctx.db, companyId, p, member.userId, { active: false });
    expect((await get(member, `/api/v2/tasks?project_id=${p}`)).statusCode).toBe(404);
  });

  it('updated_since counts assignment changes', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    await ctx.db
      .updateTable('project_task_assignments')
      .set({ updated_at: new Date(Date.now() + 60_000) })
      .where('company_id', '=', companyId)
      .where('project_id', '=', pAll)
      .execute();
    const soon = new Date(Date.now() + 30_000).toISOString();
    expect((await get(owner, `/api/v2/tasks?project_id=${pAll}&updated_since=${encodeURIComponent(soon)}`)).json().total_entries).toBe(1);
    expect((await get(owner, `/api/v2/tasks?updated_since=${encodeURIComponent(soon)}`)).json().total_entries).toBe(0);
    expect((await get(owner, `/api/v2/tasks?project_id=${pAll}&updated_since=${encodeURIComponent(before)}`)).json().total_entries).toBe(1);
  });
});

describe('GET /api/v2/tasks/:id', () => {
  it('returns the task with an ETag, without budget', async () => {
    const res = await get(owner, `/api/v2/tasks/${tDesign}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^"/);
    expect(res.json()).toMatchObject({ id: tDesign, name: 'Design', default_hourly_rate: 100.5 });
    expect(res.json()).not.toHaveProperty('budget');
    const memberView = await get(member, `/api/v2/tasks/${tDesign}`);
    expect(memberView.json()).not.toHaveProperty('default_hourly_rate');
    expect(memberView.headers.etag).not.toBe(res.headers.etag);
  });

  it('with project_id: budget for an active assignment only, and only where visible', async () => {
    expect((await get(owner, `/api/v2/tasks/${tDesign}?project_id=${pHours}`)).json().budget).toBe(10);
    expect((await get(owner, `/api/v2/tasks/${tDev}?project_id=${pHours}`)).json().budget).toBe(0);
    const nullBudget = (await get(owner, `/api/v2/tasks/${tMeet}?project_id=${pHours}`)).json();
    expect(nullBudget).toHaveProperty('budget');
    expect(nullBudget.budget).toBeNull();
    const inactive = await get(owner, `/api/v2/tasks/${tOld}?project_id=${pHours}`);
    expect(inactive.statusCode).toBe(200);
    expect(inactive.json()).not.toHaveProperty('budget');
    const missing = await get(owner, `/api/v2/tasks/${tLoose}?project_id=${pHours}`);
    expect(missing.statusCode).toBe(200);
    expect(missing.json()).not.toHaveProperty('budget');
    expect((await get(member, `/api/v2/tasks/${tDesign}?project_id=${pHours}`)).json()).not.toHaveProperty('budget');
    expect((await get(member, `/api/v2/tasks/${tDesign}?project_id=${pHidden}`)).statusCode).toBe(404);
  });

  it('is 404 for another workspace or an unknown id', async () => {
    expect((await get(owner, `/api/v2/tasks/${tForeign}`)).statusCode).toBe(404);
    expect((await get(otherOwner, `/api/v2/tasks/${tDesign}`)).statusCode).toBe(404);
    expect((await get(owner, '/api/v2/tasks/nope')).statusCode).toBe(404);
    expect((await get(owner, `/api/v2/tasks/${tDesign}?project_id=${pForeign}`)).statusCode).toBe(404);
  });
});

describe('POST /api/v2/tasks', () => {
  it('creates a task for owners and administrators: 201, Location, ETag, defaults', async () => {
    const res = await post(owner, { name: '  Research  ', default_hourly_rate: 80, is_default: true });
    expect(res.statusCode).toBe(201);
    const t = res.json();
    expect(res.headers.location).toBe(`/api/v2/tasks/${t.id}`);
    expect(res.headers.etag).toMatch(/^"/);
    expect(t).toMatchObject({ name: 'Research', billable_by_default: true, default_hourly_rate: 80, is_default: true, is_active: true });
    expect(t).not.toHaveProperty('budget');
    const read = await get(owner, `/api/v2/tasks/${t.id}`);
    expect(read.json()).toEqual(t);
    expect(read.headers.etag).toBe(res.headers.etag);
    expect((await post(admin, { name: 'Admin task', billable_by_default: false })).statusCode).toBe(201);
  });

  it('takes an Idempotency-Key: the same key and body, even at once, make one task and the same answer', async () => {
    const headers = { 'idempotency-key': 'task-create-idempotency-0001' };
    const send = () => request(ctx.app, owner, { method: 'POST', url: '/api/v2/tasks', payload: { name: 'Workshop' }, headers });
    const [a, b] = await Promise.all([send(), send()]);
    const answers = [a, b].map((r) => r.statusCode).sort();
    // One did the work; the other replayed it, or found the key still held (409, retry later).
    expect(answers[0]).toBe(201);
    const again = await send();
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(a.statusCode === 201 ? a.json().id : b.json().id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const rows = await ctx.db.selectFrom('tasks').select('id').where('company_id', '=', companyId).where('name', '=', 'Workshop').execute();
    expect(rows).toHaveLength(1);
  });

  it('lets a manager with Edit clients and tasks create, but setting a rate also needs view_billable_rates', async () => {
    const ok = await post(mgrEdit, { name: 'Manager task' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).not.toHaveProperty('default_hourly_rate');
    const before = await taskCount();
    const refused = await post(mgrEdit, { name: 'Rated by manager', default_hourly_rate: 50 });
    expect(refused.statusCode).toBe(403);
    expect(await taskCount()).toBe(before);
    const rated = await post(mgrEditRates, { name: 'Rated by manager', default_hourly_rate: 50 });
    expect(rated.statusCode).toBe(201);
    expect(rated.json().default_hourly_rate).toBe(50);
  });

  it('refuses managers without the flag, members and contractors (403), creating nothing', async () => {
    const before = await taskCount();
    for (const c of [mgrPlain, mgrRates, member, contractor]) {
      const res = await post(c, { name: `Refused ${c.userId}` });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    expect(await taskCount()).toBe(before);
  });

  it('names are unique per workspace ignoring case (409); other workspaces may reuse them', async () => {
    const res = await post(owner, { name: 'design' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'conflict', field: 'name' });
    expect((await post(otherOwner, { name: 'Development' })).statusCode).toBe(201);
  });

  it('rejects bad input with 400 and creates nothing', async () => {
    const before = await taskCount();
    const bad = [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(256) },
      { name: 'A', default_hourly_rate: -1 },
      { name: 'A', default_hourly_rate: 1.234 },
      { name: 'A', default_hourly_rate: '5' },
      { name: 'A', default_hourly_rate: 1e11 },
      { name: 'A', is_default: 'yes' },
      { name: 'A', colour: 'red' },
      { name: 'A', id: tDesign },
      { name: 'A', budget: 3 },
    ];
    for (const body of bad) {
      const res = await post(owner, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toHaveProperty('error_description');
    }
    expect(await taskCount()).toBe(before);
  });
});

describe('PATCH /api/v2/tasks/:id', () => {
  it('updates, archives and restores; an unchanged PATCH keeps updated_at and the ETag', async () => {
    const id = (await post(owner, { name: 'Patch me' })).json().id;
    const renamed = await patch(owner, id, { name: 'Patched', billable_by_default: false });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Patched', billable_by_default: false });
    const same = await patch(owner, id, { name: 'Patched' });
    expect(same.json().updated_at).toBe(renamed.json().updated_at);
    expect(same.headers.etag).toBe(renamed.headers.etag);
    expect((await patch(admin, id, { is_active: false })).json().is_active).toBe(false);
    expect((await patch(mgrEdit, id, { is_active: true })).json().is_active).toBe(true);
    expect((await patch(owner, id, { default_hourly_rate: null })).json().default_hourly_rate).toBeNull();
  });

  it('checks If-Match when given (412 when stale)', async () => {
    const created = await post(owner, { name: 'Etagged' });
    const id = created.json().id;
    const stale = await patch(owner, id, { name: 'Etagged 2' }, { 'if-match': '"stale"' });
    expect(stale.statusCode).toBe(412);
    expect((await get(owner, `/api/v2/tasks/${id}`)).json().name).toBe('Etagged');
    const fresh = await patch(owner, id, { name: 'Etagged 2' }, { 'if-match': created.headers.etag as string });
    expect(fresh.statusCode).toBe(200);
  });

  it('enforces permissions: rate needs view_billable_rates, others are 403, nothing changes', async () => {
    const id = (await post(owner, { name: 'Guarded', default_hourly_rate: 10 })).json().id;
    expect((await patch(mgrEdit, id, { default_hourly_rate: 20 })).statusCode).toBe(403);
    for (const c of [mgrPlain, mgrRates, member, contractor, personal]) {
      expect((await patch(c, id, { name: 'Hijacked' })).statusCode).toBe(403);
    }
    expect((await get(owner, `/api/v2/tasks/${id}`)).json()).toMatchObject({ name: 'Guarded', default_hourly_rate: 10 });
    expect((await patch(mgrEditRates, id, { default_hourly_rate: 20 })).json().default_hourly_rate).toBe(20);
  });

  it('rename to an existing name (any case) is 409 and nothing changes', async () => {
    const id = (await post(owner, { name: 'Unique one' })).json().id;
    const res = await patch(owner, id, { name: 'DEVELOPMENT' });
    expect(res.statusCode).toBe(409);
    expect((await get(owner, `/api/v2/tasks/${id}`)).json().name).toBe('Unique one');
  });

  it('rejects bad input with 400 and changes nothing', async () => {
    const before = (await get(owner, `/api/v2/tasks/${tDesign}`)).json();
    for (const body of [{}, { name: '' }, { default_hourly_rate: -5 }, { default_hourly_rate: 0.001 }, { updated_at: 'x' }, { budget: 1 }, { nope: 1 }]) {
      const res = await patch(owner, tDesign, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await get(owner, `/api/v2/tasks/${tDesign}`)).json()).toEqual(before);
  });

  it('is 404 across workspaces and for unknown ids', async () => {
    expect((await patch(owner, tForeign, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await patch(otherOwner, tDesign, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await patch(owner, 'not-an-id', { name: 'X' })).statusCode).toBe(404);
    expect((await get(otherOwner, `/api/v2/tasks/${tForeign}`)).json().name).toBe('Design');
  });
});
