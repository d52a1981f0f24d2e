import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { BudgetBy, DB } from '../src/db/types.ts';
import { newId } from '../src/ids.ts';
import { assignTaskRow, assignUser, insertClient, insertTask } from './fixtures/catalog-rows.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, request, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * The financial reports against a small hand-computed fixture: every figure
 * below is worked out in the comments from the rows the test inserts.
 */

interface Fixture {
  db: Kysely<DB>;
  companyId: string;
  taskId: string;
  userId: string;
}

async function project(
  f: Fixture,
  clientId: string,
  name: string,
  options: Partial<{ budgetBy: BudgetBy; budget: string; monthly: boolean; billBy: 'project' | 'tasks' | 'people' | 'none'; fixedFee: string; startsOn: string; taskBudget: string }> = {},
) {
  const id = newId();
  await f.db
    .insertInto('projects')
    .values({
      company_id: f.companyId,
      id,
      client_id: clientId,
      name,
      bill_by: options.billBy ?? 'project',
      budget_by: options.budgetBy ?? 'none',
      budget: options.budget ?? null,
      budget_is_monthly: options.monthly ?? false,
      is_fixed_fee: options.fixedFee !== undefined,
      fee: options.fixedFee ?? null,
      starts_on: options.startsOn ?? null,
    })
    .execute();
  await assignTaskRow(f.db, f.companyId, id, f.taskId, { budget: options.taskBudget ?? null });
  await assignUser(f.db, f.companyId, id, f.userId);
  return id;
}

async function rate(f: Fixture, scope: { projectId?: string; taskId?: string; userId?: string; kind?: 'billable' | 'cost' }, from: string, hourlyRate: string) {
  await f.db
    .insertInto('rates')
    .values({
      company_id: f.companyId,
      id: newId(),
      kind: scope.kind ?? 'billable',
      project_id: scope.projectId ?? null,
      task_id: scope.taskId ?? null,
      user_id: scope.userId ?? null,
      effective_from: from,
      hourly_rate: hourlyRate,
    })
    .execute();
}

type EntryOptions = Partial<{ status: 'unsubmitted' | 'submitted' | 'approved' | 'rejected'; billable: boolean; billed: boolean; running: boolean; userId: string; taskId: string }>;

async function entry(f: Fixture, projectId: string, date: string, seconds: number, options: EntryOptions = {}) {
  await f.db
    .insertInto('time_entries')
    .values({
      company_id: f.companyId,
      id: newId(),
      user_id: options.userId ?? f.userId,
      project_id: projectId,
      task_id: options.taskId ?? f.taskId,
      spent_date: date,
      duration_seconds: options.running ? 0 : seconds,
      is_running: options.running ?? false,
      timer_started_at: options.running ? new Date() : null,
      billable: options.billable ?? true,
      source: 'api',
      approval_status: options.status ?? 'approved',
      is_billed: options.billed ?? false,
    })
    .execute();
}

async function expense(f: Fixture, projectId: string, date: string, cost: string, options: { billable?: boolean; status?: 'approved' | 'submitted' } = {}) {
  let category = await f.db.selectFrom('expense_categories').select('id').where('company_id', '=', f.companyId).executeTakeFirst();
  if (!category) {
    category = { id: newId() };
    await f.db.insertInto('expense_categories').values({ company_id: f.companyId, id: category.id, name: 'Travel' }).execute();
  }
  await f.db
    .insertInto('expenses')
    .values({
      company_id: f.companyId,
      id: newId(),
      user_id: f.userId,
      project_id: projectId,
      expense_category_id: category.id,
      spent_date: date,
      total_cost: cost,
      billable: options.billable ?? true,
      source: 'api',
      approval_status: options.status ?? 'approved',
    })
    .execute();
}

async function invoiceLine(f: Fixture, clientId: string, projectId: string, state: 'open' | 'voided' | 'draft', amount: string, effect: 'charge' | 'credit' = 'charge') {
  const invoiceId = newId();
  await f.db
    .insertInto('invoices')
    .values({ company_id: f.companyId, id: invoiceId, client_id: clientId, number: `N-${invoiceId.slice(-8)}`, state, issue_date: '2026-03-01', due_date: '2026-03-31', currency: 'USD' })
    .execute();
  await f.db
    .insertInto('invoice_line_items')
    .values({ company_id: f.companyId, id: newId(), invoice_id: invoiceId, kind: 'Service', quantity: '1', unit_price: amount, effect, project_id: projectId })
    .execute();
}

const H = 3600;

describe('reports', () => {
  let ctx: TestContext;
  let owner: Caller;
  let f: Fixture;
  let clientId: string;
  const ids: Record<string, string> = {};
  let managerRates: Caller;
  let managerBoth: Caller;
  let managerNoFlags: Caller;
  let member: Caller;
  let personal: Caller;

  const get = (caller: Caller, url: string) => request(ctx.app, caller, { method: 'GET', url });
  const byProject = (body: { results: Array<{ project_id: string }> }): Record<string, any> => Object.fromEntries(body.results.map((r) => [r.project_id, r]));

  beforeAll(async () => {
    ctx = await createTestContext();
    ctx.clock.advance(new Date('2026-06-15T12:00:00Z').getTime() - ctx.clock.now().getTime());
    ({ owner } = await createWorkspaceWithOwner(ctx.db, 'Reports Co'));
    f = { db: ctx.db, companyId: owner.companyId, taskId: await insertTask(ctx.db, owner.companyId, { name: 'Design' }), userId: owner.userId };
    clientId = await insertClient(ctx.db, owner.companyId, 'Alpha Client');

    // Hours budget: 10 h. Entries 1.5 h + 20 min (rounding none) + a running timer (ignored).
    ids.hours = await project(f, clientId, 'A Hours', { budgetBy: 'project', budget: '10' });
    await entry(f, ids.hours, '2026-05-01', 1.5 * H);
    await entry(f, ids.hours, '2026-05-02', 20 * 60);
    await entry(f, ids.hours, '2026-05-03', 0, { running: true });

    // Fee budget (task_fees): task budget 1000; project rate 100 from Jan, 120 from March.
    ids.fees = await project(f, clientId, 'B Fees', { budgetBy: 'task_fees', taskBudget: '1000' });
    await rate(f, { projectId: ids.fees }, '2026-01-01', '100');
    await rate(f, { projectId: ids.fees }, '2026-03-01', '120');
    await entry(f, ids.fees, '2026-02-15', 2 * H); // 2 × 100 = 200
    await entry(f, ids.fees, '2026-03-15', 1 * H); // 1 × 120 = 120
    await entry(f, ids.fees, '2026-03-16', 1 * H, { billable: false }); // no fee

    // Project-cost budget 500: the owner's cost rate 40 → 3 h = 120.
    ids.cost = await project(f, clientId, 'C Cost', { budgetBy: 'project_cost', budget: '500' });
    await rate(f, { userId: owner.userId, kind: 'cost' }, '2026-01-01', '40');
    await entry(f, ids.cost, '2026-04-01', 3 * H);

    // Monthly hours budget 5: only June (the clock's month) counts: 1 h, not May's 2 h.
    ids.monthly = await project(f, clientId, 'D Monthly', { budgetBy: 'project', budget: '5', monthly: true });
    await entry(f, ids.monthly, '2026-06-02', 1 * H);
    await entry(f, ids.monthly, '2026-05-30', 2 * H);

    managerRates = await addMember(ctx.db, owner.companyId, { role: 'manager', permissions: ['view_billable_rates'] });
    managerBoth = await addMember(ctx.db, owner.companyId, { role: 'manager', permissions: ['view_billable_rates', 'view_invoices'] });
    managerNoFlags = await addMember(ctx.db, owner.companyId, { role: 'manager' });
    member = await addMember(ctx.db, owner.companyId, { role: 'member' });
    personal = await addMember(ctx.db, owner.companyId, { role: 'member', keyKind: 'personal' });
    for (const m of [managerRates, managerBoth]) {
      await assignUser(ctx.db, owner.companyId, ids.hours, m.userId, { manager: true });
      await assignUser(ctx.db, owner.companyId, ids.cost, m.userId, { manager: true });
      await assignUser(ctx.db, owner.companyId, ids.fees, m.userId, { manager: false }); // assigned, not managing
    }
  });
  afterAll(() => ctx.close());

  describe('project budget', () => {
    it('computes hours, fee, cost and monthly budgets by hand', async () => {
      const res = await get(owner, '/api/v2/reports/project_budget');
      expect(res.statusCode).toBe(200);
      const r = byProject(res.json());
      expect(r[ids.hours]).toMatchObject({ project_name: 'A Hours', client_id: clientId, client_name: 'Alpha Client', budget_by: 'project', budget_is_monthly: false, is_active: true, budget: 10, budget_spent: 1.833333, budget_remaining: 8.166667 });
      expect(r[ids.fees]).toMatchObject({ budget_by: 'task_fees', budget: 1000, budget_spent: 320, budget_remaining: 680 });
      expect(r[ids.cost]).toMatchObject({ budget_by: 'project_cost', budget: 500, budget_spent: 120, budget_remaining: 380 });
      expect(r[ids.monthly]).toMatchObject({ budget_is_monthly: true, budget: 5, budget_spent: 1, budget_remaining: 4 });
      // A money budget names its currency (the client has none: the workspace's); an hours budget none.
      const { currency } = await ctx.db.selectFrom('companies').select('currency').where('id', '=', owner.companyId).executeTakeFirstOrThrow();
      expect([r[ids.hours].currency, r[ids.fees].currency, r[ids.cost].currency]).toEqual([null, currency, currency]);
      expect(res.headers['x-service-features']).toContain('financial-reports-v1');
      expect(res.headers['x-service-features']).toContain('project-task-budgets');
    });

    it('applies the workspace rounding to each entry', async () => {
      await ctx.db.updateTable('companies').set({ rounding: 'up', rounding_minutes: 15 }).where('id', '=', owner.companyId).execute();
      try {
        const r = byProject((await get(owner, '/api/v2/reports/project_budget')).json());
        expect(r[ids.hours].budget_spent).toBe(2); // 1.5 h + 20 min → 30 min
      } finally {
        await ctx.db.updateTable('companies').set({ rounding: 'none' }).where('id', '=', owner.companyId).execute();
      }
    });

    it('never reprices earlier work when a rate changes later', async () => {
      await rate(f, { projectId: ids.fees }, '2026-05-01', '999');
      const r = byProject((await get(owner, '/api/v2/reports/project_budget')).json());
      expect(r[ids.fees].budget_spent).toBe(320);
    });

    it('managers need View billable rates and see only the projects they actively manage; cost budgets need View internal costs', async () => {
      const res = await get(managerRates, '/api/v2/reports/project_budget');
      expect(res.statusCode).toBe(200);
      const r = byProject(res.json());
      expect(Object.keys(r).sort()).toEqual([ids.hours, ids.cost].sort());
      expect(r[ids.cost]).toMatchObject({ budget: null, budget_spent: null, budget_remaining: null });
      for (const caller of [managerNoFlags, member, personal]) {
        expect((await get(caller, '/api/v2/reports/project_budget')).statusCode).toBe(403);
      }
    });

    it('filters is_active and pages with next_page/previous_page', async () => {
      await ctx.db.updateTable('projects').set({ is_active: false }).where('id', '=', ids.monthly).execute();
      try {
        const active = (await get(owner, '/api/v2/reports/project_budget?is_active=true')).json();
        expect(active.results.map((x: { project_id: string }) => x.project_id)).not.toContain(ids.monthly);
        const archived = (await get(owner, '/api/v2/reports/project_budget?is_active=false')).json();
        expect(archived.results.map((x: { project_id: string }) => x.project_id)).toEqual([ids.monthly]);
      } finally {
        await ctx.db.updateTable('projects').set({ is_active: true }).where('id', '=', ids.monthly).execute();
      }
      const first = (await get(owner, '/api/v2/reports/project_budget?per_page=3')).json();
      expect(first).toMatchObject({ page: 1, per_page: 3, total_entries: 4, total_pages: 2, next_page: 2, previous_page: null });
      const second = (await get(owner, first.links.next)).json();
      expect(second).toMatchObject({ page: 2, next_page: null, previous_page: 1 });
      expect(second.results).toHaveLength(1);
      expect((await get(owner, '/api/v2/reports/project_budget')).json().per_page).toBe(2000);
      for (const q of ['per_page=2001', 'page=0', 'is_active=yes', 'client_id=x']) {
        expect((await get(owner, `/api/v2/reports/project_budget?${q}`)).statusCode, q).toBe(400);
      }
    });
  });

  describe('project budget: fees by bill_by (a workspace of its own)', () => {
    it('prices fee budgets by task, by person with the default-rate fallback, entry by entry; monthly cost budgets', async () => {
      const { owner: o } = await createWorkspaceWithOwner(ctx.db, 'Fees Co');
      const g: Fixture = { db: ctx.db, companyId: o.companyId, taskId: await insertTask(ctx.db, o.companyId, { name: 'Build' }), userId: o.userId };
      const other = await addMember(ctx.db, o.companyId, { role: 'member' });
      const client = await insertClient(ctx.db, o.companyId, 'Gamma Client');

      // bill_by tasks, rate 95 from January: two entries of 80 min (1.333333 h each) → 126.67 each = 253.34
      // (not 2.666666 × 95 = 253.33: each entry is rounded to cents on its own); a non-billable hour adds nothing.
      const tasks = await project(g, client, 'Fees by task', { budgetBy: 'task_fees', billBy: 'tasks', taskBudget: '1000' });
      await rate(g, { projectId: tasks, taskId: g.taskId }, '2026-01-01', '95');
      await entry(g, tasks, '2026-04-01', 80 * 60);
      await entry(g, tasks, '2026-04-02', 80 * 60);
      await entry(g, tasks, '2026-04-03', H, { billable: false });

      // bill_by people: the owner's rate on the project 150 (2 h = 300); the other person has no project
      // rate and falls back to the default billable rate 80 (30 min = 40); total 340.
      const people = await project(g, client, 'Fees by person', { budgetBy: 'task_fees', billBy: 'people', taskBudget: '500' });
      await rate(g, { projectId: people, userId: o.userId }, '2026-01-01', '150');
      await rate(g, { userId: other.userId }, '2026-01-01', '80');
      await entry(g, people, '2026-04-01', 2 * H);
      await entry(g, people, '2026-04-02', 30 * 60, { userId: other.userId });

      // bill_by none: no billable rate, so no fee.
      const none = await project(g, client, 'Fees without rates', { budgetBy: 'task_fees', billBy: 'none', taskBudget: '100' });
      await entry(g, none, '2026-04-01', H);

      // Monthly project-cost budget: the owner's cost rate 40 from January, 60 from June; only June (the
      // clock's month) counts: 1.5 h × 60 = 90, not May's hour.
      const cost = await project(g, client, 'Monthly cost', { budgetBy: 'project_cost', budget: '200', monthly: true });
      await rate(g, { userId: o.userId, kind: 'cost' }, '2026-01-01', '40');
      await rate(g, { userId: o.userId, kind: 'cost' }, '2026-06-01', '60');
      await entry(g, cost, '2026-05-20', H);
      await entry(g, cost, '2026-06-03', 1.5 * H);

      const res = await get(o, '/api/v2/reports/project_budget');
      expect(res.statusCode).toBe(200);
      const r = byProject(res.json());
      expect(r[tasks]).toMatchObject({ budget_by: 'task_fees', budget: 1000, budget_spent: 253.34, budget_remaining: 746.66 });
      expect(r[people]).toMatchObject({ budget: 500, budget_spent: 340, budget_remaining: 160 });
      expect(r[none]).toMatchObject({ budget: 100, budget_spent: 0, budget_remaining: 100 });
      expect(r[cost]).toMatchObject({ budget_by: 'project_cost', budget_is_monthly: true, budget: 200, budget_spent: 90, budget_remaining: 110 });
    });
  });

  describe('uninvoiced', () => {
    let tm: string;
    let ff: string;

    beforeAll(async () => {
      const client = await insertClient(ctx.db, owner.companyId, 'Beta Client');
      // Time and materials: rate 100 from January, 120 from March.
      tm = await project(f, client, 'T&M');
      await rate(f, { projectId: tm }, '2026-01-01', '100');
      await rate(f, { projectId: tm }, '2026-03-01', '120');
      await entry(f, tm, '2026-02-10', 1 * H); // 100
      await entry(f, tm, '2026-03-10', 0.5 * H); // 60
      await entry(f, tm, '2026-03-11', 1 * H, { status: 'submitted' }); // only when work counts before approval: 120
      await entry(f, tm, '2026-03-12', 1 * H, { status: 'rejected' }); // never
      await entry(f, tm, '2026-03-13', 1 * H, { billed: true }); // billed: hours total only
      await entry(f, tm, '2026-03-14', 1 * H, { billable: false }); // non-billable: hours total only
      await entry(f, tm, '2026-03-15', 0, { running: true, userId: member.userId }); // never (one running timer per user: someone else's)
      await entry(f, tm, '2026-04-20', 1 * H); // outside the range
      await expense(f, tm, '2026-03-10', '25.50');
      await expense(f, tm, '2026-03-11', '10.00', { billable: false });
      // Fixed fee 1000 from March: an open invoice line 300, a credit 50, a voided 200 (ignored).
      ff = await project(f, client, 'Fixed', { fixedFee: '1000', startsOn: '2026-03-01' });
      await invoiceLine(f, client, ff, 'open', '300');
      await invoiceLine(f, client, ff, 'draft', '50', 'credit');
      await invoiceLine(f, client, ff, 'voided', '200');
    });

    const report = async (query: string, caller = owner) => {
      const res = await get(caller, `/api/v2/reports/uninvoiced?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };

    it('counts only approved, billable, unbilled, completed work at the rate of its date', async () => {
      const body = await report('from=20260101&to=20260331');
      const r = byProject(body);
      expect(r[tm]).toMatchObject({
        client_name: 'Beta Client',
        project_name: 'T&M',
        currency: 'USD',
        total_hours: 4.5, // 1 + 0.5 + 1 submitted + 1 billed + 1 non-billable
        uninvoiced_hours: 1.5,
        uninvoiced_expenses: 25.5,
        uninvoiced_amount: 185.5, // 100 + 60 + 25.50
      });
      // Fixed fee: 1000 − (300 − 50) = 750; its time is not priced.
      expect(r[ff]).toMatchObject({ uninvoiced_amount: 750, total_hours: 0, uninvoiced_hours: 0 });
    });

    it('counts unsubmitted and submitted work when the workspace invoices before approval', async () => {
      await ctx.db.updateTable('companies').set({ invoice_before_approval: true }).where('id', '=', owner.companyId).execute();
      try {
        expect(byProject(await report('from=2026-01-01&to=2026-03-31'))[tm]).toMatchObject({ uninvoiced_hours: 2.5, uninvoiced_amount: 305.5 });
      } finally {
        await ctx.db.updateTable('companies').set({ invoice_before_approval: false }).where('id', '=', owner.companyId).execute();
      }
    });

    it('makes the fixed fee eligible only once the end date reaches the project start, never split by from', async () => {
      expect(byProject(await report('from=20260101&to=20260228'))[ff]).toBeUndefined();
      expect(byProject(await report('from=20260320&to=20260321'))[ff]).toMatchObject({ uninvoiced_amount: 750 });
      expect(byProject(await report('from=20260101&to=20260331&include_fixed_fee=false'))[ff]).toBeUndefined();
    });

    it('retainer funding and a retainer credit line change neither the fixed-fee balance nor the project budget', async () => {
      const session = await sessionFor(ctx.db, owner, ctx.clock.now());
      const post = async (caller: Caller, url: string, payload: object, status = 201) => {
        const res = await request(ctx.app, caller, { method: 'POST', url, payload });
        expect(res.statusCode, res.body).toBe(status);
        return res.json();
      };
      const client = (await ctx.db.selectFrom('projects').select('client_id').where('id', '=', ff).executeTakeFirstOrThrow()).client_id;
      const budget = async () => byProject((await get(owner, '/api/v2/reports/project_budget')).json());
      const budgetBefore = await budget();
      // Funding: a retainer invoice of 500, sent and paid.
      const retainer = await post(session, '/web/api/retainers', { client_id: client, name: 'Prepaid' });
      const { invoice: funding } = await post(session, `/web/api/retainers/${retainer.id}/fund`, { amount: 500 });
      await post(owner, `/api/v2/invoices/${funding.id}/messages`, { recipients: [{ email: 'bill@beta.test' }] });
      await post(session, `/web/api/invoices/${funding.id}/payments`, { amount: 500, paid_date: '2026-03-05' });
      expect(byProject(await report('from=20260101&to=20260331'))[ff]).toMatchObject({ uninvoiced_amount: 750 });
      // A draft invoicing 300 of the fee: the fee balance is 1000 − (300 − 50) − 300 = 450.
      const draft = await post(owner, '/api/v2/invoices', { client_id: client, line_items: [{ kind: 'Service', description: 'Milestone', unit_price: 300, project_id: ff }] });
      expect(byProject(await report('from=20260101&to=20260331'))[ff]).toMatchObject({ uninvoiced_amount: 450 });
      // Paid from the retainer: a credit line of 300 on it leaves the fee balance and the budgets as they were.
      const credit = await post(session, `/web/api/retainers/${retainer.id}/credits`, { invoice_id: draft.id, amount: 300 });
      expect(credit.retainer.balance).toBe(200);
      expect(byProject(await report('from=20260101&to=20260331'))[ff]).toMatchObject({ uninvoiced_amount: 450 });
      expect(await budget()).toEqual(budgetBefore);
      // Deleting the draft releases its work and its credit: back to 750.
      expect((await request(ctx.app, owner, { method: 'DELETE', url: `/api/v2/invoices/${draft.id}` })).statusCode).toBe(204);
      expect(byProject(await report('from=20260101&to=20260331'))[ff]).toMatchObject({ uninvoiced_amount: 750 });
    });

    it('rounds each entry by the workspace rule', async () => {
      await ctx.db.updateTable('companies').set({ rounding: 'up', rounding_minutes: 60 }).where('id', '=', owner.companyId).execute();
      try {
        // 30 min → 1 h at 120; total 1 + 1 + 1 + 1 + 1 = 5 h.
        expect(byProject(await report('from=20260101&to=20260331'))[tm]).toMatchObject({ total_hours: 5, uninvoiced_hours: 2, uninvoiced_amount: 245.5 });
      } finally {
        await ctx.db.updateTable('companies').set({ rounding: 'none' }).where('id', '=', owner.companyId).execute();
      }
    });

    it('validates dates and the 365-day range', async () => {
      expect((await get(owner, '/api/v2/reports/uninvoiced?from=20250101&to=20260101')).statusCode).toBe(200);
      for (const q of ['from=20250101&to=20260102', 'from=2026/01/01&to=20260131', 'from=20260230&to=20260301', 'from=20260301&to=20260201', 'to=20260101', 'from=20260101', 'from=2026-0101&to=20260102', 'from=20260101&to=20260102&include_fixed_fee=1']) {
        const res = await get(owner, `/api/v2/reports/uninvoiced?${q}`);
        expect(res.statusCode, q).toBe(400);
        expect(res.json().error).toMatch(/invalid_request|unknown_field/);
      }
    });

    it('permissions: managers need both flags and see only actively managed projects', async () => {
      expect((await get(managerRates, '/api/v2/reports/uninvoiced?from=20260101&to=20260331')).statusCode).toBe(403);
      const body = await report('from=20260401&to=20260531', managerBoth);
      // A Hours (May) and C Cost (April) are the projects this manager manages; B Fees is merely assigned.
      expect(body.results.map((x: { project_id: string }) => x.project_id).sort()).toEqual([ids.hours, ids.cost].sort());
      for (const caller of [member, personal, managerNoFlags]) {
        expect((await get(caller, '/api/v2/reports/uninvoiced?from=20260101&to=20260331')).statusCode).toBe(403);
      }
    });

    it('pages by project', async () => {
      const client = await insertClient(ctx.db, owner.companyId, 'Gamma Client');
      for (let i = 0; i < 5; i++) {
        const p = await project(f, client, `Paged ${i}`);
        await entry(f, p, '2026-07-01', H);
      }
      const first = await report('from=20260701&to=20260701&include_fixed_fee=false&per_page=2');
      expect(first).toMatchObject({ total_entries: 5, total_pages: 3, next_page: 2, previous_page: null });
      const names: string[] = first.results.map((x: { project_name: string }) => x.project_name);
      let next = first.links.next;
      while (next) {
        const page = (await get(owner, next)).json();
        names.push(...page.results.map((x: { project_name: string }) => x.project_name));
        next = page.links.next;
      }
      expect(names).toEqual(['Paged 0', 'Paged 1', 'Paged 2', 'Paged 3', 'Paged 4']);
      expect((await report('from=20260701&to=20260701&include_fixed_fee=false&per_page=2&page=9')).results).toEqual([]);
    });
    describe('pricing and eligibility (September)', () => {
      let tasks: string;
      let people: string;
      let none: string;
      let unbillable: string;

      beforeAll(async () => {
        const client = await insertClient(ctx.db, owner.companyId, 'Delta Client');
        const build = await insertTask(ctx.db, owner.companyId, { name: 'Build' });
        // Billed by task: Design 80; Build 150, 200 from 15 September; the project rate 999 does not apply.
        tasks = await project(f, client, 'By task', { billBy: 'tasks' });
        await assignTaskRow(ctx.db, owner.companyId, tasks, build);
        await rate(f, { projectId: tasks }, '2026-01-01', '999');
        await rate(f, { projectId: tasks, taskId: f.taskId }, '2026-01-01', '80');
        await rate(f, { projectId: tasks, taskId: build }, '2026-01-01', '150');
        await rate(f, { projectId: tasks, taskId: build }, '2026-09-15', '200');
        await entry(f, tasks, '2026-09-02', 2 * H); // Design: 2 × 80 = 160
        await entry(f, tasks, '2026-09-10', 1 * H, { taskId: build }); // 150
        await entry(f, tasks, '2026-09-20', 1.5 * H, { taskId: build }); // 1.5 × 200 = 300
        // Billed by person: the owner's rate on the project (130 from 10 September), before it the owner's
        // default rate (90); the member has only a default rate (70).
        people = await project(f, client, 'By person', { billBy: 'people' });
        await assignUser(ctx.db, owner.companyId, people, member.userId);
        await rate(f, { projectId: people, userId: owner.userId }, '2026-09-10', '130');
        await rate(f, { userId: owner.userId }, '2026-01-01', '90');
        await rate(f, { userId: member.userId }, '2026-01-01', '70');
        await entry(f, people, '2026-09-05', 1 * H); // 90 (default rate: the project rate starts later)
        await entry(f, people, '2026-09-12', 1 * H); // 130
        await entry(f, people, '2026-09-12', 0.5 * H, { userId: member.userId }); // 0.5 × 70 = 35
        // Not billed by anything: billable time is uninvoiced but priced 0, whatever rates exist.
        none = await project(f, client, 'By nothing', { billBy: 'none' });
        await rate(f, { projectId: none }, '2026-01-01', '100');
        await entry(f, none, '2026-09-03', 1 * H);
        // A project that is not billable: its billable-flagged work can never be invoiced.
        unbillable = await project(f, client, 'Not billable');
        await rate(f, { projectId: unbillable }, '2026-01-01', '100');
        await ctx.db.updateTable('projects').set({ is_billable: false }).where('id', '=', unbillable).execute();
        await entry(f, unbillable, '2026-09-03', 1 * H);
        await expense(f, unbillable, '2026-09-03', '12.00');
      });

      it('prices each entry by its project’s bill_by at the rate of its date', async () => {
        const r = byProject(await report('from=20260901&to=20260930'));
        expect(r[tasks]).toMatchObject({ total_hours: 4.5, uninvoiced_hours: 4.5, uninvoiced_amount: 610 });
        expect(r[people]).toMatchObject({ total_hours: 2.5, uninvoiced_hours: 2.5, uninvoiced_amount: 255 });
        expect(r[none]).toMatchObject({ total_hours: 1, uninvoiced_hours: 1, uninvoiced_amount: 0 });
      });

      it('leaves out work on a project that is not billable (an invoice cannot take it)', async () => {
        const r = byProject(await report('from=20260901&to=20260930'));
        expect(r[unbillable]).toMatchObject({ total_hours: 1, uninvoiced_hours: 0, uninvoiced_expenses: 0, uninvoiced_amount: 0 });
      });

      it('agrees with billable_rate() entry by entry (team report amounts)', async () => {
        const body = (await get(owner, '/api/v2/reports/time/team?from=20260101&to=20261231')).json();
        const expected = await sql<{ user_id: string; amount: string }>`
          select te.user_id, sum(round(seconds_to_hours(te.duration_seconds) * billable_rate(te.company_id, te.project_id, te.task_id, te.user_id, te.spent_date), 2)) as amount
          from time_entries te
          where te.company_id = ${owner.companyId} and te.billable and not te.is_running and te.spent_date between '2026-01-01' and '2026-12-31'
          group by te.user_id`.execute(ctx.db);
        const amounts = Object.fromEntries(body.results.map((x: { user_id: string; billable_amount: number }) => [x.user_id, x.billable_amount]));
        expect(expected.rows.length).toBeGreaterThan(1);
        for (const row of expected.rows) expect(amounts[row.user_id], row.user_id).toBe(Number(row.amount ?? 0));
        // Owner (the team report counts all billable time, whatever its approval or billing): B Fees 200 + 120;
        // T&M 100 + 60 + 120 (submitted) + 120 (rejected) + 120 (billed) + 120 (April); projects without a
        // rate (A Hours, C Cost, D Monthly, Paged, by nothing) 0; September 160 + 150 + 300 + 90 + 130.
        expect(amounts[owner.userId]).toBe(200 + 120 + 100 + 60 + 120 + 120 + 120 + 120 + 160 + 150 + 300 + 90 + 130);
      });

      it('counts unsubmitted and submitted work when approvals are switched off', async () => {
        await ctx.db.updateTable('companies').set({ approvals_enabled: false }).where('id', '=', owner.companyId).execute();
        try {
          // As with invoice_before_approval: 1 + 0.5 + 1 submitted h; the rejected hour still never counts.
          expect(byProject(await report('from=2026-01-01&to=2026-03-31'))[tm]).toMatchObject({ uninvoiced_hours: 2.5, uninvoiced_amount: 305.5 });
        } finally {
          await ctx.db.updateTable('companies').set({ approvals_enabled: true }).where('id', '=', owner.companyId).execute();
        }
      });
    });
  });

  describe('team time', () => {
    it('sums hours per person; amounts only for those who may see rates', async () => {
      const owners = await get(owner, '/api/v2/reports/time/team?from=20260201&to=20260228');
      expect(owners.statusCode).toBe(200);
      const me = owners.json().results.find((r: { user_id: string }) => r.user_id === owner.userId);
      // February: 2 h on B Fees at 100 and 1 h on T&M at 100.
      expect(me).toMatchObject({ total_hours: 3, billable_hours: 3, billable_amount: 300, currency: 'USD', is_contractor: false });
      const mine = (await get(managerNoFlags, '/api/v2/reports/time/team?from=20260201&to=20260228')).json();
      expect(mine.results.map((r: { user_id: string }) => r.user_id)).toEqual([managerNoFlags.userId]);
      expect(mine.results[0]).not.toHaveProperty('billable_amount');
      expect((await get(member, '/api/v2/reports/time/team?from=20260201&to=20260228')).statusCode).toBe(403);
      expect((await get(personal, '/api/v2/reports/time/team?from=20260201&to=20260228')).statusCode).toBe(403);
    });

    it('never adds amounts of different currencies: billable_amounts per currency (issue 13 item 10)', async () => {
      const { owner: boss } = await createWorkspaceWithOwner(ctx.db, 'Mixed Co');
      await ctx.db.updateTable('companies').set({ currency: 'EUR' }).where('id', '=', boss.companyId).execute();
      const g: Fixture = { db: ctx.db, companyId: boss.companyId, taskId: await insertTask(ctx.db, boss.companyId, { name: 'Work' }), userId: boss.userId };
      const usdClient = await insertClient(ctx.db, boss.companyId, 'Dollar Inc');
      await ctx.db.updateTable('clients').set({ currency: 'USD' }).where('id', '=', usdClient).execute();
      const eurClient = await insertClient(ctx.db, boss.companyId, 'Euro GmbH'); // no currency: the workspace's EUR
      const usd = await project(g, usdClient, 'Dollar work');
      const eur = await project(g, eurClient, 'Euro work');
      await rate(g, { projectId: usd }, '2026-01-01', '100');
      await rate(g, { projectId: eur }, '2026-01-01', '80');
      const euroOnly = await addMember(ctx.db, boss.companyId, { role: 'member', lastName: 'Euro' });
      const idle = await addMember(ctx.db, boss.companyId, { role: 'member', lastName: 'Idle' });
      await entry(g, usd, '2026-02-02', 2 * H); // 200 USD
      await entry(g, eur, '2026-02-03', 1 * H); // 80 EUR
      await entry(g, eur, '2026-02-04', 1 * H, { billable: false });
      await entry(g, eur, '2026-02-05', 1.5 * H, { userId: euroOnly.userId }); // 120 EUR
      await entry(g, eur, '2026-02-05', 1 * H, { userId: idle.userId, billable: false });

      const res = await get(boss, '/api/v2/reports/time/team?from=20260201&to=20260228');
      expect(res.statusCode).toBe(200);
      const rows = Object.fromEntries(res.json().results.map((r: { user_id: string }) => [r.user_id, r]));
      // Two currencies: no single amount (null, never 280), one line per currency, by currency code.
      expect(rows[boss.userId]).toEqual({
        user_id: boss.userId,
        user_name: 'Olive Owner',
        is_contractor: false,
        total_hours: 4,
        billable_hours: 3,
        currency: null,
        billable_amount: null,
        billable_amounts: [
          { currency: 'EUR', billable_hours: 1, billable_amount: 80 },
          { currency: 'USD', billable_hours: 2, billable_amount: 200 },
        ],
      });
      // One currency: currency and billable_amount are that currency's.
      expect(rows[euroOnly.userId]).toMatchObject({
        currency: 'EUR',
        billable_amount: 120,
        billable_amounts: [{ currency: 'EUR', billable_hours: 1.5, billable_amount: 120 }],
      });
      // No billable time: the workspace currency and 0, no lines.
      expect(rows[idle.userId]).toMatchObject({ total_hours: 1, billable_hours: 0, currency: 'EUR', billable_amount: 0, billable_amounts: [] });
      // Without View billable rates: no amounts at all.
      const plain = await addMember(ctx.db, boss.companyId, { role: 'manager' });
      const own = (await get(plain, '/api/v2/reports/time/team?from=20260201&to=20260228')).json().results[0];
      for (const hidden of ['currency', 'billable_amount', 'billable_amounts']) expect(own).not.toHaveProperty(hidden);
    });
  });

  it('refuses reports to another workspace’s key', async () => {
    const { owner: other } = await createWorkspaceWithOwner(ctx.db, 'Other');
    const body = (await get(other, '/api/v2/reports/project_budget')).json();
    expect(body.results).toEqual([]);
  });
});
