import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { assignUser, billableProject, insertClient, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';

/**
 * The web app's expense screens (issue 16 item 2): /web/api/expense_sheet lists the
 * caller's own expenses, filtered and paged, each with its project's name and
 * currency (which the API's expense lacks), and what the filters and the form pick
 * from; /web/api/expense_choices is the form's half. Session only.
 */

let ctx: TestContext;
const api = (caller: Caller | null, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object) });
let w: InvoiceWorkspace;
let website: string;
let tokyo: string;
let unassigned: string;
let llm: string;
let mileage: string;
const s: Record<'member' | 'other' | 'owner', Caller> = {} as never;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db); // workspace currency EUR
  const acme = await insertClient(ctx.db, w.companyId, { name: 'Acme' });
  const nippon = await insertClient(ctx.db, w.companyId, { name: 'Nippon', currency: 'JPY' });
  website = (await billableProject(ctx.db, w.companyId, acme, { name: 'Website' })).projectId;
  tokyo = (await billableProject(ctx.db, w.companyId, nippon, { name: 'Tokyo office' })).projectId;
  unassigned = (await billableProject(ctx.db, w.companyId, acme, { name: 'Secret' })).projectId;
  const other = await addMember(ctx.db, w.companyId, { role: 'member', firstName: 'Otto', lastName: 'Other' });
  for (const user of [w.member.userId, other.userId]) {
    await assignUser(ctx.db, w.companyId, website, user);
    await assignUser(ctx.db, w.companyId, tokyo, user);
  }
  s.member = await sessionFor(ctx.db, w.member, ctx.clock.now());
  s.other = await sessionFor(ctx.db, other, ctx.clock.now());
  s.owner = await sessionFor(ctx.db, w.owner, ctx.clock.now());
  const categories = (await api(s.owner, 'GET', '/api/v2/expense_categories')).json().expense_categories;
  llm = categories.find((c: { name: string }) => c.name === 'LLM usage').id;
  const created = await api(s.owner, 'POST', '/api/v2/expense_categories', { name: 'Mileage', unit_name: 'km', unit_price: 0.3 });
  expect(created.statusCode, created.body).toBe(201);
  mileage = created.json().id;
});
afterAll(() => ctx.close());

async function expense(who: Caller, body: Record<string, unknown>) {
  const res = await api(who, 'POST', '/api/v2/expenses', { expense_category_id: llm, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

describe('the expense sheet', () => {
  it("lists only the caller's own expenses, with each project's name and currency, filtered and paged", async () => {
    const a = await expense(s.member, { project_id: website, spent_date: '2026-03-02', total_cost: 12.5 });
    const b = await expense(s.member, { project_id: tokyo, spent_date: '2026-03-10', total_cost: 1200 });
    const c = await expense(s.member, { project_id: website, expense_category_id: mileage, spent_date: '2026-04-01', units: 10 });
    await expense(s.other, { project_id: website, spent_date: '2026-03-05', total_cost: 99 });

    const all = await api(s.member, 'GET', '/web/api/expense_sheet');
    expect(all.statusCode, all.body).toBe(200);
    const body = all.json();
    expect(body.expenses.map((e: { id: string }) => e.id)).toEqual([c.id, b.id, a.id]);
    expect(body.total_entries).toBe(3);
    const tokyoExpense = body.expenses.find((e: { id: string }) => e.id === b.id);
    expect(tokyoExpense).toMatchObject({ total_cost: 1200, currency: 'JPY', project: { id: tokyo, name: 'Tokyo office', client_name: 'Nippon' } });
    expect(body.expenses.find((e: { id: string }) => e.id === c.id)).toMatchObject({ units: 10, total_cost: 3, currency: 'EUR' });

    const ids = async (query: string) => (await api(s.member, 'GET', `/web/api/expense_sheet?${query}`)).json().expenses.map((e: { id: string }) => e.id);
    expect(await ids(`project_id=${website}`)).toEqual([c.id, a.id]);
    expect(await ids(`expense_category_id=${mileage}`)).toEqual([c.id]);
    expect(await ids('from=2026-03-01&to=2026-03-31')).toEqual([b.id, a.id]);
    const paged = (await api(s.member, 'GET', '/web/api/expense_sheet?per_page=2&page=2')).json();
    expect(paged.expenses.map((e: { id: string }) => e.id)).toEqual([a.id]);
    expect(paged).toMatchObject({ page: 2, per_page: 2, total_pages: 2, total_entries: 3 });
  });

  it('offers the projects the caller may record on, keeps archived ones of their expenses, and the categories with unit prices', async () => {
    const archived = (await billableProject(ctx.db, w.companyId, await insertClient(ctx.db, w.companyId, { name: 'Old' }), { name: 'Legacy' })).projectId;
    await assignUser(ctx.db, w.companyId, archived, w.member.userId);
    await expense(s.member, { project_id: archived, spent_date: '2026-01-05', total_cost: 1 });
    expect((await api(s.owner, 'PATCH', `/api/v2/projects/${archived}`, { is_active: false })).statusCode).toBe(200);

    const choices = (await api(s.member, 'GET', '/web/api/expense_choices')).json();
    const projects = Object.fromEntries(choices.projects.map((p: { name: string; can_record: boolean; currency: string }) => [p.name, p]));
    expect(Object.keys(projects).sort()).toEqual(['Legacy', 'Tokyo office', 'Website']); // not Secret: not assigned
    expect(projects.Legacy.can_record).toBe(false);
    expect(projects.Website).toMatchObject({ can_record: true, currency: 'EUR', client_name: 'Acme' });
    expect(projects['Tokyo office'].currency).toBe('JPY');
    expect(choices.today).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(choices.categories.find((c: { id: string }) => c.id === mileage)).toEqual({ id: mileage, name: 'Mileage', unit_name: 'km', unit_price: 0.3, is_active: true });

    // An owner may record anywhere active.
    const owners = (await api(s.owner, 'GET', '/web/api/expense_choices')).json().projects.map((p: { id: string }) => p.id);
    expect(owners).toContain(unassigned);
    expect(owners).not.toContain(archived);
  });

  it("gives an owner someone else's expenses (user_id), and the form the project of one of them", async () => {
    const secret = await expense(s.owner, { project_id: unassigned, spent_date: '2026-05-01', total_cost: 7 });
    const others = await api(s.owner, 'GET', `/web/api/expense_sheet?user_id=${w.member.userId}`);
    expect(others.statusCode, others.body).toBe(200);
    expect(others.json().user).toEqual({ id: w.member.userId, name: expect.stringContaining(' ') });
    expect(others.json().expenses.length).toBeGreaterThan(0);
    expect(others.json().expenses.every((e: { user_id: string }) => e.user_id === w.member.userId)).toBe(true);
    expect((await api(s.owner, 'GET', '/web/api/expense_sheet')).json().user.id).toBe(w.owner.userId);

    // The form of someone else's expense on a project the viewer may not record on still names it...
    const mine = (await api(s.owner, 'GET', '/web/api/expense_choices')).json().projects.map((p: { id: string }) => p.id);
    const memberChoices = (await api(s.member, 'GET', `/web/api/expense_choices?expense_id=${secret.id}`)).json();
    // ...but only for a viewer who may see that expense: the member gets nothing of it.
    expect(memberChoices.projects.map((p: { id: string }) => p.id)).not.toContain(unassigned);
    expect(mine).toContain(unassigned);
  });

  it('refuses someone else\u2019s expenses to a member (403), and people of no or another workspace (404)', async () => {
    const refused = await api(s.member, 'GET', `/web/api/expense_sheet?user_id=${w.owner.userId}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('forbidden');
    const elsewhere = await makeInvoiceWorkspace(ctx.db);
    for (const id of [elsewhere.member.userId, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const res = await api(s.owner, 'GET', `/web/api/expense_sheet?user_id=${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({ error: 'not_found', field: 'user_id' });
    }
    // Another workspace's expense adds no project to the form's choices.
    const foreignClient = await insertClient(ctx.db, elsewhere.companyId, { name: 'Foreign' });
    const foreignProject = (await billableProject(ctx.db, elsewhere.companyId, foreignClient, { name: 'Abroad' })).projectId;
    const foreignOwner = await sessionFor(ctx.db, elsewhere.owner, ctx.clock.now());
    const foreign = await expense(foreignOwner, { project_id: foreignProject, spent_date: '2026-05-02', total_cost: 3, expense_category_id: (await api(foreignOwner, 'GET', '/api/v2/expense_categories')).json().expense_categories[0].id });
    const choices = (await api(s.owner, 'GET', `/web/api/expense_choices?expense_id=${foreign.id}`)).json();
    expect(choices.projects.map((p: { id: string }) => p.id)).not.toContain(foreignProject);
  });

  it('refuses a period ending before it starts, naming the field, and API keys', async () => {
    const res = await api(s.member, 'GET', '/web/api/expense_sheet?from=2026-03-10&to=2026-03-01');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request', field: 'to' });
    const bad = await api(s.member, 'GET', '/web/api/expense_sheet?expense_category_id=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('expense_category_id');
    for (const url of ['/web/api/expense_sheet', '/web/api/expense_choices']) {
      const key = await api(w.member, 'GET', url);
      expect(key.statusCode).toBe(403);
      expect(key.json().error).toBe('session_required');
    }
  });
});
