import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf } from './fixtures/api.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * The refusals a person meets in the web app name their rule as a word (`refusal`), which the web
 * app words in the reader's language; `message` stays the English sentence API clients show. Each
 * case: the status, the word (with the counts or field it names), and nothing changed.
 */

let ctx: TestContext;
let owner: Caller;
let ownerSession: Caller;
let member: Caller;
const api = apiOf(() => ctx);
let n = 0;
const unique = (label: string) => `${label} ${++n} ${Math.random().toString(36).slice(2, 6)}`;

beforeAll(async () => {
  ctx = await createTestContext();
  const w = await createWorkspaceWithOwner(ctx.db, 'Refusals');
  owner = w.owner;
  ownerSession = await sessionFor(ctx.db, owner, ctx.clock.now());
  member = await addMember(ctx.db, w.company.id, { role: 'member', firstName: 'Mia' });
});
afterAll(() => ctx?.close());

async function created(caller: Caller, url: string, body: object) {
  const res = await api(caller, 'POST', url, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
const client = () => created(owner, '/api/v2/clients', { name: unique('Client') });
async function project(clientId: string) {
  const task = await created(owner, '/api/v2/tasks', { name: unique('Task') });
  const p = await created(owner, '/api/v2/projects', { client_id: clientId, name: unique('Project'), task_ids: [task.id] });
  return { ...p, taskId: task.id as string };
}
const etag = async (url: string) => (await api(owner, 'GET', url)).headers.etag as string;

function refused(res: { statusCode: number; json: () => any }, status: number, refusal: string, extras: Record<string, unknown> = {}) {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toMatchObject({ refusal, ...extras });
  expect(typeof res.json().message).toBe('string');
}

describe('catalog', () => {
  it('name_taken: a second client with a name', async () => {
    const first = await client();
    refused(await api(owner, 'POST', '/api/v2/clients', { name: first.name }), 409, 'name_taken', { error: 'conflict', field: 'name' });
  });

  it('client_has_active_projects, archive_first, client_has_projects, client_archived', async () => {
    const c = await client();
    const p = await project(c.id);
    refused(await api(owner, 'PATCH', `/api/v2/clients/${c.id}`, { is_active: false }), 409, 'client_has_active_projects', { active_project_count: 1 });
    expect((await api(owner, 'GET', `/api/v2/clients/${c.id}`)).json().is_active).toBe(true);
    refused(await api(owner, 'DELETE', `/api/v2/clients/${c.id}`, undefined, { 'if-match': await etag(`/api/v2/clients/${c.id}`) }), 409, 'archive_first');

    expect((await api(owner, 'PATCH', `/api/v2/projects/${p.id}`, { is_active: false })).statusCode).toBe(200);
    expect((await api(owner, 'PATCH', `/api/v2/clients/${c.id}`, { is_active: false })).statusCode).toBe(200);
    refused(await api(owner, 'DELETE', `/api/v2/clients/${c.id}`, undefined, { 'if-match': await etag(`/api/v2/clients/${c.id}`) }), 409, 'client_has_projects', { project_count: 1 });
    refused(await api(owner, 'PATCH', `/api/v2/projects/${p.id}`, { is_active: true }), 409, 'client_archived', { field: 'is_active' });
    expect((await api(owner, 'GET', `/api/v2/projects/${p.id}`)).json().is_active).toBe(false);
  });

  it('archive_first and project_has_running_timers: deleting a project', async () => {
    const p = await project((await client()).id);
    refused(await api(owner, 'DELETE', `/api/v2/projects/${p.id}`, undefined, { 'if-match': await etag(`/api/v2/projects/${p.id}`) }), 409, 'archive_first');
    const today = new Date().toISOString().slice(0, 10);
    const timer = await created(owner, '/api/v2/time_entries', { project_id: p.id, task_id: p.taskId, spent_date: today, is_running: true });
    try {
      expect((await api(owner, 'PATCH', `/api/v2/projects/${p.id}`, { is_active: false })).statusCode).toBe(200);
      refused(await api(owner, 'DELETE', `/api/v2/projects/${p.id}`, undefined, { 'if-match': await etag(`/api/v2/projects/${p.id}`) }), 409, 'project_has_running_timers', {
        running_entry_count: 1,
      });
      expect((await api(owner, 'GET', `/api/v2/projects/${p.id}`)).statusCode).toBe(200);
    } finally {
      await api(owner, 'DELETE', `/api/v2/time_entries/${timer.id}`);
    }
  });

  it('already_assigned: a person or a task on the project twice', async () => {
    const p = await project((await client()).id);
    await created(owner, `/api/v2/projects/${p.id}/user_assignments`, { user_id: member.userId });
    refused(await api(owner, 'POST', `/api/v2/projects/${p.id}/user_assignments`, { user_id: member.userId }), 409, 'already_assigned', { field: 'user_id' });
    refused(await api(owner, 'POST', `/api/v2/projects/${p.id}/task_assignments`, { task_id: p.taskId }), 409, 'already_assigned', { field: 'task_id' });
  });
});

describe('tracking', () => {
  it('project_unavailable, not_assigned and project_archived: time and expenses', async () => {
    const p = await project((await client()).id);
    const today = new Date().toISOString().slice(0, 10);
    const entry = { project_id: p.id, task_id: p.taskId, spent_date: today, hours: 1 };
    refused(await api(member, 'POST', '/api/v2/time_entries', entry), 400, 'project_unavailable', { field: 'project_id' });
    refused(await api(owner, 'POST', '/api/v2/time_entries', { ...entry, user_id: member.userId }), 400, 'not_assigned', { field: 'user_id' });
    expect((await api(owner, 'PATCH', `/api/v2/projects/${p.id}`, { is_active: false })).statusCode).toBe(200);
    refused(await api(owner, 'POST', '/api/v2/time_entries', entry), 400, 'project_archived', { field: 'project_id' });
    const category = await created(owner, '/api/v2/expense_categories', { name: unique('Travel') });
    refused(await api(owner, 'POST', '/api/v2/expenses', { project_id: p.id, expense_category_id: category.id, spent_date: today, total_cost: 10 }), 400, 'project_archived', {
      field: 'project_id',
    });
    expect((await api(owner, 'GET', `/api/v2/time_entries?project_id=${p.id}`)).json().time_entries).toEqual([]);
  });
});

describe('people and billing', () => {
  it('last_owner: the only owner keeps the role', async () => {
    const res = await api(ownerSession, 'PATCH', `/web/api/members/${owner.userId}`, { role: 'administrator' });
    refused(res, 409, 'last_owner');
  });

  it('already_member and invitation_pending: inviting an address twice', async () => {
    refused(await api(ownerSession, 'POST', '/web/api/invitations', { email: member.email, role: 'member' }), 409, 'already_member', { field: 'email' });
    const email = `${unique('new').replace(/ /g, '.')}@example.com`;
    await created(ownerSession, '/web/api/invitations', { email, role: 'member' });
    refused(await api(ownerSession, 'POST', '/web/api/invitations', { email, role: 'member' }), 409, 'invitation_pending', { field: 'email' });
  });

  it('client_has_invoices: a client with an invoice is kept', async () => {
    const c = await client();
    await created(owner, '/api/v2/invoices', { client_id: c.id, line_items: [{ description: 'Work', quantity: 1, unit_price: 10 }] });
    expect((await api(owner, 'PATCH', `/api/v2/clients/${c.id}`, { is_active: false })).statusCode).toBe(200);
    refused(await api(owner, 'DELETE', `/api/v2/clients/${c.id}`, undefined, { 'if-match': await etag(`/api/v2/clients/${c.id}`) }), 409, 'client_has_invoices', { invoice_count: 1 });
    expect((await api(owner, 'GET', `/api/v2/clients/${c.id}`)).statusCode).toBe(200);
  });

  it('number_taken: a second invoice with a number', async () => {
    const c = await client();
    const first = await created(owner, '/api/v2/invoices', { client_id: c.id, number: unique('INV').replace(/ /g, '-'), line_items: [{ description: 'Work', quantity: 1, unit_price: 10 }] });
    refused(await api(owner, 'POST', '/api/v2/invoices', { client_id: c.id, number: first.number, line_items: [{ description: 'Work', quantity: 1, unit_price: 10 }] }), 409, 'number_taken', {
      field: 'number',
    });
  });
});
