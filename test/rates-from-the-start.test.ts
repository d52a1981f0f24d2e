import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, request, type Caller, type TestContext } from './helpers.ts';
import { insertClient, insertTask, setNow, setWorkspace } from './fixtures/catalog.ts';

/**
 * Issue 13 item 2: a rate given when a project, a task assignment or a person's
 * project assignment is created applies to all of their work, whatever its date;
 * only a later change is effective-dated. The same rule prices the entry (its
 * stored billable_rate), the uninvoiced report and an invoice import, so the
 * three agree for the same work, backfilled work (dated before the project was
 * created) included.
 */

let ctx: TestContext;
let owner: Caller;
let member: Caller;
let clientId: string;
let taskId: string;

const NOW = '2026-06-10T10:00:00.000Z';

beforeAll(async () => {
  ctx = await createTestContext();
  setNow(ctx.clock, NOW);
  ({ owner } = await createWorkspaceWithOwner(ctx.db, 'Rates Co'));
  // Invoices and the report take unapproved work, so no approvals are needed here.
  await setWorkspace(ctx.db, owner.companyId, { invoice_before_approval: true });
  member = await addMember(ctx.db, owner.companyId, { role: 'member', firstName: 'Mia' });
  taskId = await insertTask(ctx.db, owner.companyId, { name: 'Build' });
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PATCH';
async function api(caller: Caller, method: Method, url: string, payload?: object) {
  const res = await request(ctx.app, caller, { method, url, payload });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json();
}

/** A fresh client (so each invoice import takes only its own test's work) and a project created through the API. */
async function newProject(body: Record<string, unknown>) {
  clientId = await insertClient(ctx.db, owner.companyId, `Client ${newId().slice(-6)}`);
  return api(owner, 'POST', '/api/v2/projects', { client_id: clientId, name: `P ${newId().slice(-6)}`, task_ids: [taskId], ...body });
}

const entry = (caller: Caller, projectId: string, spent_date: string, hours: number) =>
  api(caller, 'POST', '/api/v2/time_entries', { project_id: projectId, task_id: taskId, spent_date, hours });

const storedRate = async (id: string) => (await api(owner, 'GET', `/api/v2/time_entries/${id}`)).billable_rate;

async function uninvoicedAmount(projectId: string, from: string, to: string) {
  const body = await api(owner, 'GET', `/api/v2/reports/uninvoiced?from=${from}&to=${to}`);
  return body.results.find((r: { project_id: string }) => r.project_id === projectId)?.uninvoiced_amount;
}

/** Imports the project's time, one line per entry; returns unit prices by entry date. */
async function invoicedPrices(projectId: string) {
  const invoice = await api(owner, 'POST', '/api/v2/invoices', {
    client_id: clientId,
    line_items_import: { project_ids: [projectId], time: { summary_type: 'detailed' } },
  });
  return invoice.line_items.map((l: { unit_price: number; quantity: number }) => ({ unit_price: l.unit_price, quantity: l.quantity }));
}

describe('a rate given at creation prices all the work, whatever its date', () => {
  it('project rate: backfilled work agrees on the entry, in the uninvoiced report and on the invoice', async () => {
    const project = await newProject({ bill_by: 'project', hourly_rate: 100 });
    expect(project).toMatchObject({ hourly_rate: 100, hourly_rate_effective_from: null });
    // Dated three months before the project existed.
    const backfilled = await entry(owner, project.id, '2026-03-02', 2);
    expect(backfilled.billable_rate).toBe(100);
    expect(await uninvoicedAmount(project.id, '20260301', '20260331')).toBe(200);
    expect(await invoicedPrices(project.id)).toEqual([{ unit_price: 100, quantity: 2 }]);
  });

  it('a later change is effective-dated: earlier work (backfilled too) keeps the first rate', async () => {
    const project = await newProject({ bill_by: 'project', hourly_rate: 100 });
    await api(owner, 'PATCH', `/api/v2/projects/${project.id}`, { hourly_rate: 120, hourly_rate_effective_from: '2026-06-01' });
    const early = await entry(owner, project.id, '2025-12-01', 1);
    const before = await entry(owner, project.id, '2026-05-31', 1);
    const after = await entry(owner, project.id, '2026-06-01', 1);
    expect([early.billable_rate, before.billable_rate, after.billable_rate]).toEqual([100, 100, 120]);
    expect(await uninvoicedAmount(project.id, '20251201', '20260610')).toBe(320);
    const prices = (await invoicedPrices(project.id)).map((l: { unit_price: number }) => l.unit_price).sort();
    expect(prices).toEqual([100, 100, 120]);
  });

  it('task assignment rate (bill_by tasks): given at creation, it prices earlier work', async () => {
    const project = await newProject({ bill_by: 'tasks', task_ids: [] });
    const assignment = await api(owner, 'POST', `/api/v2/projects/${project.id}/task_assignments`, { task_id: taskId, hourly_rate: 90 });
    expect(assignment).toMatchObject({ hourly_rate: 90, hourly_rate_effective_from: null });
    const backfilled = await entry(owner, project.id, '2026-01-15', 1.5);
    expect(backfilled.billable_rate).toBe(90);
    expect(await uninvoicedAmount(project.id, '20260101', '20260131')).toBe(135);
    expect(await invoicedPrices(project.id)).toEqual([{ unit_price: 90, quantity: 1.5 }]);
  });

  it('a task’s default rate given to a new project prices its earlier work', async () => {
    const rated = await insertTask(ctx.db, owner.companyId, { name: `Rated ${newId().slice(-6)}` });
    await ctx.db.updateTable('tasks').set({ default_hourly_rate: '75' }).where('id', '=', rated).execute();
    const project = await newProject({ bill_by: 'tasks', task_ids: [rated] });
    const e = await api(owner, 'POST', '/api/v2/time_entries', { project_id: project.id, task_id: rated, spent_date: '2025-11-03', hours: 2 });
    expect(e.billable_rate).toBe(75);
    expect(await uninvoicedAmount(project.id, '20251101', '20251130')).toBe(150);
  });

  it('person rate on a project (bill_by people): given with the assignment, it prices the person’s earlier work', async () => {
    const project = await newProject({ bill_by: 'people' });
    await api(owner, 'POST', `/api/v2/projects/${project.id}/user_assignments`, { user_id: member.userId, hourly_rate: 70 });
    const backfilled = await entry(member, project.id, '2026-02-02', 3);
    expect(await storedRate(backfilled.id)).toBe(70);
    expect(await uninvoicedAmount(project.id, '20260201', '20260228')).toBe(210);
    expect(await invoicedPrices(project.id)).toEqual([{ unit_price: 70, quantity: 3 }]);
  });

  it('work recorded before the rate was given is priced again on the entry, so it still agrees', async () => {
    // The owner records time on a project they are not assigned to a rate on yet (bill_by people)...
    const project = await newProject({ bill_by: 'people' });
    const early = await entry(owner, project.id, '2026-04-01', 1);
    expect(early.billable_rate).toBeNull();
    // ...then the owner's rate on it is given (PATCH of the creator's assignment: a later change, effective-dated from a past date).
    await api(owner, 'PATCH', `/api/v2/projects/${project.id}/user_assignments/${owner.userId}`, { hourly_rate: 50, hourly_rate_effective_from: '2026-03-01' });
    expect(await storedRate(early.id)).toBe(50);
    // the new billable_rate is a change of the entry: a client syncing with updated_since sees it
    const since = await api(owner, 'GET', `/api/v2/time_entries?project_id=${project.id}&updated_since=${encodeURIComponent(early.updated_at)}`);
    expect(since.time_entries.map((e: { id: string }) => e.id)).toEqual([early.id]);
    expect(Date.parse(since.time_entries[0].updated_at)).toBeGreaterThan(Date.parse(early.updated_at));
    expect(await uninvoicedAmount(project.id, '20260401', '20260430')).toBe(50);
    expect(await invoicedPrices(project.id)).toEqual([{ unit_price: 50, quantity: 1 }]);
  });
});

describe('a first rate given later is a change: it takes effect from its date', () => {
  it('earlier work stays unpriced on the entry, in the report and on the invoice', async () => {
    const project = await newProject({ bill_by: 'project' });
    expect(project.hourly_rate).toBeNull();
    const early = await entry(owner, project.id, '2026-05-04', 1);
    await api(owner, 'PATCH', `/api/v2/projects/${project.id}`, { hourly_rate: 100 }); // from today, 2026-06-10
    const later = await entry(owner, project.id, '2026-06-10', 1);
    expect([await storedRate(early.id), later.billable_rate]).toEqual([null, 100]);
    expect(await uninvoicedAmount(project.id, '20260501', '20260531')).toBe(0);
    expect(await uninvoicedAmount(project.id, '20260601', '20260630')).toBe(100);
    const prices = (await invoicedPrices(project.id)).map((l: { unit_price: number }) => l.unit_price).sort();
    expect(prices).toEqual([0, 100]);
  });

  it('an explicit hourly_rate_effective_from at creation is kept', async () => {
    const project = await newProject({ bill_by: 'project', hourly_rate: 100, hourly_rate_effective_from: '2026-01-01' });
    expect(project.hourly_rate_effective_from).toBe('2026-01-01');
    expect((await entry(owner, project.id, '2025-12-31', 1)).billable_rate).toBeNull();
    expect((await entry(owner, project.id, '2026-01-01', 1)).billable_rate).toBe(100);
  });
});
