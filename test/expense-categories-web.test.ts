import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MILEAGE_UNIT, STARTER_CATEGORIES } from '../src/modules/tracking/expense-categories/rules.ts';
import { createWorkspace, provisionWorkspace } from '../src/provisioning.ts';
import { makeExpenseWorkspace, type ExpenseWorkspace } from './fixtures/expenses-catalog.ts';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * Managing expense categories from the web app (issue 21 item 5): the settings
 * page calls /api/v2/expense_categories with the browser session, so what the
 * page does is checked here with sessions: create, rename, price, archive and
 * restore; duplicates and bad input refused, changing nothing; who may (owners,
 * administrators, managers with Edit clients and tasks) and who may not; other
 * workspaces' ids. And the set a provisioned workspace starts with.
 */

let ctx: TestContext;
let w: ExpenseWorkspace;
let foreign: ExpenseWorkspace;
const s: Record<'owner' | 'admin' | 'manager' | 'mgrCats' | 'member', Caller> = {} as never;
let n = 0;
const unique = (label: string) => `${label} ${++n}`;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeExpenseWorkspace(ctx.db, 'Category Co');
  foreign = await makeExpenseWorkspace(ctx.db, 'Foreign Co');
  for (const who of ['owner', 'admin', 'manager', 'mgrCats', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], new Date());
}, 120_000);
afterAll(() => ctx.close());

const api = (caller: Caller, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => request(ctx.app, caller, { method, url, payload });
const create = (caller: Caller, body: object) => api(caller, 'POST', '/api/v2/expense_categories', body);
const patch = (caller: Caller, id: string, body: object) => api(caller, 'PATCH', `/api/v2/expense_categories/${id}`, body);
const namesOf = async (companyId: string) =>
  (await ctx.db.selectFrom('expense_categories').select(['name', 'unit_name', 'unit_price', 'is_active']).where('company_id', '=', companyId).orderBy('name').execute());

describe('a new workspace', () => {
  it('provisioned (first start, sheaf admin workspace create) starts with travel, meals, software, equipment, mileage per km and LLM usage', async () => {
    const company = await provisionWorkspace(ctx.db, { name: 'Fresh start', currency: 'EUR' });
    const rows = await namesOf(company.id);
    expect(rows.map((r) => r.name).sort()).toEqual(['Equipment', 'LLM usage', 'Meals', 'Mileage', 'Software and subscriptions', 'Travel']);
    expect(rows.every((r) => r.is_active)).toBe(true);
    expect(rows.find((r) => r.name === 'Mileage')).toMatchObject({ unit_name: MILEAGE_UNIT });
    expect(Number(rows.find((r) => r.name === 'Mileage')!.unit_price)).toBe(0.3);
    expect(rows.filter((r) => r.name !== 'Mileage').every((r) => r.unit_name === null && r.unit_price === null)).toBe(true);
    expect(STARTER_CATEGORIES).toHaveLength(6);
  });

  it('existing workspaces are left alone: provisioning another adds nothing to them', async () => {
    const old = await createWorkspace(ctx.db, { name: 'Older' });
    await provisionWorkspace(ctx.db, { name: 'Newer' });
    expect((await namesOf(old.id)).map((r) => r.name)).toEqual(['LLM usage']);
  });
});

describe('managing categories with a browser session', () => {
  it('an administrator creates, renames, prices, archives and restores a category', async () => {
    const name = unique('Stock photos');
    const made = await create(s.admin, { name });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id as string;
    expect(made.json()).toMatchObject({ name, unit_name: null, unit_price: null, is_active: true });

    const renamed = await patch(s.admin, id, { name: `${name} and images` });
    expect(renamed.json()).toMatchObject({ name: `${name} and images` });
    const priced = await patch(s.admin, id, { unit_name: 'image', unit_price: 12.345678 });
    expect(priced.statusCode, priced.body).toBe(200);
    expect(priced.json()).toMatchObject({ unit_name: 'image', unit_price: 12.345678 });
    const unpriced = await patch(s.admin, id, { unit_name: null, unit_price: null });
    expect(unpriced.json()).toMatchObject({ unit_name: null, unit_price: null });

    expect((await patch(s.admin, id, { is_active: false })).json()).toMatchObject({ is_active: false });
    const active = (await api(s.member, 'GET', '/api/v2/expense_categories?is_active=true')).json().expense_categories.map((c: any) => c.id);
    expect(active).not.toContain(id);
    expect((await patch(s.admin, id, { is_active: true })).json()).toMatchObject({ is_active: true });
  });

  it('an owner and a manager with Edit clients and tasks may too; a member and a manager without it get 403 and change nothing', async () => {
    expect((await create(s.owner, { name: unique('Owner made') })).statusCode).toBe(201);
    expect((await create(s.mgrCats, { name: unique('Manager made') })).statusCode).toBe(201);
    const id = (await create(s.admin, { name: unique('Parking') })).json().id as string;
    const before = await namesOf(w.companyId);
    for (const caller of [s.member, s.manager]) {
      const res = await create(caller, { name: unique('Sneaky') });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'forbidden' });
      expect((await patch(caller, id, { name: 'Renamed' })).statusCode).toBe(403);
      expect((await patch(caller, id, { is_active: false })).statusCode).toBe(403);
    }
    expect(await namesOf(w.companyId)).toEqual(before);
  });

  it('refuses a duplicate name (ignoring case) and bad input with the field named, changing nothing', async () => {
    const name = unique('Taxis');
    const id = (await create(s.admin, { name })).json().id as string;
    const before = await namesOf(w.companyId);
    const dup = await create(s.admin, { name: `  ${name.toUpperCase()} ` });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ error: 'conflict', field: 'name' });
    const other = (await create(s.admin, { name: unique('Hotels') })).json().id as string;
    expect((await patch(s.admin, other, { name: name.toLowerCase() })).json()).toMatchObject({ error: 'conflict', field: 'name' });
    const cases: Array<[object, string]> = [
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(256) }, 'name'],
      [{ unit_name: 'km' }, 'unit_price'],
      [{ unit_price: 0.3 }, 'unit_name'],
      [{ unit_name: 'km', unit_price: 0.1234567 }, 'unit_price'],
      [{ unit_name: 'km', unit_price: -1 }, 'unit_price'],
      [{ unit_name: 'km', unit_price: '0.30' }, 'unit_price'],
      [{ is_active: 'no' }, 'is_active'],
    ];
    for (const [body, field] of cases) {
      const res = await patch(s.admin, id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field, JSON.stringify(body)).toBe(field);
    }
    const unknown = await patch(s.admin, id, { colour: 'red' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'unknown_field' });
    expect((await create(s.admin, { name: unique('Ok'), id: 'mine' })).json()).toMatchObject({ error: 'unknown_field', field: 'id' });
    expect((await namesOf(w.companyId)).filter((r) => !r.name.startsWith('Hotels'))).toEqual(before);
  });

  it("another workspace's category is 404, unchanged", async () => {
    const theirs = (await create(foreign.owner, { name: 'Theirs' })).json().id as string;
    expect((await patch(s.admin, theirs, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await api(s.admin, 'GET', `/api/v2/expense_categories/${theirs}`)).statusCode).toBe(404);
    expect((await patch(s.admin, 'not-an-id', { name: 'x' })).statusCode).toBe(404);
    expect((await namesOf(foreign.companyId)).map((r) => r.name)).toContain('Theirs');
  });

  it('a unit-priced category prices an expense as quantity × unit price; an archived one stays on its old expenses', async () => {
    const mileage = (await create(s.admin, { name: unique('Mileage'), unit_name: 'km', unit_price: 0.3 })).json();
    const res = await api(s.member, 'POST', '/api/v2/expenses', { project_id: w.projectA, expense_category_id: mileage.id, spent_date: '2026-02-03', units: 12.5 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ units: 12.5, total_cost: 3.75, expense_category: { id: mileage.id, unit_name: 'km', unit_price: 0.3 } });
    await patch(s.admin, mileage.id, { is_active: false });
    const old = await api(s.member, 'GET', `/api/v2/expenses/${res.json().id}`);
    expect(old.json()).toMatchObject({ total_cost: 3.75, expense_category: { id: mileage.id, name: mileage.name } });
    const refused = await api(s.member, 'POST', '/api/v2/expenses', { project_id: w.projectA, expense_category_id: mileage.id, spent_date: '2026-02-04', units: 1 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ field: 'expense_category_id' });
  });
});
