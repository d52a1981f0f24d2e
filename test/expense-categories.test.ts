import { readFileSync, rmSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import { newId } from '../src/ids.ts';
import { LLM_USAGE_CATEGORY } from '../src/modules/tracking/expense-categories/rules.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { makeExpenseWorkspace, type ExpenseWorkspace } from './fixtures/expenses-catalog.ts';
import { DATABASE_URL, createTestContext, dropSchema, migratedDataDir, request, uniqueSchema, type Caller, type TestContext } from './helpers.ts';
import { SharedDatabase } from './cli-runner.ts';

/**
 * Expense categories: the seeded "LLM usage" category (new workspaces and the
 * 0012 migration), the API (list, item, create, update; who may write; every
 * field's bad input; cross-workspace ids) and `sheaf admin expense-category`.
 */

const FIELDS = ['created_at', 'id', 'is_active', 'name', 'unit_name', 'unit_price', 'updated_at'];

let ctx: TestContext;
let w: ExpenseWorkspace;
let foreign: ExpenseWorkspace;
let n = 0;
const unique = (label = 'Cat') => `${label} ${++n} ${Math.random().toString(36).slice(2, 7)}`;

function api(caller: Caller | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) {
  return request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object), headers });
}

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeExpenseWorkspace(ctx.db, 'Categories Co');
  foreign = await makeExpenseWorkspace(ctx.db, 'Foreign Co');
}, 120_000);
afterAll(() => ctx.close());

describe('the LLM usage category', () => {
  it('is seeded in every new workspace, once, active and without a unit', async () => {
    const company = await createWorkspace(ctx.db, { name: 'Fresh' });
    const rows = await ctx.db.selectFrom('expense_categories').selectAll().where('company_id', '=', company.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: LLM_USAGE_CATEGORY, unit_name: null, unit_price: null, is_active: true });
    expect(LLM_USAGE_CATEGORY).toBe('LLM usage');
  });

  it('is listed through the API', async () => {
    const res = await api(w.member, 'GET', '/api/v2/expense_categories');
    expect(res.statusCode).toBe(200);
    expect(res.json().expense_categories.map((c: any) => c.name)).toContain('LLM usage');
  });

  it('the migration gives each workspace without one a UUIDv7 category, leaving the others alone', async () => {
    const file = readFileSync(new URL('../src/db/migrations/0012_expenses_categories.sql', import.meta.url), 'utf8');
    const insert = /insert into expense_categories[\s\S]*?\);\s*$/m.exec(file)?.[0];
    expect(insert).toBeDefined();
    const bare = newId();
    await ctx.db.insertInto('companies').values({ id: bare, name: 'Pre-0012 workspace' }).execute();
    const renamed = await createWorkspace(ctx.db, { name: 'Has one, in other case' });
    await ctx.db.updateTable('expense_categories').set({ name: 'llm USAGE' }).where('company_id', '=', renamed.id).execute();
    const before = await ctx.db.selectFrom('expense_categories').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    await sql.raw(insert!).execute(ctx.db);
    const after = await ctx.db.selectFrom('expense_categories').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n) + 1);
    const seeded = await ctx.db.selectFrom('expense_categories').selectAll().where('company_id', '=', bare).executeTakeFirstOrThrow();
    expect(seeded.name).toBe('LLM usage');
    expect(seeded.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Running it again adds nothing.
    await sql.raw(insert!).execute(ctx.db);
    const again = await ctx.db.selectFrom('expense_categories').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(again.n).toBe(after.n);
  });
});

describe('GET /api/v2/expense_categories', () => {
  it('lists the workspace\'s categories by name with the envelope, to every internal role', async () => {
    for (const caller of [w.owner, w.admin, w.manager, w.mgrCats, w.member, w.contractor]) {
      const res = await api(caller, 'GET', '/api/v2/expense_categories');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      const names = body.expense_categories.map((c: any) => c.name);
      expect(names).toEqual([...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(names).toEqual(expect.arrayContaining(['LLM usage', 'Mileage', 'Retired', 'Tokens', 'Travel']));
      expect(body).toMatchObject({ page: 1, per_page: 100, total_pages: 1 });
      expect(Object.keys(body.expense_categories[0]).sort()).toEqual(FIELDS);
    }
    const mileage = (await api(w.member, 'GET', '/api/v2/expense_categories')).json().expense_categories.find((c: any) => c.name === 'Mileage');
    expect(mileage).toMatchObject({ unit_name: 'km', unit_price: 0.58, is_active: true });
  });

  it('filters by is_active and paginates; bad filters are 400', async () => {
    const inactive = (await api(w.member, 'GET', '/api/v2/expense_categories?is_active=false')).json();
    expect(inactive.expense_categories.every((c: any) => c.is_active === false)).toBe(true);
    expect(inactive.expense_categories.map((c: any) => c.name)).toContain('Retired');
    const active = (await api(w.member, 'GET', '/api/v2/expense_categories?is_active=true')).json();
    expect(active.expense_categories.some((c: any) => c.name === 'Retired')).toBe(false);
    const page = (await api(w.member, 'GET', '/api/v2/expense_categories?per_page=2&page=2')).json();
    expect(page.expense_categories).toHaveLength(2);
    expect(page.links.previous).toContain('page=1');
    for (const q of ['is_active=', 'is_active=yes', 'per_page=0', 'per_page=2001', 'page=0', 'colour=red', 'is_active=true&is_active=false']) {
      expect((await api(w.member, 'GET', `/api/v2/expense_categories?${q}`)).statusCode, q).toBe(400);
    }
  });

  it('never shows another workspace\'s categories; refuses personal keys and anonymous callers', async () => {
    const ids = (await api(w.owner, 'GET', '/api/v2/expense_categories?per_page=2000')).json().expense_categories.map((c: any) => c.id);
    expect(ids).not.toContain(foreign.travel);
    expect((await api(w.memberPersonal, 'GET', '/api/v2/expense_categories')).statusCode).toBe(403);
    expect((await api(null, 'GET', '/api/v2/expense_categories')).statusCode).toBe(401);
  });
});

describe('GET /api/v2/expense_categories/:id', () => {
  it('returns one category with an ETag; foreign, unknown and malformed ids are 404', async () => {
    const res = await api(w.member, 'GET', `/api/v2/expense_categories/${w.tokens}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: w.tokens, name: 'Tokens', unit_name: '1K tokens', unit_price: 0.0025 });
    expect(res.headers.etag).toMatch(/^"/);
    for (const id of [foreign.travel, newId(), 'nope']) {
      const miss = await api(w.owner, 'GET', `/api/v2/expense_categories/${id}`);
      expect(miss.statusCode, id).toBe(404);
      expect(miss.json().error).toBe('not_found');
    }
    expect((await api(w.memberPersonal, 'GET', `/api/v2/expense_categories/${w.tokens}`)).statusCode).toBe(403);
  });
});

describe('POST /api/v2/expense_categories', () => {
  it('owners, administrators and managers with Edit clients and tasks create; 201 with Location and ETag', async () => {
    for (const caller of [w.owner, w.admin, w.mgrCats]) {
      const name = unique('Hotel');
      const res = await api(caller, 'POST', '/api/v2/expense_categories', { name: `  ${name}  ` });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ name, unit_name: null, unit_price: null, is_active: true });
      expect(Object.keys(body).sort()).toEqual(FIELDS);
      expect(res.headers.location).toBe(`/api/v2/expense_categories/${body.id}`);
      expect(res.headers.etag).toMatch(/^"/);
      const row = await ctx.db.selectFrom('expense_categories').select('company_id').where('id', '=', body.id).executeTakeFirstOrThrow();
      expect(row.company_id).toBe(w.companyId);
    }
    const priced = await api(w.owner, 'POST', '/api/v2/expense_categories', { name: unique('GPT'), unit_name: '1M tokens', unit_price: 2.5, is_active: false });
    expect(priced.statusCode).toBe(201);
    expect(priced.json()).toMatchObject({ unit_name: '1M tokens', unit_price: 2.5, is_active: false });
    const fine = await api(w.owner, 'POST', '/api/v2/expense_categories', { name: unique('Per token'), unit_name: 'token', unit_price: 0.000003 });
    expect(fine.json().unit_price).toBe(0.000003);
    const audit = await ctx.db.selectFrom('audit_logs').select(['action', 'actor_user_id']).where('subject_id', '=', priced.json().id).execute();
    expect(audit).toEqual([{ action: 'expense_category.created', actor_user_id: w.owner.userId }]);
  });

  it('refuses managers without the permission, members, contractors and personal keys (403), changing nothing', async () => {
    const before = await ctx.db.selectFrom('expense_categories').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    for (const caller of [w.manager, w.member, w.contractor, w.memberPersonal]) {
      const res = await api(caller, 'POST', '/api/v2/expense_categories', { name: unique() });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    const after = await ctx.db.selectFrom('expense_categories').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('names are unique in the workspace ignoring case (409), but may repeat across workspaces', async () => {
    const dup = await api(w.owner, 'POST', '/api/v2/expense_categories', { name: 'travel' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ error: 'conflict', field: 'name' });
    const llm = await api(w.owner, 'POST', '/api/v2/expense_categories', { name: 'LLM USAGE' });
    expect(llm.statusCode).toBe(409);
    const shared = unique('Shared');
    expect((await api(w.owner, 'POST', '/api/v2/expense_categories', { name: shared })).statusCode).toBe(201);
    expect((await api(foreign.owner, 'POST', '/api/v2/expense_categories', { name: shared })).statusCode).toBe(201);
  });

  it('bad input per field is a 400 naming it', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(256) }, 'name'],
      [{ name: 5 }, 'name'],
      [{ name: unique(), unit_name: 'km' }, 'unit_price'],
      [{ name: unique(), unit_price: 1 }, 'unit_name'],
      [{ name: unique(), unit_name: 'km', unit_price: -1 }, 'unit_price'],
      [{ name: unique(), unit_name: 'km', unit_price: '1' }, 'unit_price'],
      [{ name: unique(), unit_name: 'km', unit_price: 0.0000001 }, 'unit_price'],
      [{ name: unique(), unit_name: 'km', unit_price: 100000000 }, 'unit_price'],
      [{ name: unique(), unit_name: 'k'.repeat(65), unit_price: 1 }, 'unit_name'],
      [{ name: unique(), unit_name: 3, unit_price: 1 }, 'unit_name'],
      [{ name: unique(), is_active: 'yes' }, 'is_active'],
      [{ name: unique(), colour: 'red' }, 'colour'],
      [{ name: unique(), id: newId() }, 'id'],
      [{ name: unique(), created_at: '2024-01-01T00:00:00Z' }, 'created_at'],
      [{ name: 'a\u0000b' }, 'name'], // PostgreSQL text cannot hold NUL: a 400, never a 500
      [{ name: unique(), unit_name: 'k\u0000m', unit_price: 1 }, 'unit_name'],
      [{ name: unique(), unit_name: 'km', unit_price: 1e308 }, 'unit_price'],
      [{ name: unique(), unit_name: 'km', unit_price: 5e-324 }, 'unit_price'],
    ];
    for (const [body, field] of cases) {
      const res = await api(w.owner, 'POST', '/api/v2/expense_categories', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field, JSON.stringify(body)).toBe(field);
    }
    const blankUnit = await api(w.owner, 'POST', '/api/v2/expense_categories', { name: unique(), unit_name: '  ', unit_price: 1 });
    expect(blankUnit.statusCode).toBe(400);
    expect(blankUnit.json().field).toBe('unit_name');
    const free = await api(w.owner, 'POST', '/api/v2/expense_categories', { name: unique(), unit_name: '   ', unit_price: null });
    expect(free.statusCode).toBe(201);
    expect(free.json().unit_name).toBeNull();
  });

  it('accepts an Idempotency-Key: a replay returns the first response and creates nothing', async () => {
    const key = `cat-${Date.now()}`;
    const body = { name: unique('Idem') };
    const first = await api(w.owner, 'POST', '/api/v2/expense_categories', body, { 'idempotency-key': key });
    const again = await api(w.owner, 'POST', '/api/v2/expense_categories', body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});

describe('PATCH /api/v2/expense_categories/:id', () => {
  async function fresh(body: Record<string, unknown> = {}) {
    return (await api(w.owner, 'POST', '/api/v2/expense_categories', { name: unique('Patch'), ...body })).json();
  }

  it('renames, sets and clears the unit, archives and restores', async () => {
    const cat = await fresh();
    const renamed = await api(w.mgrCats, 'PATCH', `/api/v2/expense_categories/${cat.id}`, { name: `${cat.name} 2` });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe(`${cat.name} 2`);
    expect(renamed.headers.etag).toMatch(/^"/);
    const unit = await api(w.admin, 'PATCH', `/api/v2/expense_categories/${cat.id}`, { unit_name: 'night', unit_price: 120 });
    expect(unit.json()).toMatchObject({ unit_name: 'night', unit_price: 120 });
    const price = await api(w.admin, 'PATCH', `/api/v2/expense_categories/${cat.id}`, { unit_price: 99.99 });
    expect(price.json()).toMatchObject({ unit_name: 'night', unit_price: 99.99 });
    const half = await api(w.admin, 'PATCH', `/api/v2/expense_categories/${cat.id}`, { unit_price: null });
    expect(half.statusCode).toBe(400);
    expect(half.json().field).toBe('unit_price');
    const cleared = await api(w.admin, 'PATCH', `/api/v2/expense_categories/${cat.id}`, { unit_price: null, unit_name: null });
    expect(cleared.json()).toMatchObject({ unit_name: null, unit_price: null });
    const archived = await api(w.owner, 'PATCH', `/api/v2/expense_categories/${cat.id}`, { is_active: false });
    expect(archived.json().is_active).toBe(false);
    const restored = await api(w.owner, 'PATCH', `/api/v2/expense_categories/${cat.id}`, { is_active: true });
    expect(restored.json().is_active).toBe(true);
    const actions = await ctx.db.selectFrom('audit_logs').select('action').where('subject_id', '=', cat.id).orderBy('occurred_at').orderBy('id').execute();
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['expense_category.created', 'expense_category.updated', 'expense_category.archived', 'expense_category.restored']),
    );
  });

  it('a PATCH that changes nothing writes nothing; renaming onto another name is 409', async () => {
    const cat = await fresh({ unit_name: 'x', unit_price: 1.5 });
    ctx.clock.advance(5000);
    const same = await api(w.owner, 'PATCH', `/api/v2/expense_categories/${cat.id}`, { name: cat.name, unit_price: 1.50 });
    expect(same.statusCode).toBe(200);
    expect(same.json().updated_at).toBe(cat.updated_at);
    const clash = await api(w.owner, 'PATCH', `/api/v2/expense_categories/${cat.id}`, { name: 'MILEAGE' });
    expect(clash.statusCode).toBe(409);
    const own = await api(w.owner, 'PATCH', `/api/v2/expense_categories/${cat.id}`, { name: cat.name.toUpperCase() });
    expect(own.statusCode).toBe(200);
  });

  it('refuses empty and bad bodies, foreign and unknown ids (404), and callers without the permission (403)', async () => {
    const cat = await fresh();
    const empty = await api(w.owner, 'PATCH', `/api/v2/expense_categories/${cat.id}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/at least one/);
    for (const [body, field] of [
      [{ name: '' }, 'name'],
      [{ name: 'x\u0000' }, 'name'],
      [{ unit_name: '\u0000', unit_price: 1 }, 'unit_name'],
      [{ unit_price: -2, unit_name: 'x' }, 'unit_price'],
      [{ is_active: null }, 'is_active'],
      [{ updated_at: 'x' }, 'updated_at'],
      [{ nope: 1 }, 'nope'],
    ] as const) {
      const res = await api(w.owner, 'PATCH', `/api/v2/expense_categories/${cat.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field).toBe(field);
    }
    for (const id of [foreign.travel, newId(), 'x']) {
      expect((await api(w.owner, 'PATCH', `/api/v2/expense_categories/${id}`, { name: unique() })).statusCode, id).toBe(404);
    }
    expect((await api(foreign.owner, 'PATCH', `/api/v2/expense_categories/${w.travel}`, { name: unique() })).statusCode).toBe(404);
    for (const caller of [w.manager, w.member, w.contractor, w.memberPersonal]) {
      expect((await api(caller, 'PATCH', `/api/v2/expense_categories/${cat.id}`, { name: unique() })).statusCode).toBe(403);
    }
  });
});

// ---------------------------------------------------------------- sheaf admin expense-category

describe('sheaf admin expense-category', () => {
  const dataDir = migratedDataDir();
  const schema = DATABASE_URL ? uniqueSchema() : undefined;
  const env: Record<string, string | undefined> = schema
    ? { DATABASE_URL, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent' }
    : { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  let ws: string;
  let otherWs: string;
  /** The commands share one open database (test/cli-runner.ts) instead of opening it each. */
  const shared = new SharedDatabase();

  async function sheaf(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env, openDatabase: shared.open });
    const parse = (text: string) => {
      try {
        return JSON.parse(text);
      } catch {
        return undefined;
      }
    };
    return { code, out: out.join('\n'), err: err.join('\n'), json: parse(out.join('\n')), error: parse(err.join('\n')) };
  }

  beforeAll(async () => {
    ws = (await sheaf('admin', 'workspace', 'create', '--name', 'CLI Expenses', '--json')).json.id;
    otherWs = (await sheaf('admin', 'workspace', 'create', '--name', 'CLI Other', '--json')).json.id;
  }, 120_000);

  afterAll(async () => {
    await shared.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (schema) await dropSchema(schema);
  });

  it('a new workspace lists its starter categories, LLM usage among them (issue 21)', async () => {
    const list = await sheaf('admin', 'expense-category', 'list', '--workspace', ws, '--json');
    expect(list.code).toBe(0);
    expect(list.json.map((c: any) => c.name)).toEqual(['Equipment', 'LLM usage', 'Meals', 'Mileage', 'Software and subscriptions', 'Travel']);
  });

  it('creates, updates (by id or name) and lists, in JSON and text', async () => {
    const created = await sheaf('admin', 'expense-category', 'create', '--workspace', ws, '--name', 'Car mileage', '--unit-name', 'km', '--unit-price', '0.58', '--json');
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ name: 'Car mileage', unit_name: 'km', unit_price: 0.58, is_active: true });
    const text = await sheaf('admin', 'expense-category', 'create', '--workspace', ws, '--name', 'Parking');
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/name\s+Parking/);
    const byName = await sheaf('admin', 'expense-category', 'update', '--workspace', ws, '--category', 'car mileage', '--unit-price', '0.6', '--json');
    expect(byName.json).toMatchObject({ name: 'Car mileage', unit_price: 0.6 });
    const byId = await sheaf('admin', 'expense-category', 'update', '--workspace', ws, '--category', created.json.id, '--active', 'false', '--json');
    expect(byId.json.is_active).toBe(false);
    const cleared = await sheaf('admin', 'expense-category', 'update', '--workspace', ws, '--category', 'Car mileage', '--unit-name', 'none', '--unit-price', 'none', '--json');
    expect(cleared.json).toMatchObject({ unit_name: null, unit_price: null });
    const list = await sheaf('admin', 'expense-category', 'list', '--workspace', ws, '--json');
    expect(list.json.map((c: any) => c.name)).toEqual(['Car mileage', 'Equipment', 'LLM usage', 'Meals', 'Mileage', 'Parking', 'Software and subscriptions', 'Travel']);
    expect((await sheaf('admin', 'expense-category', 'list', '--workspace', ws, '--active', 'false', '--json')).json.map((c: any) => c.name)).toEqual(['Car mileage']);
    const listText = await sheaf('admin', 'expense-category', 'list', '--workspace', ws);
    expect(listText.out.split('\n')[0]).toMatch(/^id\s+name\s+unit_name\s+unit_price\s+is_active/);
    expect((await sheaf('admin', 'expense-category', 'list', '--workspace', otherWs, '--json')).json.map((c: any) => c.name)).toEqual(['Equipment', 'LLM usage', 'Meals', 'Mileage', 'Software and subscriptions', 'Travel']);
  });

  it('bad options exit 2, unknown references 3, duplicates 4, changing nothing', async () => {
    for (const args of [
      ['create', '--workspace', ws, '--name', '  '],
      ['create', '--workspace', ws, '--name', 'X', '--unit-name', 'km'],
      ['create', '--workspace', ws, '--name', 'X', '--unit-price', '1'],
      ['create', '--workspace', ws, '--name', 'X', '--unit-name', 'km', '--unit-price', 'ten'],
      ['create', '--workspace', ws, '--name', 'X', '--unit-name', 'km', '--unit-price=-1'],
      ['create', '--workspace', ws, '--name', 'X', '--unit-name', 'km', '--unit-price', '0.0000001'],
      ['create', '--workspace', ws, '--name', 'X', '--active', 'maybe'],
      ['create', '--workspace', 'nope', '--name', 'X'],
      ['create', '--workspace', ws],
      ['create', '--workspace', ws, '--name', 'X', '--colour', 'red'],
      ['update', '--workspace', ws, '--category', 'Parking'],
      ['update', '--workspace', ws, '--name', 'Y'],
      ['update', '--workspace', ws, '--category', 'Parking', '--unit-price', 'x'],
    ]) {
      const res = await sheaf('admin', 'expense-category', ...args, '--json');
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.error.error).toBe('usage');
    }
    const lone = await sheaf('admin', 'expense-category', 'create', '--workspace', ws, '--name', 'X', '--unit-name', 'km');
    expect(lone.err).toMatch(/--unit-price/);
    // A lone price on a category without a unit is refused when it runs (the pair is checked on the stored row).
    const half = await sheaf('admin', 'expense-category', 'update', '--workspace', ws, '--category', 'Parking', '--unit-price', '3', '--json');
    expect(half.code).toBe(2);
    expect(half.error.message).toMatch(/--unit-name/);
    expect((await sheaf('admin', 'expense-category', 'update', '--workspace', ws, '--category', 'Nope', '--name', 'Y', '--json')).code).toBe(3);
    expect((await sheaf('admin', 'expense-category', 'update', '--workspace', otherWs, '--category', 'Parking', '--name', 'Y', '--json')).code).toBe(3);
    expect((await sheaf('admin', 'expense-category', 'list', '--workspace', newId(), '--json')).code).toBe(3);
    const dup = await sheaf('admin', 'expense-category', 'create', '--workspace', ws, '--name', 'PARKING', '--json');
    expect(dup.code).toBe(4);
    expect(dup.error.message).toMatch(/already exists/);
    const rename = await sheaf('admin', 'expense-category', 'update', '--workspace', ws, '--category', 'Parking', '--name', 'llm usage', '--json');
    expect(rename.code).toBe(4);
    expect((await sheaf('admin', 'expense-category', 'list', '--workspace', ws, '--json')).json.map((c: any) => c.name)).toEqual(['Car mileage', 'Equipment', 'LLM usage', 'Meals', 'Mileage', 'Parking', 'Software and subscriptions', 'Travel']);
  });
});
