import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { assignTask, assignUser, insertClient, insertEntryRow, insertProject, insertRate, makeTimeWorkspace, setWorkspace, type TimeWorkspace } from './fixtures/catalog.ts';

/**
 * The web app's reports (issue 16 item 5): /web/api/reports/time (time grouped by
 * project, task, person or client with the time list's visibility) and the
 * streamed CSV/XLSX downloads of every report table, whose numbers must be the
 * API's numbers.
 */

let ctx: TestContext;
let w: TimeWorkspace;
let foreign: TimeWorkspace;
let tokyo: string;
let nippon: string;
const s: Record<'owner' | 'manager' | 'mgrPlain' | 'member' | 'other' | 'foreignAdmin', Caller> = {} as never;
const get = (caller: Caller, url: string) => request(ctx.app, caller, { method: 'GET', url });

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeTimeWorkspace(ctx.db, { name: 'Reports Co' });
  foreign = await makeTimeWorkspace(ctx.db, { name: 'Elsewhere' });
  // Each entry is rounded up to the quarter hour on its own.
  await setWorkspace(ctx.db, w.companyId, { rounding: 'up', rounding_minutes: 15, currency: 'EUR' });
  nippon = await insertClient(ctx.db, w.companyId, 'Nippon');
  await ctx.db.updateTable('clients').set({ currency: 'JPY' }).where('id', '=', nippon).execute();
  tokyo = await insertProject(ctx.db, w.companyId, nippon, { name: 'Tokyo office' });
  await assignTask(ctx.db, w.companyId, tokyo, w.task);
  await assignUser(ctx.db, w.companyId, tokyo, w.member.userId);
  await insertRate(ctx.db, w.companyId, { projectId: w.project }, '2020-01-01', '100');
  await insertRate(ctx.db, w.companyId, { projectId: w.managed }, '2020-01-01', '80');
  await insertRate(ctx.db, w.companyId, { projectId: tokyo }, '2020-01-01', '5000');
  const entry = (who: Caller, projectId: string, taskId: string, spentDate: string, seconds: number) =>
    insertEntryRow(ctx.db, w.companyId, { userId: who.userId, projectId, taskId, spentDate, seconds });
  await entry(w.member, w.project, w.task, '2026-03-02', 4200); // 1h10 → 1.25 h, 125.00 EUR
  await entry(w.member, tokyo, w.task, '2026-03-03', 7200); // 2 h, 10000 JPY
  await entry(w.member, w.managed, w.managedTask, '2026-03-03', 1800); // 0.5 h, 40.00 EUR
  await entry(w.other, w.managed, w.managedTask, '2026-03-04', 3600); // 1 h, 80.00 EUR (manager manages it)
  await entry(w.other, w.project, w.task, '2026-03-04', 3600); // not the manager's: other is no teammate
  await entry(w.admin, w.project, w.task, '2026-03-05', 10800); // 3 h, 300.00 EUR
  await entry(w.member, w.project, w.task, '2026-04-01', 3600); // outside March
  await insertEntryRow(ctx.db, w.companyId, { userId: w.member.userId, projectId: w.project, taskId: w.task, spentDate: '2026-03-06', seconds: 600, running: new Date() });
  await insertEntryRow(ctx.db, foreign.companyId, { userId: foreign.member.userId, projectId: foreign.project, taskId: foreign.task, spentDate: '2026-03-02', seconds: 3600 });
  const now = ctx.clock.now();
  for (const name of ['owner', 'manager', 'mgrPlain', 'member', 'other'] as const) s[name] = await sessionFor(ctx.db, w[name], now);
  s.foreignAdmin = await sessionFor(ctx.db, foreign.admin, now);
});
afterAll(() => ctx.close());

const MARCH = 'from=2026-03-01&to=2026-03-31';

interface Group {
  id: string;
  name: string;
  client_name: string | null;
  hours: number;
  billable_hours: number;
  billable_amounts?: Array<{ currency: string; billable_hours: number; billable_amount: number }>;
}
async function report(caller: Caller, query: string) {
  const res = await get(caller, `/web/api/reports/time?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { amounts_visible: boolean; results: Group[] };
}

/** The CSV as rows of cells (the files here have no quoted commas or line breaks). */
function csvRows(body: string) {
  expect(body.charCodeAt(0)).toBe(0xfeff);
  return body.slice(1).trim().split('\n').map((line) => line.replace(/\r$/, '').split(','));
}
async function xlsxRows(payload: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(payload as never);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}
async function xlsxDateFormat(payload: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(payload as never);
  return workbook.worksheets[0].getRow(2).getCell(1).numFmt;
}

describe('the time report', () => {
  it('gives an administrator everyone’s rounded hours by person, with amounts per currency never added together', async () => {
    const body = await report(s.owner, `${MARCH}&group_by=person`);
    expect(body.amounts_visible).toBe(true);
    const byName = Object.fromEntries(body.results.map((g) => [g.id, g]));
    expect(byName[w.member.userId]).toMatchObject({
      hours: 3.75,
      billable_hours: 3.75,
      billable_amounts: [
        { currency: 'EUR', billable_hours: 1.75, billable_amount: 165 },
        { currency: 'JPY', billable_hours: 2, billable_amount: 10000 },
      ],
    });
    expect(byName[w.other.userId]).toMatchObject({ hours: 2, billable_amounts: [{ currency: 'EUR', billable_amount: 180 }] });
    expect(byName[w.admin.userId]).toMatchObject({ hours: 3 });
    expect(body.results).toHaveLength(3);
  });

  it('groups by project (with its client), task and client', async () => {
    const byProject = await report(s.owner, `${MARCH}&group_by=project`);
    expect(byProject.results.map((g) => [g.name, g.hours])).toEqual([
      ['Main project', 5.25],
      ['Managed project', 1.5],
      ['Tokyo office', 2],
    ]);
    expect(byProject.results.find((g) => g.id === tokyo)?.client_name).toBe('Nippon');
    const byTask = await report(s.owner, `${MARCH}&group_by=task`);
    expect(byTask.results.map((g) => [g.name, g.hours])).toEqual([
      ['Design', 1.5],
      ['Development', 7.25],
    ]);
    const byClient = await report(s.owner, `${MARCH}&group_by=client`);
    expect(byClient.results.find((g) => g.name === 'Nippon')).toMatchObject({ hours: 2, billable_amounts: [{ currency: 'JPY', billable_amount: 10000 }] });
  });

  it('shows a member only their own time and never an amount', async () => {
    const res = await get(s.member, `/web/api/reports/time?${MARCH}&group_by=project`);
    const body = res.json();
    expect(body.amounts_visible).toBe(false);
    expect(body.results.map((g: Group) => [g.name, g.hours])).toEqual([
      ['Main project', 1.25],
      ['Managed project', 0.5],
      ['Tokyo office', 2],
    ]);
    expect(res.body).not.toContain('billable_amount');
    expect(res.body).not.toContain('10000');
    // The export of every entry has no amount column either.
    const csv = await get(s.member, `/web/api/reports/time/export?format=csv&rows=entries&${MARCH}`);
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = csvRows(csv.body);
    expect(rows[0]).toEqual(['Date', 'Person', 'Client', 'Project', 'Task', 'Notes', 'Hours', 'Rounded hours', 'Billable']);
    expect(rows.slice(1).map((r) => [r[0], r[7]]).sort()).toEqual([
      ['2026-03-02', '1.25'],
      ['2026-03-03', '0.5'],
      ['2026-03-03', '2'],
    ]);
    expect(csv.body).not.toContain('10000');
  });

  it('shows a manager their teammates’ time and their managed projects’, and amounts only with View billable rates', async () => {
    const body = await report(s.manager, `${MARCH}&group_by=person`);
    expect(body.results.map((g) => [g.id, g.hours]).sort()).toEqual(
      [
        [w.member.userId, 3.75],
        [w.other.userId, 1], // the managed project only
      ].sort(),
    );
    expect(body.amounts_visible).toBe(true);
    const plain = await get(s.mgrPlain, `/web/api/reports/time?${MARCH}&group_by=person`);
    expect(plain.json()).toMatchObject({ amounts_visible: false, results: [] });
    expect(plain.body).not.toContain('billable_amount');
  });

  it('filters by ids; another workspace’s ids match nothing and its people see none of this workspace', async () => {
    expect((await report(s.owner, `${MARCH}&group_by=person&project_id=${tokyo}`)).results.map((g) => g.hours)).toEqual([2]);
    expect((await report(s.owner, `${MARCH}&group_by=person&user_id=${w.other.userId}`)).results.map((g) => g.hours)).toEqual([2]);
    expect((await report(s.owner, `${MARCH}&group_by=project&client_id=${nippon}`)).results.map((g) => [g.name, g.hours])).toEqual([['Tokyo office', 2]]);
    const entries = csvRows((await get(s.owner, `/web/api/reports/time/export?format=csv&rows=entries&${MARCH}&client_id=${nippon}`)).body);
    expect(entries.slice(1).map((r) => [r[3], r[7]])).toEqual([['Tokyo office', '2']]);
    expect((await report(s.owner, `${MARCH}&group_by=person&project_id=${foreign.project}`)).results).toEqual([]);
    expect((await report(s.owner, `${MARCH}&group_by=person&user_id=${foreign.member.userId}`)).results).toEqual([]);
    const theirs = await report(s.foreignAdmin, `${MARCH}&group_by=project&project_id=${w.project}`);
    expect(theirs.results).toEqual([]);
    const all = await report(s.foreignAdmin, `${MARCH}&group_by=project`);
    expect(all.results.map((g) => g.id)).toEqual([foreign.project]);
  });

  it('refuses bad parameters with 400 in the error shape, naming the field', async () => {
    for (const [query, field] of [
      [`${MARCH}&group_by=week`, undefined],
      ['from=2026-13-01&to=2026-03-31&group_by=project', 'from'],
      ['from=2026-03-31&to=2026-03-01&group_by=project', 'to'],
      [`${MARCH}&group_by=project&project_id=nope`, undefined],
      [`${MARCH}&group_by=project&colour=red`, undefined],
      ['to=2026-03-31&group_by=project', undefined],
    ] as const) {
      const res = await get(s.owner, `/web/api/reports/time?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ error: expect.any(String), error_description: expect.any(String), message: expect.any(String) });
      if (field) expect(res.json().field).toBe(field);
    }
    const exp = await get(s.owner, `/web/api/reports/team/export?format=pdf&${MARCH}`);
    expect(exp.statusCode).toBe(400);
    const long = await get(s.owner, '/web/api/reports/uninvoiced/export?format=csv&from=2025-01-01&to=2026-03-31');
    expect(long.statusCode).toBe(400);
    expect(long.json().field).toBe('to');
  });
});

describe('the exports', () => {
  it('write the team report’s numbers exactly, one amount column per currency, as CSV and as XLSX', async () => {
    const api = (await get(s.owner, `/api/v2/reports/time/team?${MARCH}`)).json().results as Array<{
      user_name: string;
      total_hours: number;
      billable_hours: number;
      billable_amounts: Array<{ currency: string; billable_amount: number }>;
    }>;
    const res = await get(s.owner, `/web/api/reports/team/export?format=csv&${MARCH}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('team-time-2026-03-01-to-2026-03-31.csv');
    const rows = csvRows(res.body);
    expect(rows[0]).toEqual(['Person', 'Contractor', 'Hours', 'Billable hours', 'Billable amount (EUR)', 'Billable amount (JPY)']);
    expect(rows).toHaveLength(api.length + 1);
    for (const person of api) {
      const row = rows.find((r) => r[0] === person.user_name)!;
      const amount = (c: string) => person.billable_amounts.find((a) => a.currency === c)?.billable_amount;
      expect(row.slice(2)).toEqual([String(person.total_hours), String(person.billable_hours), amount('EUR') === undefined ? '' : String(amount('EUR')), amount('JPY') === undefined ? '' : String(amount('JPY'))]);
    }
    expect(rows.find((r) => r[0].startsWith('Mia'))?.slice(2)).toEqual(['3.75', '3.75', '165', '10000']);

    const xlsx = await get(s.owner, `/web/api/reports/team/export?format=xlsx&${MARCH}`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toContain('.xlsx');
    const sheet = await xlsxRows(xlsx.rawPayload);
    expect(sheet[0]).toEqual(rows[0]);
    const mia = sheet.find((r) => String(r[0]).startsWith('Mia'))!;
    expect(mia.slice(2)).toEqual([3.75, 3.75, 165, 10000]);
    for (const person of api) {
      const row = sheet.find((r) => r[0] === person.user_name)!;
      expect(row[2]).toBe(person.total_hours);
      expect(row[3]).toBe(person.billable_hours);
    }
  });

  it('write the uninvoiced and project budget reports’ numbers exactly', async () => {
    const un = (await get(s.owner, `/api/v2/reports/uninvoiced?${MARCH}`)).json().results as Array<Record<string, string | number>>;
    expect(un.length).toBeGreaterThan(0);
    const csv = csvRows((await get(s.owner, `/web/api/reports/uninvoiced/export?format=csv&${MARCH}`)).body);
    expect(csv[0]).toEqual(['Client', 'Project', 'Currency', 'Total hours', 'Uninvoiced hours', 'Uninvoiced expenses', 'Uninvoiced amount']);
    expect(csv.slice(1)).toEqual(
      un.map((r) => [r.client_name, r.project_name, r.currency, r.total_hours, r.uninvoiced_hours, r.uninvoiced_expenses, r.uninvoiced_amount].map(String)),
    );
    const sheet = await xlsxRows((await get(s.owner, `/web/api/reports/uninvoiced/export?format=xlsx&${MARCH}`)).rawPayload);
    expect(sheet.slice(1)).toEqual(
      un.map((r) => [r.client_name, r.project_name, r.currency, r.total_hours, r.uninvoiced_hours, r.uninvoiced_expenses, r.uninvoiced_amount]),
    );

    const budget = (await get(s.owner, '/api/v2/reports/project_budget')).json().results as Array<Record<string, string | number | boolean | null>>;
    const bcsv = csvRows((await get(s.owner, '/web/api/reports/project_budget/export?format=csv')).body);
    const cell = (v: unknown) => (v === null ? '' : v === true ? 'yes' : v === false ? 'no' : String(v));
    expect(bcsv.slice(1)).toEqual(
      budget.map((r) => [r.client_name, r.project_name, r.budget_by, r.budget_is_monthly, r.is_active, r.budget, r.budget_spent, r.budget_remaining, r.currency].map(cell)),
    );
  });

  it('write the grouped time report’s numbers, and every entry in date order', async () => {
    const json = await report(s.owner, `${MARCH}&group_by=project`);
    const csv = csvRows((await get(s.owner, `/web/api/reports/time/export?format=csv&${MARCH}&group_by=project`)).body);
    expect(csv[0]).toEqual(['Client', 'Project', 'Hours', 'Billable hours', 'Billable amount (EUR)', 'Billable amount (JPY)']);
    expect(csv.slice(1).map((r) => [r[1], Number(r[2])])).toEqual(json.results.map((g) => [g.name, g.hours]));
    const entries = await xlsxRows((await get(s.owner, `/web/api/reports/time/export?format=xlsx&rows=entries&${MARCH}&group_by=project`)).rawPayload);
    expect(entries[0]).toContain('Billable amount');
    // Real date cells (a spreadsheet sorts and filters them as dates), shown as yyyy-mm-dd; CSV keeps ISO text.
    expect(entries.slice(1).map((r) => (r[0] as Date).toISOString().slice(0, 10))).toEqual(['2026-03-02', '2026-03-03', '2026-03-03', '2026-03-04', '2026-03-04', '2026-03-05']);
    expect(entries.slice(1).every((r) => r[0] instanceof Date)).toBe(true);
    expect(await xlsxDateFormat((await get(s.owner, `/web/api/reports/time/export?format=xlsx&rows=entries&${MARCH}`)).rawPayload)).toBe('yyyy-mm-dd');
    const csvEntries = csvRows((await get(s.owner, `/web/api/reports/time/export?format=csv&rows=entries&${MARCH}`)).body);
    expect(csvEntries[1]![0]).toBe('2026-03-02');
    expect(entries.slice(1).reduce((sum, r) => sum + Number(r[7]), 0)).toBe(8.75);
  });

  it('refuses what the API refuses: the financial reports to members, the team report to members', async () => {
    for (const url of [
      '/web/api/reports/project_budget/export?format=csv',
      `/web/api/reports/uninvoiced/export?format=csv&${MARCH}`,
      `/web/api/reports/team/export?format=csv&${MARCH}`,
    ]) {
      const res = await get(s.member, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
    // A manager without View billable rates: the budget report is refused; the team report has no amounts.
    expect((await get(s.mgrPlain, '/web/api/reports/project_budget/export?format=csv')).statusCode).toBe(403);
    const team = await get(s.mgrPlain, `/web/api/reports/team/export?format=csv&${MARCH}`);
    expect(csvRows(team.body)[0]).toEqual(['Person', 'Contractor', 'Hours', 'Billable hours']);
    // Without a session: 401.
    expect((await request(ctx.app, null, { method: 'GET', url: `/web/api/reports/time?${MARCH}&group_by=project` })).statusCode).toBe(401);
  });
});
