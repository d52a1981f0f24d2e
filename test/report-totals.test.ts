import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { newId } from '../src/ids.ts';
import { splitByHorizon } from '../src/modules/reports/reports/totals.ts';
import { withTenant } from '../src/db/tenant.ts';
import { assignTaskRow, assignUser, insertClient, insertTask } from './fixtures/catalog-rows.ts';
import { createTestContext, createWorkspaceWithOwner, onPostgres, request, type Caller, type TestContext } from './helpers.ts';

/**
 * The reports' kept totals of time (issue 24, src/modules/reports/reports/totals.ts): the months
 * before the horizon are summed once and kept; every change that could move them makes them
 * stale, and the next report sums them again. Each test changes something a kept month depends
 * on, through the API where the API can change it, and checks that both reports show it at once.
 */

describe('splitByHorizon', () => {
  it('keeps the whole months before the horizon and reads the days around them live', () => {
    expect(splitByHorizon('2025-10-15', '2025-12-10', '2026-11-01')).toEqual({
      kept: { from: '2025-11-01', until: '2025-12-01' },
      live: [
        { from: '2025-10-15', to: '2025-10-31' },
        { from: '2025-12-01', to: '2025-12-10' },
      ],
    });
    expect(splitByHorizon('2025-11-01', '2025-11-30', '2026-11-01')).toEqual({ kept: { from: '2025-11-01', until: '2025-12-01' }, live: [] });
    // The months from the horizon on are always live.
    expect(splitByHorizon('2026-09-01', '2026-12-04', '2026-11-01')).toEqual({
      kept: { from: '2026-09-01', until: '2026-11-01' },
      live: [{ from: '2026-11-01', to: '2026-12-04' }],
    });
    // No whole month in the range, or none before the horizon: all live.
    expect(splitByHorizon('2025-11-02', '2025-11-30', '2026-11-01')).toEqual({ kept: null, live: [{ from: '2025-11-02', to: '2025-11-30' }] });
    expect(splitByHorizon('2026-11-01', '2026-11-30', '2026-11-01')).toEqual({ kept: null, live: [{ from: '2026-11-01', to: '2026-11-30' }] });
    expect(splitByHorizon('2025-02-01', '2025-02-28', '2026-11-01')).toEqual({ kept: { from: '2025-02-01', until: '2025-03-01' }, live: [] });
  });
});

describe('kept time totals of the reports', () => {
  let ctx: TestContext;
  let owner: Caller;
  let companyId: string;
  let task: string;
  let alpha: string;
  let beta: string;
  /** Today by the database clock, and a day of a kept month (two months back). */
  let today: string;
  let kept: string;

  const project = async (client: string, name: string) => {
    const id = newId();
    await ctx.db
      .insertInto('projects')
      .values({ company_id: companyId, id, client_id: client, name, bill_by: 'project', budget_by: 'project', budget: '1000' })
      .execute();
    await assignTaskRow(ctx.db, companyId, id, task);
    await assignUser(ctx.db, companyId, id, owner.userId);
    return id;
  };
  const rate = (projectId: string | null, from: string, hourly: string, kind: 'billable' | 'cost' = 'billable') =>
    ctx.db
      .insertInto('rates')
      .values({ company_id: companyId, id: newId(), kind, project_id: projectId, user_id: kind === 'cost' ? owner.userId : null, effective_from: from, hourly_rate: hourly })
      .execute();
  const log = async (projectId: string, date: string, hours: number) => {
    const res = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/time_entries', payload: { project_id: projectId, task_id: task, spent_date: date, hours } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };

  /** Both reports' figures of a project: hours spent of its budget, and the uninvoiced report over the last year. */
  const figures = async (projectId: string) => {
    const budget = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/reports/project_budget' });
    expect(budget.statusCode, budget.body).toBe(200);
    const from = new Date(Date.parse(today) - 364 * 86_400_000).toISOString().slice(0, 10);
    const open = await request(ctx.app, owner, { method: 'GET', url: `/api/v2/reports/uninvoiced?from=${from}&to=${today}` });
    expect(open.statusCode, open.body).toBe(200);
    const b = budget.json().results.find((r: { project_id: string }) => r.project_id === projectId);
    const u = open.json().results.find((r: { project_id: string }) => r.project_id === projectId);
    return { spent: b?.budget_spent, total: u?.total_hours ?? 0, open: u?.uninvoiced_hours ?? 0, amount: u?.uninvoiced_amount ?? 0 };
  };
  /** What is kept of a project: its totals' horizon, its months, and the stale marks left since. */
  const state = (projectId: string) =>
    withTenant(ctx.db, companyId, async (trx) => {
      const t = await sql<{ horizon: string; spent_micro: string }>`select horizon, spent_micro from project_time_totals where project_id = ${projectId}`.execute(trx);
      const m = await sql<{ month: string }>`select month from project_month_time_totals where project_id = ${projectId} order by month`.execute(trx);
      const marks = await sql<{ n: number }>`select count(*)::int as n from project_time_totals_stale where project_id = ${projectId}`.execute(trx);
      return { ...t.rows[0], months: m.rows.map((r) => r.month), marks: marks.rows[0].n };
    });

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ owner } = await createWorkspaceWithOwner(ctx.db, 'Totals Co'));
    companyId = owner.companyId;
    // Unsubmitted work counts as uninvoiced here, so entries made through the API count at once.
    await ctx.db.updateTable('companies').set({ invoice_before_approval: true }).where('id', '=', companyId).execute();
    const r = await sql<{ today: string; kept: string }>`
      select (now() at time zone 'UTC')::date::text as today, (report_totals_horizon() - interval '1 month' + interval '9 days')::date::text as kept`.execute(ctx.db);
    ({ today, kept } = r.rows[0]);
    const client = await insertClient(ctx.db, companyId, 'Totals Client');
    task = await insertTask(ctx.db, companyId, { name: 'Work' });
    alpha = await project(client, 'Alpha');
    beta = await project(client, 'Beta');
    await rate(alpha, '2020-01-01', '100.00');
    await rate(beta, '2020-01-01', '50.00');
    await log(alpha, kept, 2);
    await log(alpha, today, 1);
  });
  afterAll(() => ctx.close());

  it('sums the months before the horizon once and adds the newer days live', async () => {
    expect(await figures(alpha)).toEqual({ spent: 3, total: 3, open: 3, amount: 300 });
    const s = await state(alpha);
    expect(s).toEqual({ horizon: expect.stringMatching(/-01$/), spent_micro: '2000000', months: [`${kept.slice(0, 8)}01`], marks: 0 });
    // Today's entry is not in a kept month: logging more today changes nothing kept.
    await log(alpha, today, 1);
    expect(await state(alpha)).toEqual(s);
    expect(await figures(alpha)).toEqual({ spent: 4, total: 4, open: 4, amount: 400 });
  });

  it('shows a change to an entry of a kept month at once: its hours, its deletion, a new one, a move to another project', async () => {
    const before = await figures(alpha);
    const id = await log(alpha, kept, 1.5);
    expect(await figures(alpha)).toEqual({ spent: before.spent + 1.5, total: before.total + 1.5, open: before.open + 1.5, amount: before.amount + 150 });
    expect((await request(ctx.app, owner, { method: 'PATCH', url: `/api/v2/time_entries/${id}`, payload: { hours: 0.5 } })).statusCode).toBe(200);
    expect(await figures(alpha)).toEqual({ spent: before.spent + 0.5, total: before.total + 0.5, open: before.open + 0.5, amount: before.amount + 50 });
    const moved = await request(ctx.app, owner, { method: 'PATCH', url: `/api/v2/time_entries/${id}`, payload: { project_id: beta, task_id: task } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await figures(alpha)).toEqual(before);
    expect(await figures(beta)).toEqual({ spent: 0.5, total: 0.5, open: 0.5, amount: 25 });
    expect((await request(ctx.app, owner, { method: 'DELETE', url: `/api/v2/time_entries/${id}` })).statusCode).toBeLessThan(300);
    expect(await figures(beta)).toEqual({ spent: 0, total: 0, open: 0, amount: 0 });
  });

  it('shows a change of rate, rounding, invoiced states, billing and billed work at once', async () => {
    const base = await figures(alpha);
    expect(base).toEqual({ spent: 4, total: 4, open: 4, amount: 400 });
    // A rate from a day of the kept month on reprices it (and the later days).
    await rate(alpha, kept, '200.00');
    expect((await figures(alpha)).amount).toBe(base.amount * 2);
    await ctx.db.deleteFrom('rates').where('company_id', '=', companyId).where('effective_from', '=', kept).execute();
    expect(await figures(alpha)).toEqual(base);
    // Rounding up by the hour: whole hours stay, an entry of 1.25 hours counts 2.
    const odd = await log(alpha, kept, 1.25);
    await ctx.db.updateTable('companies').set({ rounding: 'up', rounding_minutes: 60 }).where('id', '=', companyId).execute();
    const rounded = await figures(alpha);
    expect(rounded.open).toBe(base.open + 2);
    expect(rounded.spent).toBe(base.spent + 2);
    await ctx.db.updateTable('companies').set({ rounding: 'none' }).where('id', '=', companyId).execute();
    expect((await figures(alpha)).open).toBe(base.open + 1.25);
    expect((await request(ctx.app, owner, { method: 'DELETE', url: `/api/v2/time_entries/${odd}` })).statusCode).toBeLessThan(300);
    // Only approved work is invoiced once the workspace says so.
    await ctx.db.updateTable('companies').set({ invoice_before_approval: false }).where('id', '=', companyId).execute();
    expect(await figures(alpha)).toEqual({ ...base, open: 0, amount: 0 });
    await ctx.db.updateTable('companies').set({ invoice_before_approval: true }).where('id', '=', companyId).execute();
    // A project that stops billing has nothing to invoice.
    await ctx.db.updateTable('projects').set({ is_billable: false }).where('id', '=', alpha).execute();
    expect(await figures(alpha)).toEqual({ ...base, open: 0, amount: 0 });
    await ctx.db.updateTable('projects').set({ is_billable: true }).where('id', '=', alpha).execute();
    // Billed work of the kept month is no longer open.
    await ctx.db.updateTable('time_entries').set({ is_billed: true }).where('company_id', '=', companyId).where('spent_date', '=', kept).execute();
    expect(await figures(alpha)).toEqual({ ...base, open: base.open - 2, amount: base.amount - 200 });
    await ctx.db.updateTable('time_entries').set({ is_billed: false }).where('company_id', '=', companyId).where('spent_date', '=', kept).execute();
    expect(await figures(alpha)).toEqual(base);
  });

  it('counts each entry to its currency’s unit (whole yen), kept or live; a change of the currency its work is in shows at once', async () => {
    const team = async () => {
      const res = await request(ctx.app, owner, { method: 'GET', url: `/api/v2/reports/time/team?from=${kept.replaceAll('-', '')}&to=${today.replaceAll('-', '')}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().results[0].billable_amounts as Array<{ currency: string; billable_amount: number }>;
    };
    const plain = await insertClient(ctx.db, companyId, 'No currency of its own');
    const gamma = await project(plain, 'Gamma');
    await rate(gamma, '2020-01-01', '15000.50');
    // 1.333333 h = 20000.661… and 0.1 h = 1500.05: to the cent in dollars (the workspace's), to the yen in yen.
    const entries = [await log(gamma, kept, 1.333333), await log(gamma, today, 0.1)];
    expect((await figures(gamma)).amount).toBe(21500.71);
    expect(Math.round(((await team()).find((a) => a.currency === 'USD')!.billable_amount * 100) % 100)).toBe(71);
    await ctx.db.updateTable('companies').set({ currency: 'JPY' }).where('id', '=', companyId).execute();
    expect((await figures(gamma)).amount).toBe(21501); // 20001 + 1500, the yen an invoice of these lines bills
    // A fee budget spends the same yen.
    await ctx.db.updateTable('projects').set({ budget_by: 'task_fees', budget: null }).where('id', '=', gamma).execute();
    expect((await figures(gamma)).spent).toBe(21501);
    await ctx.db.updateTable('projects').set({ budget_by: 'project', budget: '1000' }).where('id', '=', gamma).execute();
    // The team report (all of the person's work, now in yen): whole yen too, where it had gamma's 71 cents.
    expect(Number.isInteger((await team()).find((a) => a.currency === 'JPY')?.billable_amount)).toBe(true);
    await ctx.db.updateTable('companies').set({ currency: 'USD' }).where('id', '=', companyId).execute();
    expect((await figures(gamma)).amount).toBe(21500.71);
    // The client's currency, and a move to another client.
    await ctx.db.updateTable('clients').set({ currency: 'JPY' }).where('id', '=', plain).execute();
    expect((await figures(gamma)).amount).toBe(21501);
    const euros = await insertClient(ctx.db, companyId, 'Euro client');
    await ctx.db.updateTable('clients').set({ currency: 'EUR' }).where('id', '=', euros).execute();
    await ctx.db.updateTable('projects').set({ client_id: euros }).where('id', '=', gamma).execute();
    expect((await figures(gamma)).amount).toBe(21500.71);
    await ctx.db.updateTable('projects').set({ client_id: plain }).where('id', '=', gamma).execute();
    expect((await figures(gamma)).amount).toBe(21501);
    for (const id of entries) expect((await request(ctx.app, owner, { method: 'DELETE', url: `/api/v2/time_entries/${id}` })).statusCode).toBeLessThan(300);
  });

  it('sums again only the project whose rate changed; a person’s default or cost rate, every project', async () => {
    const version = (projectId: string) =>
      withTenant(ctx.db, companyId, async (trx) => (await sql<{ v: string }>`select xmin::text as v from project_time_totals where project_id = ${projectId}`.execute(trx)).rows[0].v);
    await figures(alpha);
    const [a, b] = [await version(alpha), await version(beta)];
    // Saving the project's rate again, unchanged, counts as a change all the same.
    await ctx.db.updateTable('rates').set({ hourly_rate: '100.00' }).where('company_id', '=', companyId).where('project_id', '=', alpha).execute();
    await figures(alpha);
    expect(await version(alpha)).not.toBe(a);
    expect(await version(beta)).toBe(b);
    await rate(null, '2020-01-01', '30.00', 'cost');
    await figures(alpha);
    expect(await version(beta)).not.toBe(b);
    await ctx.db.deleteFrom('rates').where('company_id', '=', companyId).where('kind', '=', 'cost').execute();
  });

  it('prices cost budgets from the kept months too', async () => {
    await rate(null, '2020-01-01', '40.00', 'cost');
    await ctx.db.updateTable('projects').set({ budget_by: 'project_cost', budget: '500' }).where('id', '=', alpha).execute();
    const { spent, total } = await figures(alpha);
    expect(total).toBe(4);
    expect(spent).toBe(160);
    await ctx.db.updateTable('projects').set({ budget_by: 'project', budget: '1000' }).where('id', '=', alpha).execute();
  });

  it('leaves one stale mark per project for a transaction that changes many of its entries', async () => {
    await log(alpha, kept, 1);
    await log(alpha, kept, 1);
    await figures(alpha);
    expect((await state(alpha)).marks).toBe(0);
    // Two entries in one statement (as an approval or an invoice does), then one more in the same transaction.
    await withTenant(ctx.db, companyId, async (trx) => {
      await trx.updateTable('time_entries').set({ notes: 'approved' }).where('project_id', '=', alpha).where('spent_date', '=', kept).execute();
      await trx.updateTable('time_entries').set({ notes: 'again' }).where('project_id', '=', alpha).where('spent_date', '=', kept).execute();
    });
    expect((await state(alpha)).marks).toBe(1);
    await figures(alpha);
    expect((await state(alpha)).marks).toBe(0);
  });

  it.runIf(onPostgres)('lets writers of a kept month go on at once: neither waits for the other', async () => {
    const entries = await ctx.db.selectFrom('time_entries').select('id').where('project_id', '=', alpha).where('spent_date', '=', kept).execute();
    expect(entries.length).toBeGreaterThan(1);
    await ctx.db.transaction().execute(async (first) => {
      await first.updateTable('time_entries').set({ notes: 'first' }).where('id', '=', entries[0].id).execute();
      // The second writer, on another connection, while the first has not committed.
      const second = ctx.db.updateTable('time_entries').set({ notes: 'second' }).where('id', '=', entries[1].id).execute();
      const waited = await Promise.race([second.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 3000))]);
      expect(waited).toBe(false);
    });
    expect(await figures(alpha)).toEqual(await figures(alpha));
    expect((await state(alpha)).marks).toBe(0);
  });

  it('gives two reports at once the same answer, filling the totals once', async () => {
    await ctx.db.updateTable('companies').set({ rounding_minutes: 6 }).where('id', '=', companyId).execute(); // everything stale
    const [a, b] = await Promise.all([figures(alpha), figures(alpha)]);
    expect(a).toEqual(b);
    expect(a).toEqual(await figures(alpha));
  });

  it('lets a project with entries of a kept month be deleted', async () => {
    const client = await insertClient(ctx.db, companyId, 'Gone Client');
    const gone = await project(client, 'Gone');
    await rate(gone, '2020-01-01', '10.00');
    await log(gone, kept, 1);
    expect((await figures(gone)).spent).toBe(1);
    await log(gone, kept, 1); // a stale mark, left behind by the deletion
    await ctx.db.deleteFrom('projects').where('company_id', '=', companyId).where('id', '=', gone).execute();
    await ctx.db.updateTable('companies').set({ rounding_minutes: 5 }).where('id', '=', companyId).execute();
    await figures(alpha);
    expect(await state(gone)).toEqual({ months: [], marks: 0 });
  });

  it('keeps each workspace to its own totals', async () => {
    const other = await createWorkspaceWithOwner(ctx.db, 'Other Co');
    const client = await insertClient(ctx.db, other.owner.companyId, 'Other Client');
    const theirs = newId();
    await ctx.db.insertInto('projects').values({ company_id: other.owner.companyId, id: theirs, client_id: client, name: 'Theirs', budget_by: 'project', budget: '5' }).execute();
    await assignTaskRow(ctx.db, other.owner.companyId, theirs, await insertTask(ctx.db, other.owner.companyId, { name: 'T' }));
    const res = await request(ctx.app, other.owner, { method: 'GET', url: '/api/v2/reports/project_budget' });
    expect(res.json().results.map((r: { project_id: string }) => r.project_id)).toEqual([theirs]);
    // Row-level security: one workspace's transaction sees none of the other's totals.
    const seen = await withTenant(ctx.db, other.owner.companyId, (trx) => sql<{ project_id: string }>`select project_id from project_time_totals`.execute(trx));
    expect(seen.rows.map((r) => r.project_id)).toEqual([theirs]);
  });
});
