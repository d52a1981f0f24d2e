import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../src/db/tenant.ts';
import { rateOn } from '../src/modules/catalog/rates/service.ts';
import {
  addMember,
  createTestContext,
  createWorkspaceWithOwner,
  request,
  TestClock,
  type Caller,
  type TestContext,
} from './helpers.ts';
import { assignTaskRow, assignUser, insertClient, insertProject, insertTask } from './fixtures/catalog-rows.ts';

/**
 * /api/v2/projects/:project_id/task_assignments: reading needs the project
 * visible; writing needs Edit clients and tasks and the project visible; budgets
 * by maySeeBudget, rates by the billable-rate permission. The hourly rate is an
 * effective-dated rate of scope project + task: setting it never changes the
 * rate of an earlier date.
 */

// 2025-03-10 20:00 UTC is already 2025-03-11 in Auckland: "today" follows the workspace zone.
const clock = new TestClock(new Date('2025-03-10T20:00:00Z'));
const TODAY = '2025-03-11';

let ctx: TestContext;
let companyId: string;
let owner: Caller;
let admin: Caller;
let mgrPlain: Caller; // no flags; manages P
let mgrEdit: Caller; // edit_clients_and_tasks; manages P
let mgrEditRates: Caller; // edit_clients_and_tasks + view_billable_rates; merely assigned to P
let member: Caller;
let contractor: Caller;
let personal: Caller;
let otherOwner: Caller;
let p: string;
let pHidden: string;
let pForeign: string;
let tDesign: string; // assigned to P, budget 10
let tDev: string; // default rate 90, not assigned
let tQa: string; // not assigned, no default rate
let tArchived: string;
let tForeign: string;

const url = (project: string, task?: string) => `/api/v2/projects/${project}/task_assignments${task ? `/${task}` : ''}`;
const get = (c: Caller, u: string) => request(ctx.app, c, { method: 'GET', url: u });
const post = (c: Caller, project: string, payload: unknown) => request(ctx.app, c, { method: 'POST', url: url(project), payload: payload as object });
const patch = (c: Caller, project: string, task: string, payload: unknown) =>
  request(ctx.app, c, { method: 'PATCH', url: url(project, task), payload: payload as object });
const rateAt = (project: string, task: string, date: string) =>
  withTenant(ctx.db, companyId, (trx) => rateOn(trx, companyId, { kind: 'billable', projectId: project, taskId: task }, date));
const assignmentRow = (project: string, task: string) =>
  ctx.db
    .selectFrom('project_task_assignments')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('project_id', '=', project)
    .where('task_id', '=', task)
    .executeTakeFirst();
const rateCount = async () =>
  Number((await ctx.db.selectFrom('rates').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', companyId).executeTakeFirstOrThrow()).n);

beforeAll(async () => {
  ctx = await createTestContext({ config: { clock: clock.now } });
  const ws = await createWorkspaceWithOwner(ctx.db);
  companyId = ws.company.id;
  await ctx.db.updateTable('companies').set({ timezone: 'Pacific/Auckland' }).where('id', '=', companyId).execute();
  owner = ws.owner;
  admin = await addMember(ctx.db, companyId, { role: 'administrator' });
  mgrPlain = await addMember(ctx.db, companyId, { role: 'manager' });
  mgrEdit = await addMember(ctx.db, companyId, { role: 'manager', permissions: ['edit_clients_and_tasks'] });
  mgrEditRates = await addMember(ctx.db, companyId, { role: 'manager', permissions: ['edit_clients_and_tasks', 'view_billable_rates'] });
  member = await addMember(ctx.db, companyId, { role: 'member' });
  contractor = await addMember(ctx.db, companyId, { role: 'member', isContractor: true });
  personal = await addMember(ctx.db, companyId, { role: 'member', keyKind: 'personal' });
  const client = await insertClient(ctx.db, companyId);
  p = await insertProject(ctx.db, companyId, client, { budgetBy: 'task' });
  pHidden = await insertProject(ctx.db, companyId, client);
  await assignUser(ctx.db, companyId, p, mgrPlain.userId, { manager: true });
  await assignUser(ctx.db, companyId, p, mgrEdit.userId, { manager: true });
  await assignUser(ctx.db, companyId, p, mgrEditRates.userId);
  for (const c of [member, contractor, personal]) await assignUser(ctx.db, companyId, p, c.userId);
  tDesign = await insertTask(ctx.db, companyId, { name: 'Design' });
  tDev = await insertTask(ctx.db, companyId, { name: 'Development', rate: '90', billableByDefault: false });
  tQa = await insertTask(ctx.db, companyId, { name: 'QA' });
  tArchived = await insertTask(ctx.db, companyId, { name: 'Archived', isActive: false });
  await assignTaskRow(ctx.db, companyId, p, tDesign, { budget: '10' });

  const other = await createWorkspaceWithOwner(ctx.db, 'Other');
  otherOwner = other.owner;
  pForeign = await insertProject(ctx.db, other.company.id, await insertClient(ctx.db, other.company.id));
  tForeign = await insertTask(ctx.db, other.company.id, { name: 'Foreign' });
});
afterAll(() => ctx?.close());

describe('reading task assignments', () => {
  it('owners see budget and rate; members, contractors and a merely assigned manager see neither budget nor (without the flag) rate', async () => {
    const full = await get(owner, url(p));
    expect(full.statusCode).toBe(200);
    const [a] = full.json().task_assignments;
    expect(a).toMatchObject({ project_id: p, task_id: tDesign, task: { id: tDesign, name: 'Design' }, is_active: true, billable: true, budget: 10 });
    expect(a).toHaveProperty('hourly_rate', null);
    expect(full.json()).toMatchObject({ total_entries: 1, page: 1 });
    for (const c of [member, contractor]) {
      const [m] = (await get(c, url(p))).json().task_assignments;
      expect(m).not.toHaveProperty('budget');
      expect(m).not.toHaveProperty('hourly_rate');
      expect(m.task.name).toBe('Design');
    }
    const [assigned] = (await get(mgrEditRates, url(p))).json().task_assignments;
    expect(assigned).not.toHaveProperty('budget');
    expect(assigned).toHaveProperty('hourly_rate');
    const [managing] = (await get(mgrPlain, url(p))).json().task_assignments;
    expect(managing.budget).toBe(10);
    expect(managing).not.toHaveProperty('hourly_rate');
    expect((await get(member, url(p, tDesign))).json()).not.toHaveProperty('budget');
    expect((await get(admin, url(p, tDesign))).json().budget).toBe(10);
  });

  it('is 404 for an invisible, foreign or unknown project or task, 403 for a personal key', async () => {
    for (const c of [member, contractor, mgrEdit]) expect((await get(c, url(pHidden))).statusCode).toBe(404);
    expect((await get(owner, url(pHidden))).statusCode).toBe(200);
    expect((await get(owner, url(pForeign))).statusCode).toBe(404);
    expect((await get(otherOwner, url(p))).statusCode).toBe(404);
    expect((await get(owner, url('nope'))).statusCode).toBe(404);
    expect((await get(owner, url(p, tQa))).statusCode).toBe(404);
    expect((await get(owner, url(p, tForeign))).statusCode).toBe(404);
    expect((await get(personal, url(p))).statusCode).toBe(403);
    expect((await get(personal, url(p, tDesign))).statusCode).toBe(403);
  });
});

describe('POST task assignments', () => {
  it('assigns with budget 0 and a rate for all its work (given at creation: from the start); 201 with Location', async () => {
    const res = await post(owner, p, { task_id: tQa, budget: 0, hourly_rate: 120 });
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toBe(url(p, tQa));
    expect(res.json()).toMatchObject({ task_id: tQa, budget: 0, hourly_rate: 120, hourly_rate_effective_from: null, billable: true, is_active: true });
    expect(await rateAt(p, tQa, TODAY)).toBe('120.00');
    expect(await rateAt(p, tQa, '2025-03-10')).toBe('120.00');
    // now listed by GET /tasks?project_id with its budget 0
    const tasks = (await get(owner, `/api/v2/tasks?project_id=${p}`)).json().tasks;
    expect(tasks.find((t: any) => t.id === tQa).budget).toBe(0);
  });

  it("defaults billable to the task's billable_by_default and seeds the task's default rate", async () => {
    const res = await post(admin, p, { task_id: tDev });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ billable: false, hourly_rate: 90, hourly_rate_effective_from: null, budget: null });
  });

  it('an existing assignment is 409; an archived task 400; foreign or unknown tasks 404; nothing changes', async () => {
    const rates = await rateCount();
    const dup = await post(owner, p, { task_id: tDesign, budget: 99 });
    expect(dup.statusCode).toBe(409);
    expect((await assignmentRow(p, tDesign))!.budget).toBe('10.00');
    const archived = await post(owner, p, { task_id: tArchived });
    expect(archived.statusCode).toBe(400);
    expect(archived.json().field).toBe('task_id');
    expect((await post(owner, p, { task_id: tForeign })).statusCode).toBe(404);
    expect((await post(owner, p, { task_id: 'nope' })).statusCode).toBe(404);
    expect((await post(owner, pForeign, { task_id: tArchived })).statusCode).toBe(404);
    expect((await post(otherOwner, p, { task_id: tForeign })).statusCode).toBe(404);
    expect(await assignmentRow(p, tArchived)).toBeUndefined();
    expect(await rateCount()).toBe(rates);
  });

  it('permissions: Edit clients and tasks needed; budget needs budget visibility; rate needs view_billable_rates', async () => {
    const t1 = await insertTask(ctx.db, companyId, { name: 'Perm 1' });
    for (const c of [mgrPlain, member, contractor, personal]) {
      expect((await post(c, p, { task_id: t1 })).statusCode).toBe(403);
    }
    // a manager with the flag but not assigned to the project does not see it
    expect((await post(mgrEdit, pHidden, { task_id: t1 })).statusCode).toBe(404);
    // managing manager without rates: budget yes, rate no
    expect((await post(mgrEdit, p, { task_id: t1, hourly_rate: 50 })).statusCode).toBe(403);
    expect(await assignmentRow(p, t1)).toBeUndefined();
    const ok = await post(mgrEdit, p, { task_id: t1, budget: 4 });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().budget).toBe(4);
    expect(ok.json()).not.toHaveProperty('hourly_rate');
    // merely assigned manager with rates: rate yes, budget no
    const t2 = await insertTask(ctx.db, companyId, { name: 'Perm 2' });
    expect((await post(mgrEditRates, p, { task_id: t2, budget: 4 })).statusCode).toBe(403);
    expect(await assignmentRow(p, t2)).toBeUndefined();
    const rated = await post(mgrEditRates, p, { task_id: t2, hourly_rate: 70 });
    expect(rated.statusCode).toBe(201);
    expect(rated.json()).not.toHaveProperty('budget');
    expect(rated.json().hourly_rate).toBe(70);
  });

  it('rejects bad input with 400 and changes nothing', async () => {
    const t = await insertTask(ctx.db, companyId, { name: 'Bad input' });
    const rates = await rateCount();
    for (const body of [
      {},
      { task_id: t, budget: -1 },
      { task_id: t, budget: 1.005 },
      { task_id: t, budget: '3' },
      { task_id: t, hourly_rate: -1 },
      { task_id: t, hourly_rate: null },
      { task_id: t, hourly_rate_effective_from: '2025-01-01' },
      { task_id: t, hourly_rate: 10, hourly_rate_effective_from: '2025-02-30' },
      { task_id: t, hourly_rate: 10, hourly_rate_effective_from: '01/02/2025' },
      { task_id: t, project_id: p },
      { task_id: t, colour: 'red' },
    ]) {
      const res = await post(owner, p, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await assignmentRow(p, t)).toBeUndefined();
    expect(await rateCount()).toBe(rates);
  });
});

describe('PATCH task assignments', () => {
  it('a rate set on a date never changes the rate of an earlier date', async () => {
    const t = await insertTask(ctx.db, companyId, { name: 'Rated over time' });
    await assignTaskRow(ctx.db, companyId, p, t);
    const first = await patch(owner, p, t, { hourly_rate: 100, hourly_rate_effective_from: '2024-01-01' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ hourly_rate: 100, hourly_rate_effective_from: '2024-01-01' });
    expect(await rateAt(p, t, '2024-05-31')).toBe('100.00');
    await patch(owner, p, t, { hourly_rate: 150, hourly_rate_effective_from: '2024-06-01' });
    expect(await rateAt(p, t, '2023-12-31')).toBeNull();
    expect(await rateAt(p, t, '2024-05-31')).toBe('100.00');
    expect(await rateAt(p, t, '2024-06-01')).toBe('150.00');
    // without a date: from today in the workspace zone; yesterday keeps 150
    const today = await patch(owner, p, t, { hourly_rate: 175.25 });
    expect(today.json()).toMatchObject({ hourly_rate: 175.25, hourly_rate_effective_from: TODAY });
    expect(await rateAt(p, t, '2025-03-10')).toBe('150.00');
    // a future rate leaves today's rate shown
    const future = await patch(owner, p, t, { hourly_rate: 200, hourly_rate_effective_from: '2026-01-01' });
    expect(future.json()).toMatchObject({ hourly_rate: 175.25, hourly_rate_effective_from: TODAY });
    expect(await rateAt(p, t, '2025-12-31')).toBe('175.25');
    expect(await rateAt(p, t, '2026-01-01')).toBe('200.00');
  });

  it('changes billable and budget (0 and null), deactivates: then budget leaves GET /tasks', async () => {
    const t = await insertTask(ctx.db, companyId, { name: 'Lifecycle' });
    await assignTaskRow(ctx.db, companyId, p, t, { budget: '3' });
    expect((await patch(owner, p, t, { budget: 0, billable: false })).json()).toMatchObject({ budget: 0, billable: false });
    const cleared = await patch(mgrEdit, p, t, { budget: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().budget).toBeNull();
    expect((await get(owner, `/api/v2/tasks/${t}?project_id=${p}`)).json()).toHaveProperty('budget', null);
    const off = await patch(owner, p, t, { is_active: false });
    expect(off.json().is_active).toBe(false);
    expect(off.json().budget).toBeNull();
    expect((await get(owner, `/api/v2/tasks?project_id=${p}`)).json().tasks.map((x: any) => x.id)).not.toContain(t);
    expect((await get(owner, `/api/v2/tasks/${t}?project_id=${p}`)).json()).not.toHaveProperty('budget');
    expect((await get(owner, `${url(p)}?is_active=false`)).json().task_assignments.map((x: any) => x.task_id)).toContain(t);
    expect((await patch(owner, p, t, { is_active: true })).json().is_active).toBe(true);
  });

  it('an unchanged PATCH keeps updated_at', async () => {
    const before = (await get(owner, url(p, tDesign))).json();
    clock.advance(1000);
    const after = (await patch(owner, p, tDesign, { budget: 10, billable: true })).json();
    expect(after.updated_at).toBe(before.updated_at);
  });

  it('permissions and visibility, nothing changed on refusal', async () => {
    const before = await assignmentRow(p, tDesign);
    for (const c of [mgrPlain, member, contractor, personal]) expect((await patch(c, p, tDesign, { budget: 1 })).statusCode).toBe(403);
    expect((await patch(mgrEdit, p, tDesign, { hourly_rate: 1 })).statusCode).toBe(403);
    expect((await patch(mgrEditRates, p, tDesign, { budget: 1 })).statusCode).toBe(403);
    expect((await patch(mgrEdit, pHidden, tDesign, { budget: 1 })).statusCode).toBe(404);
    expect((await patch(otherOwner, p, tDesign, { budget: 1 })).statusCode).toBe(404);
    expect((await patch(owner, pForeign, tDesign, { budget: 1 })).statusCode).toBe(404);
    expect((await patch(owner, p, tForeign, { budget: 1 })).statusCode).toBe(404);
    expect((await patch(owner, p, 'nope', { budget: 1 })).statusCode).toBe(404);
    expect(await assignmentRow(p, tDesign)).toEqual(before);
    expect((await patch(mgrEditRates, p, tDesign, { billable: true })).statusCode).toBe(200);
  });

  it('rejects bad input with 400 and changes nothing', async () => {
    const before = await assignmentRow(p, tDesign);
    const rates = await rateCount();
    for (const body of [
      {},
      { budget: -1 },
      { budget: 1e13 },
      { hourly_rate: -0.01 },
      { hourly_rate: 10.001 },
      { hourly_rate_effective_from: '2025-01-01' },
      { hourly_rate: 5, hourly_rate_effective_from: 'tomorrow' },
      { task_id: tDev },
      { is_active: 'no' },
      { created_at: '2025-01-01T00:00:00Z' },
    ]) {
      const res = await patch(owner, p, tDesign, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await assignmentRow(p, tDesign)).toEqual(before);
    expect(await rateCount()).toBe(rates);
  });
});
