import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import {
  assign,
  insertApprovedTime,
  insertCategory,
  insertProject,
  insertExpenseRow,
  makeExpenseWorkspace,
  type ExpenseWorkspace,
} from './fixtures/expenses-catalog.ts';
import { addMember, createTestContext, request, type Caller, type TestContext } from './helpers.ts';
import { operatorPrincipal } from '../src/access/operator.ts';

/**
 * Expenses (spec: Expense, Expenses endpoints; issue 4 items 6 and 7): create
 * with total_cost or units × unit price, list with every filter, read, update,
 * delete, the locks (approved or billed, and the approved week), and who may
 * see and write whose expenses, for every identity. Receipts are in
 * receipts.test.ts, categories in expense-categories.test.ts.
 */

const FIELDS = [
  'approval_status',
  'billable',
  'created_at',
  'expense_category',
  'expense_category_id',
  'id',
  'is_billed',
  'is_closed',
  'is_locked',
  'metadata',
  'notes',
  'project_id',
  'receipt',
  'receipt_download_url',
  'source',
  'spent_date',
  'total_cost',
  'units',
  'updated_at',
  'user_id',
];

let ctx: TestContext;
let w: ExpenseWorkspace;
let foreign: ExpenseWorkspace;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
function api(caller: Caller | null, method: Method, url: string, body?: unknown, headers: Record<string, string> = {}) {
  return request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object), headers });
}

/** Creates an expense through the API (defaults: projectA, Travel, 10.00 on 2024-05-06). */
async function create(caller: Caller, body: Record<string, unknown> = {}) {
  const payload: Record<string, unknown> = { project_id: w.projectA, expense_category_id: w.travel, spent_date: '2024-05-06', ...body };
  if (!('units' in body) && !('total_cost' in body)) payload.total_cost = 10;
  for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
  return api(caller, 'POST', '/api/v2/expenses', payload);
}

async function created(caller: Caller, body: Record<string, unknown> = {}) {
  const res = await create(caller, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeExpenseWorkspace(ctx.db, 'Expenses Co');
  foreign = await makeExpenseWorkspace(ctx.db, 'Foreign Co');
}, 120_000);
afterAll(() => ctx.close());

describe('POST /api/v2/expenses', () => {
  it('creates the caller\'s expense with total_cost: 201, Location, ETag, every field, defaults', async () => {
    const res = await create(w.member, { total_cost: 12.3, notes: 'Taxi to client' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(FIELDS);
    expect(body).toMatchObject({
      user_id: w.member.userId,
      project_id: w.projectA,
      expense_category_id: w.travel,
      expense_category: { id: w.travel, name: 'Travel', unit_name: null, unit_price: null },
      spent_date: '2024-05-06',
      units: null,
      total_cost: 12.3,
      notes: 'Taxi to client',
      billable: true,
      is_billed: false,
      is_locked: false,
      is_closed: false,
      approval_status: 'unsubmitted',
      source: 'api',
      metadata: null,
      receipt: null,
      receipt_download_url: null,
    });
    expect(res.headers.location).toBe(`/api/v2/expenses/${body.id}`);
    expect(res.headers.etag).toMatch(/^"/);
    expect(body.created_at).toBe(ctx.clock.now().toISOString());
    const row = await ctx.db.selectFrom('expenses').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ company_id: w.companyId, total_cost: '12.30', units: null, created_by: w.member.userId });
    const audit = await ctx.db.selectFrom('audit_logs').select(['action', 'actor_user_id']).where('subject_id', '=', body.id).execute();
    expect(audit).toEqual([{ action: 'expense.created', actor_user_id: w.member.userId }]);
    const read = await api(w.member, 'GET', `/api/v2/expenses/${body.id}`);
    expect(read.headers.etag).toBe(res.headers.etag);
    expect(read.json()).toEqual(body);
  });

  it('stores every source, billable false, metadata and blank notes as null', async () => {
    for (const source of ['web', 'cli', 'api', 'agent']) {
      expect((await created(w.member, { source })).source).toBe(source);
    }
    const e = await created(w.member, { billable: false, metadata: { model: 'gpt-4o', tokens: { in: 1200, out: 300 } }, notes: '   ' });
    expect(e).toMatchObject({ billable: false, metadata: { model: 'gpt-4o', tokens: { in: 1200, out: 300 } }, notes: null });
    const nullMeta = await created(w.member, { metadata: null, notes: null });
    expect(nullMeta).toMatchObject({ metadata: null, notes: null });
  });

  it('units × unit price, in decimals, rounded half up to the currency minor unit', async () => {
    const cases: Array<[string, number, number]> = [
      [w.mileage, 12.5, 7.25],
      [w.mileage, 1.15, 0.67],
      [w.tokens, 1, 0],
      [w.tokens, 2, 0.01], // 0.005 rounds up, not to even
      [w.tokens, 3, 0.01],
      [w.tokens, 1234.5678, 3.09],
    ];
    for (const [category, units, total] of cases) {
      const e = await created(w.member, { expense_category_id: category, units });
      expect(e.units, `${units}`).toBe(units);
      expect(e.total_cost, `${units}`).toBe(total);
    }
    // 1.005 is 1.00499999… as a binary float; in decimals it rounds half up to 1.01.
    const tricky = await insertCategory(ctx.db, w.companyId, { name: 'Tricky', unitName: 'u', unitPrice: '1.005' });
    expect((await created(w.member, { expense_category_id: tricky, units: 1 })).total_cost).toBe(1.01);
    const mileage = await created(w.member, { expense_category_id: w.mileage, units: 3 });
    expect(mileage.expense_category).toEqual({ id: w.mileage, name: 'Mileage', unit_name: 'km', unit_price: 0.58 });
    const row = await ctx.db.selectFrom('expenses').select(['units', 'total_cost']).where('id', '=', mileage.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ units: '3.0000', total_cost: '1.74' });
  });

  it('amounts follow the project client\'s currency (JPY has no minor unit)', async () => {
    const yen = await created(w.member, { project_id: w.projectJpy, total_cost: 1200 });
    expect(yen.total_cost).toBe(1200);
    const cents = await create(w.member, { project_id: w.projectJpy, total_cost: 1200.5 });
    expect(cents.statusCode).toBe(400);
    expect(cents.json()).toMatchObject({ field: 'total_cost' });
    expect(cents.json().message).toMatch(/JPY/);
    const km = await created(w.member, { project_id: w.projectJpy, expense_category_id: w.mileage, units: 12.5 });
    expect(km.total_cost).toBe(7); // 7.25 → 7
    const half = await insertCategory(ctx.db, w.companyId, { name: 'Half yen', unitName: 'u', unitPrice: '2.5' });
    expect((await created(w.member, { project_id: w.projectJpy, expense_category_id: half, units: 1 })).total_cost).toBe(3);
  });

  it('exactly one of total_cost and units', async () => {
    const both = await create(w.member, { total_cost: 5, units: 2, expense_category_id: w.mileage });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toMatch(/not both/);
    const neither = await api(w.member, 'POST', '/api/v2/expenses', { project_id: w.projectA, expense_category_id: w.travel, spent_date: '2024-05-06' });
    expect(neither.statusCode).toBe(400);
    expect(neither.json().message).toMatch(/exactly one of total_cost or units/);
    const noPrice = await create(w.member, { units: 2 });
    expect(noPrice.statusCode).toBe(400);
    expect(noPrice.json()).toMatchObject({ field: 'units' });
    expect(noPrice.json().message).toMatch(/no unit price/);
  });

  it('bad input per field is a 400 naming it, and nothing is created', async () => {
    const before = await ctx.db.selectFrom('expenses').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ project_id: undefined }, 'project_id'],
      [{ project_id: '' }, 'project_id'],
      [{ project_id: 'not-an-id' }, 'project_id'],
      [{ project_id: newId() }, 'project_id'],
      [{ project_id: foreign.projectA }, 'project_id'],
      [{ project_id: 7 }, 'project_id'],
      [{ project_id: w.archived }, 'project_id'],
      [{ project_id: w.projectB }, 'project_id'], // member not assigned
      [{ expense_category_id: undefined }, 'expense_category_id'],
      [{ expense_category_id: newId() }, 'expense_category_id'],
      [{ expense_category_id: foreign.travel }, 'expense_category_id'],
      [{ expense_category_id: 'travel' }, 'expense_category_id'],
      [{ expense_category_id: w.retired }, 'expense_category_id'],
      [{ spent_date: undefined }, 'spent_date'],
      [{ spent_date: '' }, 'spent_date'],
      [{ spent_date: '2024-02-30' }, 'spent_date'],
      [{ spent_date: '2024-5-6' }, 'spent_date'],
      [{ spent_date: '06/05/2024' }, 'spent_date'],
      [{ spent_date: 20240506 }, 'spent_date'],
      [{ spent_date: '1899-12-31' }, 'spent_date'],
      [{ spent_date: '3000-01-01' }, 'spent_date'],
      [{ spent_date: '9999-12-31' }, 'spent_date'], // its week would end in the year 10000
      [{ spent_date: '0000-01-01' }, 'spent_date'],
      [{ total_cost: -1 }, 'total_cost'],
      [{ total_cost: '10' }, 'total_cost'],
      [{ total_cost: 1.234 }, 'total_cost'],
      [{ total_cost: 1e12 }, 'total_cost'],
      [{ total_cost: null }, 'total_cost'],
      [{ total_cost: 1e308 }, 'total_cost'],
      [{ total_cost: 5e-324 }, 'total_cost'],
      [{ expense_category_id: w.mileage, units: 1e300 }, 'units'],
      [{ expense_category_id: w.mileage, units: 5e-324 }, 'units'],
      [{ expense_category_id: w.mileage, units: Number.MAX_SAFE_INTEGER }, 'units'],
      [{ expense_category_id: w.mileage, units: 0 }, 'units'],
      [{ expense_category_id: w.mileage, units: -2 }, 'units'],
      [{ expense_category_id: w.mileage, units: 1.23456 }, 'units'],
      [{ expense_category_id: w.mileage, units: 1e8 }, 'units'],
      [{ expense_category_id: w.mileage, units: '2' }, 'units'],
      [{ notes: 'x'.repeat(10001) }, 'notes'],
      [{ notes: 5 }, 'notes'],
      [{ notes: 'a\u0000b' }, 'notes'],
      [{ billable: 'yes' }, 'billable'],
      [{ billable: null }, 'billable'],
      [{ source: 'calendar' }, 'source'],
      [{ source: '' }, 'source'],
      [{ metadata: [1, 2] }, 'metadata'],
      [{ metadata: 'text' }, 'metadata'],
      [{ metadata: { blob: 'x'.repeat(4100) } }, 'metadata'],
      [{ user_id: '' }, 'user_id'],
      [{ is_billed: true }, 'is_billed'],
      [{ is_locked: false }, 'is_locked'],
      [{ approval_status: 'approved' }, 'approval_status'],
      [{ id: newId() }, 'id'],
      [{ receipt: 'abc' }, 'receipt'],
      [{ delete_receipt: true }, 'delete_receipt'],
      [{ task_id: newId() }, 'task_id'],
    ];
    for (const [body, field] of cases) {
      const res = await create(w.member, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().field, JSON.stringify(body).slice(0, 80)).toBe(field);
      expect(typeof res.json().message).toBe('string');
    }
    const exactly4k = { k: 'x'.repeat(4096 - JSON.stringify({ k: '' }).length) };
    expect((await create(w.member, { metadata: exactly4k })).statusCode).toBe(201);
    expect((await api(w.member, 'POST', '/api/v2/expenses', [1])).statusCode).toBe(400);
    const text = await request(ctx.app, w.member, { method: 'POST', url: '/api/v2/expenses', payload: 'x', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);
    const after = await ctx.db.selectFrom('expenses').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n) + 1);
  });

  it('the extreme valid values are stored exactly; -0 is 0; units × price beyond the column is 400 naming units', async () => {
    const max = await created(w.member, { total_cost: 999999999999.99 });
    expect(max.total_cost).toBe(999999999999.99);
    const row = await ctx.db.selectFrom('expenses').select('total_cost').where('id', '=', max.id).executeTakeFirstOrThrow();
    expect(row.total_cost).toBe('999999999999.99');
    expect((await created(w.member, { spent_date: '1900-01-01' })).spent_date).toBe('1900-01-01');
    expect((await created(w.member, { spent_date: '2999-12-31' })).spent_date).toBe('2999-12-31');
    // A JSON -0 (JSON.stringify writes 0, so the body is written by hand).
    const negativeZero = await request(ctx.app, w.member, {
      method: 'POST',
      url: '/api/v2/expenses',
      headers: { 'content-type': 'application/json' },
      payload: `{"project_id":"${w.projectA}","expense_category_id":"${w.travel}","spent_date":"2024-05-06","total_cost":-0}`,
    });
    expect(negativeZero.statusCode, negativeZero.body).toBe(201);
    expect(negativeZero.json().total_cost).toBe(0);
    // 1e999 parses to Infinity: a 400, never a 500.
    const infinite = await request(ctx.app, w.member, {
      method: 'POST',
      url: '/api/v2/expenses',
      headers: { 'content-type': 'application/json' },
      payload: `{"project_id":"${w.projectA}","expense_category_id":"${w.mileage}","spent_date":"2024-05-06","units":1e999}`,
    });
    expect(infinite.statusCode).toBe(400);
    expect(infinite.json().field).toBe('units');
    const most = await created(w.member, { expense_category_id: w.mileage, units: 99999999.9999 });
    expect(most).toMatchObject({ units: 99999999.9999, total_cost: 58000000 }); // 57,999,999.999942 rounded half up
    const dear = await insertCategory(ctx.db, w.companyId, { name: 'Dear', unitName: 'u', unitPrice: '99999999.999999' });
    const overflow = await create(w.member, { expense_category_id: dear, units: 99999999.9999 });
    expect(overflow.statusCode).toBe(400);
    expect(overflow.json().field).toBe('units');
    expect(overflow.json().message).toMatch(/more than 999999999999\.99/);
  });

  it('a body over 128 KiB is 413 payload_too_large and creates nothing', async () => {
    const before = await ctx.db.selectFrom('expenses').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const res = await create(w.member, { notes: 'x'.repeat(129 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('payload_too_large');
    const patchBig = await api(w.member, 'PATCH', `/api/v2/expenses/${(await created(w.member)).id}`, { metadata: { k: 'x'.repeat(129 * 1024) } });
    expect(patchBig.statusCode).toBe(413);
    const after = await ctx.db.selectFrom('expenses').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n) + 1);
  });

  it("billable defaults to the project's is_billable (as a time entry's does); the body overrides either way", async () => {
    const internal = await insertProject(ctx.db, w.companyId, w.clientId);
    await ctx.db.updateTable('projects').set({ is_billable: false }).where('id', '=', internal).execute();
    await assign(ctx.db, w.companyId, internal, w.member.userId);
    expect((await created(w.member)).billable).toBe(true);
    const onInternal = await created(w.member, { project_id: internal });
    expect(onInternal.billable).toBe(false);
    expect((await created(w.member, { project_id: internal, billable: true })).billable).toBe(true);
    expect((await created(w.member, { billable: false })).billable).toBe(false);
    // Moved without `billable`: the new project's default; with it: as sent; other changes keep it.
    const patch = (id: string, body: Record<string, unknown>) => api(w.member, 'PATCH', `/api/v2/expenses/${id}`, body);
    expect((await patch(onInternal.id, { project_id: w.projectA })).json().billable).toBe(true);
    expect((await patch(onInternal.id, { project_id: internal, billable: true })).json().billable).toBe(true);
    expect((await patch(onInternal.id, { notes: 'kept' })).json().billable).toBe(true);
    expect((await patch(onInternal.id, { project_id: w.projectA })).json().billable).toBe(true);
    expect((await patch(onInternal.id, { project_id: internal })).json().billable).toBe(false);
  });

  it('accepts an Idempotency-Key: a replay returns the first response byte for byte', async () => {
    const key = `expense-${Date.now()}`;
    const body = { project_id: w.projectA, expense_category_id: w.travel, spent_date: '2024-05-07', total_cost: 3 };
    const first = await api(w.member, 'POST', '/api/v2/expenses', body, { 'idempotency-key': key });
    const again = await api(w.member, 'POST', '/api/v2/expenses', body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const other = await api(w.member, 'POST', '/api/v2/expenses', { ...body, total_cost: 4 }, { 'idempotency-key': key });
    expect(other.statusCode).toBe(409);
  });
});

describe('who may record expenses for whom (issue 4 item 7)', () => {
  const forPerson = (caller: Caller, person: Caller, project: string) => create(caller, { user_id: person.userId, project_id: project });

  it('owners and administrators: anyone assigned to the project, without being assigned themselves', async () => {
    for (const caller of [w.owner, w.admin]) {
      const res = await forPerson(caller, w.member, w.projectA);
      expect(res.statusCode).toBe(201);
      expect(res.json().user_id).toBe(w.member.userId);
      const row = await ctx.db.selectFrom('expenses').select('created_by').where('id', '=', res.json().id).executeTakeFirstOrThrow();
      expect(row.created_by).toBe(caller.userId);
      expect((await forPerson(caller, w.other, w.projectB)).statusCode).toBe(201);
    }
    const unassigned = await forPerson(w.admin, w.member, w.projectB);
    expect(unassigned.statusCode).toBe(400);
    expect(unassigned.json()).toMatchObject({ field: 'user_id' });
    expect(unassigned.json().message).toMatch(/not assigned/);
  });

  it('owners and administrators record their own expenses on any active project, assigned or not (issue 13 item 1)', async () => {
    for (const caller of [w.owner, w.admin]) {
      const own = await created(caller, { project_id: w.projectB });
      expect(own).toMatchObject({ user_id: caller.userId, project_id: w.projectB });
      // Moving an expense onto a project they are not assigned to: the same rule.
      const moved = await api(caller, 'PATCH', `/api/v2/expenses/${(await created(caller)).id}`, { project_id: w.projectB });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json().project_id).toBe(w.projectB);
      const archived = await create(caller, { project_id: w.archived });
      expect(archived.statusCode).toBe(400);
      expect(archived.json()).toMatchObject({ field: 'project_id' });
    }
    // For another owner or administrator, too (the person's rule: they see every project).
    const forOwner = await forPerson(w.admin, w.owner, w.projectB);
    expect(forOwner.statusCode, forOwner.body).toBe(201);
    expect(forOwner.json().user_id).toBe(w.owner.userId);
    // Members still need their assignment.
    const member = await create(w.member, { project_id: w.projectB });
    expect(member.statusCode).toBe(400);
    expect(member.json()).toMatchObject({ field: 'project_id' });
  });

  it('managers: their teammates (even on projects they are not on) and anyone on projects they manage; nobody else', async () => {
    expect((await forPerson(w.manager, w.member, w.projectA)).statusCode).toBe(201);
    expect((await forPerson(w.manager, w.member, w.projectJpy)).statusCode).toBe(201);
    expect((await forPerson(w.manager, w.other, w.projectB)).statusCode).toBe(201);
    const notTeammate = await forPerson(w.manager, w.other, w.projectA);
    expect(notTeammate.statusCode).toBe(403);
    expect(notTeammate.json().error).toBe('forbidden');
    expect((await forPerson(w.manager, w.contractor, w.projectA)).statusCode).toBe(403);
    expect((await forPerson(w.mgrCats, w.member, w.projectA)).statusCode).toBe(403);
    expect((await forPerson(w.manager, w.manager, w.projectA)).statusCode).toBe(201);
  });

  it('members and contractors: only themselves (naming themselves is fine)', async () => {
    for (const [caller, person] of [
      [w.member, w.other],
      [w.member, w.owner],
      [w.contractor, w.member],
      [w.other, w.contractor],
    ] as const) {
      const res = await forPerson(caller, person, w.projectA);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    expect((await forPerson(w.member, w.member, w.projectA)).statusCode).toBe(201);
    expect((await created(w.contractor)).user_id).toBe(w.contractor.userId);
  });

  it('the person must be an active internal member of the workspace (400 naming user_id)', async () => {
    const client = await createMember(ctx.db, operatorPrincipal(w.companyId), { email: `client.${newId()}@example.com`, first_name: 'Cli', role: 'client' });
    const gone = await addMember(ctx.db, w.companyId, { role: 'member' });
    await ctx.db.updateTable('memberships').set({ is_active: false }).where('company_id', '=', w.companyId).where('user_id', '=', gone.userId).execute();
    for (const userId of [client.user_id, gone.userId, foreign.member.userId, newId(), 'bob']) {
      const res = await create(w.owner, { user_id: userId });
      expect(res.statusCode, userId).toBe(400);
      expect(res.json().field).toBe('user_id');
    }
  });

  it('an agent identity records its own LLM usage on the seeded category; an administrator may record it for the agent', async () => {
    const agent = await addMember(ctx.db, w.companyId, { role: 'member', userType: 'agent', firstName: 'Bot' });
    await assign(ctx.db, w.companyId, w.projectA, agent.userId);
    const own = await created(agent, {
      expense_category_id: w.llmCategory,
      total_cost: 0.42,
      source: 'agent',
      metadata: { model: 'gpt-4o', input_tokens: 120000, output_tokens: 8000 },
    });
    expect(own).toMatchObject({ user_id: agent.userId, source: 'agent', total_cost: 0.42, expense_category: { name: 'LLM usage', unit_price: null } });
    expect((await created(w.admin, { user_id: agent.userId, expense_category_id: w.llmCategory, total_cost: 1.5 })).user_id).toBe(agent.userId);
    expect((await create(agent, { user_id: w.member.userId })).statusCode).toBe(403);
  });

  it('a personal sync key never writes', async () => {
    const res = await create(w.memberPersonal);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
  });
});

describe('GET /api/v2/expenses: visibility and every filter', () => {
  let l: ExpenseWorkspace;
  const ids: Record<string, string> = {};
  const call = (caller: Caller, query = '') => request(ctx.app, caller, { method: 'GET', url: `/api/v2/expenses${query}` });
  /** The listed ids; asked again one per page, the total (counted on its own) must agree. */
  const idsOf = async (caller: Caller, query = '') => {
    const res = await call(caller, query);
    expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
    const found = res.json().expenses.map((e: any) => e.id) as string[];
    if (!/[?&](page|per_page)=/.test(query)) {
      expect(res.json().total_entries).toBe(found.length);
      const counted = await call(caller, `${query}${query ? '&' : '?'}per_page=1`);
      expect(counted.json().total_entries, `total of ${query}`).toBe(found.length);
    }
    return found;
  };

  beforeAll(async () => {
    l = await makeExpenseWorkspace(ctx.db, 'List Co');
    const post = async (caller: Caller, body: Record<string, unknown>) => {
      const res = await api(caller, 'POST', '/api/v2/expenses', { expense_category_id: l.travel, total_cost: 1, ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    ids.memberA = await post(l.member, { project_id: l.projectA, spent_date: '2024-01-10', source: 'web' });
    ids.memberJpy = await post(l.member, { project_id: l.projectJpy, spent_date: '2024-01-20', source: 'cli' });
    ids.contractorA = await post(l.contractor, { project_id: l.projectA, spent_date: '2024-01-15', source: 'agent' });
    ids.otherA = await post(l.other, { project_id: l.projectA, spent_date: '2024-02-01' });
    ids.otherB = await post(l.other, { project_id: l.projectB, spent_date: '2024-02-05' });
    ids.managerA = await post(l.manager, { project_id: l.projectA, spent_date: '2024-02-10' });
    ids.mgrCatsA = await post(l.mgrCats, { project_id: l.projectA, spent_date: '2024-02-10' });
    ctx.clock.advance(60_000);
    ids.late = await post(l.member, { project_id: l.projectA, spent_date: '2024-01-10', billable: false });
    await ctx.db.updateTable('expenses').set({ is_billed: true }).where('id', '=', ids.otherB).execute();
  });

  it('owners and administrators see everyone\'s, newest spent_date first, then newest created', async () => {
    for (const caller of [l.owner, l.admin]) {
      const list = await idsOf(caller);
      expect(new Set(list)).toEqual(new Set(Object.values(ids)));
      // spent_date descending; on one date, later created first; then id descending.
      expect(list.indexOf(ids.late)).toBeLessThan(list.indexOf(ids.memberA));
      expect(list.indexOf(ids.managerA)).toBeLessThan(list.indexOf(ids.otherB));
      expect(list.at(-1)).toBe(ids.memberA);
    }
  });

  it('managers: own, teammates\' and those on projects they manage; members and contractors: their own', async () => {
    expect(new Set(await idsOf(l.manager))).toEqual(new Set([ids.managerA, ids.memberA, ids.memberJpy, ids.late, ids.otherB]));
    expect(await idsOf(l.mgrCats)).toEqual([ids.mgrCatsA]);
    expect(new Set(await idsOf(l.member))).toEqual(new Set([ids.memberA, ids.memberJpy, ids.late]));
    expect(await idsOf(l.contractor)).toEqual([ids.contractorA]);
    expect(new Set(await idsOf(l.other))).toEqual(new Set([ids.otherA, ids.otherB]));
  });

  it('each filter narrows (and never widens) what the caller sees', async () => {
    expect(new Set(await idsOf(l.owner, `?user_id=${l.member.userId}`))).toEqual(new Set([ids.memberA, ids.memberJpy, ids.late]));
    expect(await idsOf(l.member, `?user_id=${l.other.userId}`)).toEqual([]);
    expect(new Set(await idsOf(l.owner, `?project_id=${l.projectB}`))).toEqual(new Set([ids.otherB]));
    expect(await idsOf(l.owner, `?project_id=${l.projectJpy}`)).toEqual([ids.memberJpy]);
    const jpyClient = (await ctx.db.selectFrom('projects').select('client_id').where('id', '=', l.projectJpy).executeTakeFirstOrThrow()).client_id;
    expect(await idsOf(l.owner, `?client_id=${jpyClient}`)).toEqual([ids.memberJpy]);
    expect((await idsOf(l.owner, `?client_id=${l.clientId}`)).length).toBe(7);
    expect(await idsOf(l.owner, '?source=cli')).toEqual([ids.memberJpy]);
    expect(await idsOf(l.owner, '?source=agent')).toEqual([ids.contractorA]);
    expect((await idsOf(l.owner, '?source=api')).length).toBe(5);
    expect(await idsOf(l.owner, '?is_billed=true')).toEqual([ids.otherB]);
    expect((await idsOf(l.owner, '?is_billed=false')).length).toBe(7);
    expect(new Set(await idsOf(l.owner, '?from=2024-01-15&to=2024-01-20'))).toEqual(new Set([ids.contractorA, ids.memberJpy]));
    expect(new Set(await idsOf(l.owner, '?from=2024-02-05'))).toEqual(new Set([ids.otherB, ids.managerA, ids.mgrCatsA]));
    expect(new Set(await idsOf(l.owner, '?to=2024-01-10'))).toEqual(new Set([ids.memberA, ids.late]));
    expect(await idsOf(l.owner, '?from=2024-01-20&to=2024-01-20')).toEqual([ids.memberJpy]);
    const since = new Date(ctx.clock.now().getTime() - 30_000).toISOString();
    expect(await idsOf(l.owner, `?updated_since=${encodeURIComponent(since)}`)).toEqual([ids.late]);
    expect(await idsOf(l.owner, `?updated_since=${encodeURIComponent('2024-01-01T00:00:00+02:00')}`)).toHaveLength(8);
    expect(await idsOf(l.manager, `?project_id=${l.projectA}&user_id=${l.member.userId}&from=2024-01-10&to=2024-01-10&is_billed=false&source=web`)).toEqual([ids.memberA]);
    expect(await idsOf(l.manager, `?user_id=${l.contractor.userId}`)).toEqual([]);
    expect(await idsOf(l.owner, `?project_id=${foreign.projectA}`)).toEqual([]);
    expect(await idsOf(l.owner, `?user_id=${newId()}`)).toEqual([]);
    // The widest dates PostgreSQL holds are fine as bounds.
    expect((await idsOf(l.owner, '?from=0001-01-01&to=9999-12-31')).length).toBe(8);
    expect((await idsOf(l.owner, `?updated_since=${encodeURIComponent('0001-01-02T00:00:00Z')}`)).length).toBe(8);
  });

  it('paginates with the envelope and stable links', async () => {
    const first = (await call(l.owner, '?per_page=3')).json();
    expect(first).toMatchObject({ page: 1, per_page: 3, total_pages: 3, total_entries: 8 });
    expect(first.expenses).toHaveLength(3);
    expect(first.links).toMatchObject({ previous: null, first: '/api/v2/expenses?per_page=3&page=1', next: '/api/v2/expenses?per_page=3&page=2', last: '/api/v2/expenses?per_page=3&page=3' });
    const pages = [first.expenses];
    for (const page of [2, 3]) pages.push((await call(l.owner, `?per_page=3&page=${page}`)).json().expenses);
    const all = pages.flat().map((e: any) => e.id);
    expect(all).toEqual(await idsOf(l.owner));
    expect((await call(l.owner, '?page=9')).json()).toMatchObject({ expenses: [], total_entries: 8 });
    const filtered = (await call(l.owner, `?source=api&per_page=2`)).json();
    expect(filtered.links.next).toBe('/api/v2/expenses?source=api&per_page=2&page=2');
  });

  it('invalid, blank, repeated and conflicting filters are 400', async () => {
    const bad = [
      'user_id=',
      'user_id=bob',
      'project_id=',
      'project_id=12',
      'client_id=',
      'client_id=x',
      'from=',
      'from=2024-02-30',
      'from=20240101',
      'to=yesterday',
      'from=2024-02-01&to=2024-01-01',
      'is_billed=',
      'is_billed=yes',
      'is_billed=1',
      'source=',
      'source=calendar',
      'updated_since=',
      'updated_since=yesterday',
      'updated_since=2024-13-01',
      'updated_since=0000-01-01T00:00:00Z', // no year 0 in PostgreSQL
      'updated_since=9999-12-31T23:59:59-23:59', // the year 10000 in UTC
      'from=0000-01-01',
      'to=0000-12-31',
      'page=0',
      'per_page=2001',
      'per_page=x',
      'task_id=' + newId(),
      'is_running=true',
      `user_id=${l.member.userId}&user_id=${l.other.userId}`,
      'source=web&source=cli',
    ];
    for (const q of bad) {
      const res = await call(l.owner, `?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(['invalid_request', 'unknown_field']).toContain(res.json().error);
    }
  });

  it('a personal sync key is refused (not on its allowlist), even for its own expenses', async () => {
    for (const q of ['', `?user_id=${l.member.userId}`]) {
      const res = await call(l.memberPersonal, q);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    expect((await api(null, 'GET', '/api/v2/expenses')).statusCode).toBe(401);
  });
});

describe('GET /api/v2/expenses/:id', () => {
  it('visible expenses only: 404 for others\' (members), other workspaces, unknown and malformed ids', async () => {
    const mine = await created(w.member);
    const others = await created(w.other);
    expect((await api(w.member, 'GET', `/api/v2/expenses/${mine.id}`)).statusCode).toBe(200);
    expect((await api(w.manager, 'GET', `/api/v2/expenses/${mine.id}`)).statusCode).toBe(200);
    expect((await api(w.admin, 'GET', `/api/v2/expenses/${others.id}`)).statusCode).toBe(200);
    for (const [caller, id] of [
      [w.member, others.id],
      [w.contractor, mine.id],
      [w.manager, others.id],
      [w.mgrCats, mine.id],
      [foreign.owner, mine.id],
      [w.owner, newId()],
      [w.owner, 'nope'],
    ] as const) {
      const res = await api(caller, 'GET', `/api/v2/expenses/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    expect((await api(w.memberPersonal, 'GET', `/api/v2/expenses/${mine.id}`)).statusCode).toBe(403);
    expect((await api(w.member, 'GET', `/api/v2/expenses/${mine.id}?x=1`)).statusCode).toBe(400);
  });
});

describe('PATCH /api/v2/expenses/:id', () => {
  const patch = (caller: Caller, id: string, body: unknown, headers: Record<string, string> = {}) =>
    api(caller, 'PATCH', `/api/v2/expenses/${id}`, body, headers);

  it('changes the fields given; total_cost clears units; units re-price; the ETag follows', async () => {
    const e = await created(w.member, { expense_category_id: w.mileage, units: 10 });
    expect(e.total_cost).toBe(5.8);
    ctx.clock.advance(1000);
    const notes = await patch(w.member, e.id, { notes: 'Drive', billable: false, spent_date: '2024-05-08', metadata: { trip: 1 } });
    expect(notes.statusCode).toBe(200);
    expect(notes.json()).toMatchObject({ notes: 'Drive', billable: false, spent_date: '2024-05-08', metadata: { trip: 1 }, units: 10, total_cost: 5.8 });
    expect(notes.json().updated_at).not.toBe(e.updated_at);
    expect(notes.headers.etag).toBe((await api(w.member, 'GET', `/api/v2/expenses/${e.id}`)).headers.etag);
    const units = await patch(w.member, e.id, { units: 20 });
    expect(units.json()).toMatchObject({ units: 20, total_cost: 11.6 });
    const cost = await patch(w.member, e.id, { total_cost: 9.99 });
    expect(cost.json()).toMatchObject({ units: null, total_cost: 9.99, expense_category: { id: w.mileage } });
    const back = await patch(w.member, e.id, { units: 1, expense_category_id: w.tokens });
    expect(back.json()).toMatchObject({ units: 1, total_cost: 0, expense_category: { id: w.tokens, name: 'Tokens' } });
    // A category change re-prices a unit-priced expense from its units.
    const moved = await patch(w.member, e.id, { expense_category_id: w.mileage });
    expect(moved.json()).toMatchObject({ units: 1, total_cost: 0.58 });
    const noPrice = await patch(w.member, e.id, { expense_category_id: w.travel });
    expect(noPrice.statusCode).toBe(400);
    expect(noPrice.json().field).toBe('expense_category_id');
    const plain = await patch(w.member, e.id, { expense_category_id: w.travel, total_cost: 4 });
    expect(plain.json()).toMatchObject({ units: null, total_cost: 4, expense_category: { id: w.travel } });
    const cleared = await patch(w.member, e.id, { notes: null, metadata: null });
    expect(cleared.json()).toMatchObject({ notes: null, metadata: null });
    const audit = await ctx.db.selectFrom('audit_logs').select('action').where('subject_id', '=', e.id).execute();
    expect(audit.filter((a) => a.action === 'expense.updated').length).toBeGreaterThanOrEqual(6);
  });

  it('a PATCH that changes nothing writes nothing (same updated_at and ETag)', async () => {
    const e = await created(w.member, { metadata: { a: 1, b: 2 } });
    ctx.clock.advance(5000);
    const same = await patch(w.member, e.id, { total_cost: 10.0, notes: null, metadata: { b: 2, a: 1 }, project_id: w.projectA });
    expect(same.statusCode).toBe(200);
    expect(same.json().updated_at).toBe(e.updated_at);
    // Ids in capitals are the same ids: no move, so a billable the person chose stays.
    const chosen = await created(w.member, { expense_category_id: w.mileage, units: 2, billable: false });
    ctx.clock.advance(5000);
    const caps = await patch(w.member, chosen.id, { project_id: w.projectA.toUpperCase(), expense_category_id: w.mileage.toUpperCase() });
    expect(caps.statusCode).toBe(200);
    expect(caps.json()).toMatchObject({ project_id: w.projectA, expense_category_id: w.mileage, billable: false, updated_at: chosen.updated_at });
    const mine = await created(w.member, { user_id: w.member.userId.toUpperCase() });
    expect(mine.user_id).toBe(w.member.userId);
  });

  it('moves between projects (currency re-checked); the person never changes', async () => {
    const e = await created(w.member, { expense_category_id: w.mileage, units: 12.5 });
    const yen = await patch(w.member, e.id, { project_id: w.projectJpy });
    expect(yen.json()).toMatchObject({ project_id: w.projectJpy, units: 12.5, total_cost: 7 });
    const plain = await created(w.member, { total_cost: 10.5 });
    const misfit = await patch(w.member, plain.id, { project_id: w.projectJpy });
    expect(misfit.statusCode).toBe(400);
    expect(misfit.json().field).toBe('total_cost');
    expect((await patch(w.member, plain.id, { project_id: w.projectJpy, total_cost: 11 })).json().total_cost).toBe(11);
    for (const [project, field] of [
      [w.archived, 'project_id'],
      [w.projectB, 'project_id'],
      [foreign.projectA, 'project_id'],
      [newId(), 'project_id'],
    ] as const) {
      const res = await patch(w.member, e.id, { project_id: project });
      expect(res.statusCode, project).toBe(400);
      expect(res.json().field).toBe(field);
    }
    // The person is fixed at creation (as for time entries), even for administrators and even unchanged.
    for (const caller of [w.admin, w.owner, w.member]) {
      for (const userId of [w.other.userId, w.member.userId]) {
        const res = await patch(caller, plain.id, { user_id: userId });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ error: 'invalid_request', field: 'user_id' });
      }
    }
    expect((await api(w.member, 'GET', `/api/v2/expenses/${plain.id}`)).json().user_id).toBe(w.member.userId);
  });

  it('source and is_billed are refused; bad and empty bodies are 400', async () => {
    const e = await created(w.member);
    for (const [body, field] of [
      [{ source: 'web' }, 'source'],
      [{ source: 'api' }, 'source'],
      [{ is_billed: false }, 'is_billed'],
      [{ total_cost: 1, units: 1 }, 'units'],
      [{ total_cost: -1 }, 'total_cost'],
      [{ units: 0 }, 'units'],
      [{ spent_date: '2024-13-01' }, 'spent_date'],
      [{ expense_category_id: w.retired }, 'expense_category_id'],
      [{ expense_category_id: foreign.travel }, 'expense_category_id'],
      [{ billable: 'no' }, 'billable'],
      [{ metadata: [] }, 'metadata'],
      [{ notes: 'x'.repeat(10001) }, 'notes'],
      [{ id: newId() }, 'id'],
      [{ approval_status: 'approved' }, 'approval_status'],
      [{ receipt: null }, 'receipt'],
      [{ delete_receipt: 'yes' }, 'delete_receipt'],
      [{ hours: 1 }, 'hours'],
    ] as const) {
      const res = await patch(w.member, e.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field, JSON.stringify(body)).toBe(field);
    }
    const empty = await patch(w.member, e.id, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/at least one field/);
    const row = await ctx.db.selectFrom('expenses').select(['source', 'is_billed', 'total_cost']).where('id', '=', e.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ source: 'api', is_billed: false, total_cost: '10.00' });
  });

  it('If-Match: a stale tag is 412 and nothing changes; the current tag or * passes', async () => {
    const e = await created(w.member);
    const etag = (await api(w.member, 'GET', `/api/v2/expenses/${e.id}`)).headers.etag as string;
    expect((await patch(w.member, e.id, { notes: 'a' }, { 'if-match': '"stale"' })).statusCode).toBe(412);
    expect((await patch(w.member, e.id, { notes: 'a' }, { 'if-match': etag })).statusCode).toBe(200);
    expect((await patch(w.member, e.id, { notes: 'b' }, { 'if-match': etag })).statusCode).toBe(412);
    expect((await patch(w.member, e.id, { notes: 'b' }, { 'if-match': '*' })).statusCode).toBe(200);
  });

  it('who may change whose: invisible is 404, visible but out of reach never happens; personal keys 403', async () => {
    const member = await created(w.member);
    const other = await created(w.other);
    const otherB = await created(w.other, { project_id: w.projectB });
    expect((await patch(w.manager, member.id, { notes: 'by manager' })).statusCode).toBe(200);
    expect((await patch(w.manager, otherB.id, { notes: 'by project manager' })).statusCode).toBe(200);
    expect((await patch(w.admin, other.id, { notes: 'by admin' })).statusCode).toBe(200);
    expect((await patch(w.owner, member.id, { notes: 'by owner' })).statusCode).toBe(200);
    for (const [caller, id] of [
      [w.member, other.id],
      [w.contractor, member.id],
      [w.manager, other.id],
      [w.mgrCats, member.id],
      [foreign.owner, member.id],
      [w.owner, newId()],
      [w.owner, 'x'],
    ] as const) {
      const res = await patch(caller, id, { notes: 'nope' });
      expect(res.statusCode, `${id}`).toBe(404);
    }
    expect((await patch(w.memberPersonal, member.id, { notes: 'x' })).statusCode).toBe(403);
    const row = await ctx.db.selectFrom('expenses').select('notes').where('id', '=', other.id).executeTakeFirstOrThrow();
    expect(row.notes).toBe('by admin');
  });
});

describe('locks', () => {
  const patch = (caller: Caller, id: string, body: unknown) => api(caller, 'PATCH', `/api/v2/expenses/${id}`, body);
  const del = (caller: Caller, id: string) => api(caller, 'DELETE', `/api/v2/expenses/${id}`);

  it('approved expenses are 409 approved_timesheet_week_locked, billed ones 409 expense_locked, on PATCH and DELETE, for admins too', async () => {
    const approved = await insertExpenseRow(ctx.db, w.companyId, {
      userId: w.member.userId,
      projectId: w.projectA,
      categoryId: w.travel,
      spentDate: '2023-01-02',
      approvalStatus: 'approved',
    });
    const billed = await insertExpenseRow(ctx.db, w.companyId, {
      userId: w.member.userId,
      projectId: w.projectA,
      categoryId: w.travel,
      spentDate: '2023-03-01',
      isBilled: true,
    });
    const read = (await api(w.member, 'GET', `/api/v2/expenses/${approved}`)).json();
    expect(read).toMatchObject({ is_locked: true, is_closed: true, approval_status: 'approved', is_billed: false });
    expect((await api(w.member, 'GET', `/api/v2/expenses/${billed}`)).json()).toMatchObject({ is_locked: true, is_closed: false, is_billed: true });
    // Monday 2023-01-02 starts the approved expense's week
    const weekLocked = { error: 'approved_timesheet_week_locked', week_start: '2023-01-02', week_end: '2023-01-08' };
    for (const caller of [w.member, w.admin, w.owner]) {
      for (const [id, expected] of [
        [approved, weekLocked],
        [billed, { error: 'expense_locked', reason: 'billed' }],
      ] as const) {
        const res = await patch(caller, id, { notes: 'change' });
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject(expected);
        const gone = await del(caller, id);
        expect(gone.statusCode).toBe(409);
        expect(gone.json()).toMatchObject(expected);
        expect(typeof gone.json().message).toBe('string');
      }
    }
    expect(Object.keys((await patch(w.member, approved, { notes: 'change' })).json()).sort()).toEqual([
      'error',
      'error_description',
      'message',
      'week_end',
      'week_start',
    ]);
    const rows = await ctx.db.selectFrom('expenses').select(['id', 'notes']).where('id', 'in', [approved, billed]).execute();
    expect(rows.map((r) => r.notes)).toEqual([null, null]);
  });

  it('a week holding approved time refuses new, changed, moved and deleted expenses of that person: 409 approved_timesheet_week_locked', async () => {
    // Weeks start on Monday (the default): 2023-06-05 .. 2023-06-11.
    const before = await created(w.contractor, { spent_date: '2023-06-06' });
    const outside = await created(w.contractor, { spent_date: '2023-06-12' });
    await insertApprovedTime(ctx.db, w.companyId, w.contractor.userId, w.projectA, '2023-06-07');
    const lockedCreate = await create(w.contractor, { spent_date: '2023-06-11' });
    expect(lockedCreate.statusCode).toBe(409);
    expect(lockedCreate.json()).toMatchObject({ error: 'approved_timesheet_week_locked', week_start: '2023-06-05', week_end: '2023-06-11' });
    expect((await create(w.admin, { user_id: w.contractor.userId, spent_date: '2023-06-05' })).statusCode).toBe(409);
    expect((await patch(w.contractor, before.id, { notes: 'x' })).json().error).toBe('approved_timesheet_week_locked');
    expect((await patch(w.contractor, before.id, { spent_date: '2023-06-20' })).statusCode).toBe(409);
    expect((await patch(w.contractor, outside.id, { spent_date: '2023-06-09' })).statusCode).toBe(409);
    expect((await del(w.contractor, before.id)).json().error).toBe('approved_timesheet_week_locked');
    // Neighbouring weeks and other people stay open.
    expect((await create(w.contractor, { spent_date: '2023-06-04' })).statusCode).toBe(201);
    expect((await create(w.contractor, { spent_date: '2023-06-12' })).statusCode).toBe(201);
    expect((await create(w.member, { spent_date: '2023-06-07' })).statusCode).toBe(201);
    expect((await patch(w.contractor, outside.id, { notes: 'fine' })).statusCode).toBe(200);
    expect((await del(w.contractor, outside.id)).statusCode).toBe(204);
  });

  it('an approved expense locks its week too, and the workspace week start decides the week', async () => {
    await insertExpenseRow(ctx.db, w.companyId, {
      userId: w.other.userId,
      projectId: w.projectA,
      categoryId: w.travel,
      spentDate: '2023-09-13',
      approvalStatus: 'approved',
    });
    expect((await create(w.other, { spent_date: '2023-09-17' })).statusCode).toBe(409); // Sunday of Mon-Sun week
    expect((await create(w.other, { spent_date: '2023-09-18' })).statusCode).toBe(201);
    await ctx.db.updateTable('companies').set({ week_start: 'sunday' }).where('id', '=', w.companyId).execute();
    try {
      const sunday = await create(w.other, { spent_date: '2023-09-17' }); // now the first day of the next week
      expect(sunday.statusCode).toBe(201);
      const res = await create(w.other, { spent_date: '2023-09-10' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ week_start: '2023-09-10', week_end: '2023-09-16' });
    } finally {
      await ctx.db.updateTable('companies').set({ week_start: 'monday' }).where('id', '=', w.companyId).execute();
    }
  });
});

describe('DELETE /api/v2/expenses/:id', () => {
  const del = (caller: Caller, id: string, headers: Record<string, string> = {}) => api(caller, 'DELETE', `/api/v2/expenses/${id}`, undefined, headers);

  it('204 with no body; afterwards 404; audited', async () => {
    const e = await created(w.member);
    const res = await del(w.member, e.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await api(w.member, 'GET', `/api/v2/expenses/${e.id}`)).statusCode).toBe(404);
    expect((await del(w.member, e.id)).statusCode).toBe(404);
    const audit = await ctx.db.selectFrom('audit_logs').select('action').where('subject_id', '=', e.id).execute();
    expect(audit.map((a) => a.action)).toContain('expense.deleted');
  });

  it('who may delete whose; cross-workspace, unknown and malformed ids are 404; personal keys 403; If-Match', async () => {
    expect((await del(w.manager, (await created(w.member)).id)).statusCode).toBe(204);
    expect((await del(w.manager, (await created(w.other, { project_id: w.projectB })).id)).statusCode).toBe(204);
    expect((await del(w.admin, (await created(w.contractor)).id)).statusCode).toBe(204);
    const other = await created(w.other);
    for (const caller of [w.member, w.contractor, w.manager, w.mgrCats, foreign.owner]) {
      expect((await del(caller, other.id)).statusCode).toBe(404);
    }
    for (const id of [newId(), 'zzz', foreign.projectA]) expect((await del(w.owner, id)).statusCode).toBe(404);
    expect((await del(w.memberPersonal, other.id)).statusCode).toBe(403);
    expect((await del(w.owner, other.id, { 'if-match': '"stale"' })).statusCode).toBe(412);
    const etag = (await api(w.owner, 'GET', `/api/v2/expenses/${other.id}`)).headers.etag as string;
    expect((await del(w.owner, other.id, { 'if-match': etag })).statusCode).toBe(204);
  });
});

describe('what each caller sees of an expense', () => {
  it('every caller who may see an expense gets the same body (amounts, category price, receipt), whatever their rate permissions', async () => {
    // Expenses carry no rate and no internal cost: total_cost is what the person spent, and the
    // category's unit price is on the category list every full-access caller reads. So nothing is
    // redacted, for a manager without View billable rates neither; what is never sent is listed here.
    const e = await created(w.member, { expense_category_id: w.mileage, units: 10, metadata: { trip: 'x' } });
    const owner = await api(w.owner, 'GET', `/api/v2/expenses/${e.id}`);
    for (const caller of [w.admin, w.manager, w.member]) {
      const res = await api(caller, 'GET', `/api/v2/expenses/${e.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(owner.body);
      expect(res.headers.etag).toBe(owner.headers.etag);
    }
    expect(owner.json()).toMatchObject({ total_cost: 5.8, units: 10, expense_category: { unit_price: 0.58 } });
    for (const hidden of ['company_id', 'created_by', 'invoice_id', 'invoice_line_id', 'receipt_file_id', 'billable_amount', 'billable_rate']) {
      expect(owner.json()).not.toHaveProperty(hidden);
    }
  });
});

describe('cross-workspace ids on every route', () => {
  it('another workspace\'s expense is 404 on GET, PATCH, DELETE and the receipt, even for its owner\'s peers', async () => {
    const theirs = (await api(foreign.member, 'POST', '/api/v2/expenses', {
      project_id: foreign.projectA,
      expense_category_id: foreign.travel,
      spent_date: '2024-05-06',
      total_cost: 1,
    })).json();
    for (const [method, url] of [
      ['GET', `/api/v2/expenses/${theirs.id}`],
      ['PATCH', `/api/v2/expenses/${theirs.id}`],
      ['DELETE', `/api/v2/expenses/${theirs.id}`],
      ['GET', `/api/v2/expenses/${theirs.id}/receipt`],
    ] as const) {
      const res = await api(w.owner, method, url, method === 'PATCH' ? { notes: 'x' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    // The foreign workspace's own header with this workspace's key is 401, never a way in.
    const res = await request(ctx.app, w.owner, { method: 'GET', url: `/api/v2/expenses/${theirs.id}`, headers: { 'service-account-id': foreign.companyId } });
    expect(res.statusCode).toBe(401);
    expect((await api(foreign.member, 'GET', `/api/v2/expenses/${theirs.id}`)).statusCode).toBe(200);
  });
});
