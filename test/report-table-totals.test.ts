import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { assignTask, assignTeammate, insertClient, insertEntryRow, insertProject, insertRate, makeTimeWorkspace, setWorkspace, type TimeWorkspace } from './fixtures/catalog.ts';

/**
 * The total rows of the report tables (docs/decisions.md, "Total rows in the reports"): the web
 * routes' `totals` are the server's exact sums over every row of the report (more rows than the
 * table's page of 100, more than the API page asked for), of the figures the rows are summed
 * from: each entry's hours rounded by the workspace rule (up to the quarter hour here) and each
 * entry's amount rounded on its own (0.25 h × 33.33 = 8.3325 → 8.33; 0.25 h × 333.3 ¥ = 83.325 →
 * ¥83), per currency and never across currencies. A caller who may not see amounts gets no
 * amount total; the API's own report routes do not change.
 */

let ctx: TestContext;
let w: TimeWorkspace;
let acme: string;
let nippon: string;
const s: Record<'owner' | 'manager' | 'mgrPlain' | 'member', Caller> = {} as never;
const get = async (caller: Caller, url: string) => {
  const res = await request(ctx.app, caller, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const MARCH = 'from=2026-03-01&to=2026-03-31';
const EURO_PROJECTS = 105; // more than a table's page (TABLE_ROWS, 100)

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeTimeWorkspace(ctx.db, { name: 'Totals Co' });
  await setWorkspace(ctx.db, w.companyId, { rounding: 'up', rounding_minutes: 15, currency: 'EUR', invoice_before_approval: true });
  acme = await insertClient(ctx.db, w.companyId, 'Acme');
  nippon = await insertClient(ctx.db, w.companyId, 'Nippon');
  await ctx.db.updateTable('clients').set({ currency: 'JPY' }).where('id', '=', nippon).execute();
  // Pia (a manager who may not see rates) manages Mia's time.
  await assignTeammate(ctx.db, w.companyId, w.mgrPlain.userId, w.member.userId);
  const people = [w.member, w.other, w.admin];
  for (let i = 0; i < EURO_PROJECTS; i++) {
    const project = await insertProject(ctx.db, w.companyId, acme, { name: `Euro ${String(i).padStart(3, '0')}` });
    await assignTask(ctx.db, w.companyId, project, w.task);
    await insertRate(ctx.db, w.companyId, { projectId: project }, '2020-01-01', '33.33');
    // Ten minutes: 0.25 h rounded up, 8.33 EUR.
    await insertEntryRow(ctx.db, w.companyId, { userId: people[i % 3].userId, projectId: project, taskId: w.task, spentDate: '2026-03-02', seconds: 600 });
  }
  for (const name of ['Tokyo', 'Osaka']) {
    const project = await insertProject(ctx.db, w.companyId, nippon, { name });
    await assignTask(ctx.db, w.companyId, project, w.task);
    await insertRate(ctx.db, w.companyId, { projectId: project }, '2020-01-01', '333.3');
    // Three entries of 0.25 h: ¥83 each, ¥249 (priced as a sum, 0.75 h would be ¥250).
    for (const who of [w.member, w.other, w.member]) {
      await insertEntryRow(ctx.db, w.companyId, { userId: who.userId, projectId: project, taskId: w.task, spentDate: '2026-03-03', seconds: 60 });
    }
  }
  for (const name of ['owner', 'manager', 'mgrPlain', 'member'] as const) s[name] = await sessionFor(ctx.db, w[name], ctx.clock.now());
});
afterAll(() => ctx.close());

type Amount = { currency: string; billable_hours: number; billable_amount: number };
const sum = (values: number[]) => Decimal.sum(0, ...values).toNumber();
/** The rows' amounts added per currency, as the total row must show them. */
function amountsOf(rows: Array<{ billable_amounts?: Amount[] }>) {
  const by = new Map<string, { hours: Decimal; amount: Decimal }>();
  for (const a of rows.flatMap((r) => r.billable_amounts ?? [])) {
    const t = by.get(a.currency) ?? { hours: new Decimal(0), amount: new Decimal(0) };
    by.set(a.currency, { hours: t.hours.plus(a.billable_hours), amount: t.amount.plus(a.billable_amount) });
  }
  return [...by.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, t]) => ({ currency, billable_hours: t.hours.toNumber(), billable_amount: t.amount.toNumber() }));
}

describe('the time report’s total row', () => {
  it('adds every group’s rounded hours and its amounts per currency, never across currencies', async () => {
    const body = await get(s.owner, `/web/api/reports/time?${MARCH}&group_by=project`);
    expect(body.results).toHaveLength(EURO_PROJECTS + 2);
    expect(body.totals).toEqual({
      hours: sum(body.results.map((r: { hours: number }) => r.hours)),
      billable_hours: sum(body.results.map((r: { billable_hours: number }) => r.billable_hours)),
      billable_amounts: amountsOf(body.results),
    });
    // 105 × 0.25 h and 6 × 0.25 h; 105 × 8.33 EUR (not 105 × 8.3325 = 874.91), 6 × ¥83 (not ¥500).
    expect(body.totals).toEqual({
      hours: 27.75,
      billable_hours: 27.75,
      billable_amounts: [
        { currency: 'EUR', billable_hours: 26.25, billable_amount: 874.65 },
        { currency: 'JPY', billable_hours: 1.5, billable_amount: 498 },
      ],
    });
    // Any grouping: the same total.
    for (const groupBy of ['task', 'person', 'client']) {
      expect((await get(s.owner, `/web/api/reports/time?${MARCH}&group_by=${groupBy}`)).totals).toEqual(body.totals);
    }
  });

  it('gives a caller who may not see rates their own hours’ total and no amount', async () => {
    const body = await get(s.member, `/web/api/reports/time?${MARCH}&group_by=project`);
    expect(body.amounts_visible).toBe(false);
    expect(body.totals).toEqual({ hours: sum(body.results.map((r: { hours: number }) => r.hours)), billable_hours: 9.75 });
    expect(body.totals.hours).toBe(35 * 0.25 + 4 * 0.25);
    expect(JSON.stringify(body)).not.toContain('billable_amount');
  });

  it('is zero for a period without time', async () => {
    expect((await get(s.owner, '/web/api/reports/time?from=2025-01-01&to=2025-01-31&group_by=project')).totals).toEqual({ hours: 0, billable_hours: 0, billable_amounts: [] });
  });
});

describe('the team report’s total row', () => {
  it('is the same on every page: the sums of every person of the report, amounts per currency', async () => {
    const pages = [await get(s.owner, `/web/api/reports/team?${MARCH}&per_page=2`)];
    expect(pages[0].total_pages).toBeGreaterThan(2);
    for (let page = 2; page <= pages[0].total_pages; page++) pages.push(await get(s.owner, `/web/api/reports/team?${MARCH}&per_page=2&page=${page}`));
    const rows = pages.flatMap((p) => p.results);
    expect(pages[0].total_entries).toBe(rows.length);
    expect(rows.length).toBeGreaterThan(2);
    const expected = {
      total_hours: sum(rows.map((r) => r.total_hours)),
      billable_hours: sum(rows.map((r) => r.billable_hours)),
      billable_amounts: amountsOf(rows),
    };
    expect(expected.billable_amounts).toEqual([
      { currency: 'EUR', billable_hours: 26.25, billable_amount: 874.65 },
      { currency: 'JPY', billable_hours: 1.5, billable_amount: 498 },
    ]);
    for (const p of pages) expect(p.totals).toEqual(expected);
    // A page past the end has no rows, and still the report's total.
    const past = await get(s.owner, `/web/api/reports/team?${MARCH}&per_page=2&page=40`);
    expect(past.results).toEqual([]);
    expect(past.totals).toEqual(expected);
    // The rows are the API's, which has no total row.
    const api = await get(s.owner, `/api/v2/reports/time/team?${MARCH}&per_page=2`);
    expect(api.results).toEqual(pages[0].results);
    expect(api).not.toHaveProperty('totals');
  });

  it('gives a manager who may not see rates their team’s hours and no amount', async () => {
    const body = await get(s.mgrPlain, `/web/api/reports/team?${MARCH}`);
    expect(body.totals).toEqual({ total_hours: sum(body.results.map((r: { total_hours: number }) => r.total_hours)), billable_hours: 9.75 });
    expect(body.totals.total_hours).toBe(9.75); // Mia's (Pia has none)
    expect(JSON.stringify(body)).not.toContain('billable_amount');
    // A manager who sees rates gets their team's amounts.
    const manager = await get(s.manager, `/web/api/reports/team?${MARCH}`);
    expect(manager.totals.billable_amounts).toEqual(amountsOf(manager.results));
  });
});

describe('the uninvoiced report’s total rows', () => {
  it('totals each client’s table over all its rows of the report, in its currency', async () => {
    const all = (await get(s.owner, `/api/v2/reports/uninvoiced?${MARCH}`)).results as Array<Record<string, number | string>>;
    expect(all).toHaveLength(EURO_PROJECTS + 2);
    const totalOf = (clientId: string) => {
      const rows = all.filter((r) => r.client_id === clientId);
      const add = (key: string) => sum(rows.map((r) => r[key] as number));
      return {
        client_id: clientId,
        currency: rows[0].currency,
        total_hours: add('total_hours'),
        uninvoiced_hours: add('uninvoiced_hours'),
        uninvoiced_expenses: add('uninvoiced_expenses'),
        uninvoiced_amount: add('uninvoiced_amount'),
      };
    };
    // A page of 50 rows holds only Acme's first 50 projects; its total is all 105 of them.
    const first = await get(s.owner, `/web/api/reports/uninvoiced?${MARCH}&per_page=50`);
    expect(first.results).toHaveLength(50);
    expect(first.totals).toEqual([totalOf(acme)]);
    expect(first.totals[0]).toMatchObject({ currency: 'EUR', total_hours: 26.25, uninvoiced_hours: 26.25, uninvoiced_amount: 874.65 });
    const last = await get(s.owner, `/web/api/reports/uninvoiced?${MARCH}&per_page=50&page=3`);
    expect(last.totals).toEqual([totalOf(acme), totalOf(nippon)]);
    expect(last.totals[1]).toMatchObject({ currency: 'JPY', total_hours: 1.5, uninvoiced_amount: 498 });
    // The rows are the API's, which has no total row.
    expect((await get(s.owner, `/web/api/reports/uninvoiced?${MARCH}`)).results).toEqual(all);
    expect(await get(s.owner, `/api/v2/reports/uninvoiced?${MARCH}`)).not.toHaveProperty('totals');
  });

  it('keeps the API report’s permission: a manager without View invoices is refused', async () => {
    const res = await request(ctx.app, s.manager, { method: 'GET', url: `/web/api/reports/uninvoiced?${MARCH}` });
    expect(res.statusCode).toBe(403);
  });
});
