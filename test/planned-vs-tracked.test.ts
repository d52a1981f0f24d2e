import { Decimal } from 'decimal.js';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueSavedReports, savedReportRenderers } from '../src/modules/reports/saved-reports/index.ts';
import type { MailMessage } from '../src/outbox/enqueue.ts';
import { deliverDueMessages, type SentAttachment } from '../src/outbox/worker.ts';
import { assignTask, assignUser, insertClient, insertEntryRow, insertProject, makeTimeWorkspace, setNow, type TimeWorkspace } from './fixtures/catalog.ts';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * Planned vs tracked's download and saved report: the CSV byte for byte (hours as exact
 * decimals, six places at most, text made inert), the XLSX with numeric cells, the report's
 * permissions (members 403, a manager only the projects they manage, another workspace none of
 * these rows, an API key 403 on a web route), bad ranges 400; saved as a report kind of its own
 * (its defaults and refusals, who may save and see it) and e-mailed on its schedule as the
 * owner's download.
 */

let ctx: TestContext;
let w: TimeWorkspace;
let foreign: TimeWorkspace;
let website: string;
let intranet: string;
let shop: string;
const s: Record<'owner' | 'admin' | 'manager' | 'mgrPlain' | 'member' | 'foreignAdmin', Caller> = {} as never;

const WEEK = 'from=2026-11-02&to=2026-11-08';

async function sessions() {
  for (const who of ['owner', 'admin', 'manager', 'mgrPlain', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  s.foreignAdmin = await sessionFor(ctx.db, foreign.admin, ctx.clock.now());
}

const web = (caller: Caller | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object) });

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ error, error_description: expect.any(String), ...(field ? { field } : {}) });
}

async function plan(body: Record<string, unknown>) {
  const res = await web(s.admin, 'POST', '/web/api/planning_assignments', body);
  expect(res.statusCode, res.body).toBe(201);
}

beforeAll(async () => {
  ctx = await createTestContext();
  setNow(ctx.clock, '2026-11-10T09:00:00Z');
  w = await makeTimeWorkspace(ctx.db, { name: 'Planned Co' });
  foreign = await makeTimeWorkspace(ctx.db, { name: 'Elsewhere' });
  await sessions();
  const acme = await insertClient(ctx.db, w.companyId, 'Acme');
  const bolt = await insertClient(ctx.db, w.companyId, 'Bolt');
  website = await insertProject(ctx.db, w.companyId, acme, { name: 'Website' });
  intranet = await insertProject(ctx.db, w.companyId, acme, { name: 'Intranet' });
  // A name a spreadsheet would read as a formula: the CSV makes it inert.
  shop = await insertProject(ctx.db, w.companyId, bolt, { name: '=Shop' });
  for (const p of [website, intranet, shop]) {
    await assignTask(ctx.db, w.companyId, p, w.task);
    await assignUser(ctx.db, w.companyId, p, w.member.userId);
  }
  // The manager manages the intranet (and the fixture's managed project, which has no hours).
  await assignUser(ctx.db, w.companyId, intranet, w.manager.userId, { manager: true });

  // Website: 2 h a day Monday to Friday (10 h). Intranet: 10 h over Friday, Monday and Tuesday,
  // so this week holds a third of it (3.333… h, six places in the download).
  await plan({ project_id: website, user_id: w.member.userId, starts_on: '2026-11-02', ends_on: '2026-11-06', hours_per_day: 2 });
  await plan({ project_id: intranet, user_id: w.member.userId, starts_on: '2026-11-06', ends_on: '2026-11-10', total_hours: 10 });
  const entry = (projectId: string, spentDate: string, seconds: number) =>
    insertEntryRow(ctx.db, w.companyId, { userId: w.member.userId, projectId, taskId: w.task, spentDate, seconds });
  await entry(website, '2026-11-03', 3 * 3600);
  await entry(website, '2026-11-04', 1200); // 20 minutes: 0.333333 h
  await entry(intranet, '2026-11-05', 3600);
  await entry(shop, '2026-11-06', 1800);
  await entry(website, '2026-11-09', 3600); // the next week: outside the period
  await insertEntryRow(ctx.db, w.companyId, { userId: w.member.userId, projectId: website, taskId: w.task, spentDate: '2026-11-05', seconds: 600, running: new Date() });
  await insertEntryRow(ctx.db, foreign.companyId, { userId: foreign.member.userId, projectId: foreign.project, taskId: foreign.task, spentDate: '2026-11-03', seconds: 3600 });
});
afterAll(() => ctx.close());

const HEADER = 'Client,Project,Planned hours,Tracked hours,Difference hours';
const csvOf = (...lines: string[]) => `\ufeff${[HEADER, ...lines].join('\n')}\n`;

async function xlsxRows(payload: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(payload as never);
  expect(workbook.worksheets.map((x) => x.name)).toEqual(['Planned vs tracked']);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('the download', () => {
  it('writes every project’s planned and tracked hours and their difference as exact decimals, in CSV', async () => {
    const res = await web(s.admin, 'GET', `/web/api/reports/planned_vs_tracked/export?format=csv&${WEEK}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('planned-vs-tracked-2026-11-02-to-2026-11-08.csv');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toBe(csvOf('Acme,Intranet,3.333333,1,-2.333333', 'Acme,Website,10,3.333333,-6.666667', "Bolt,'=Shop,0,0.5,0.5"));
    // The page's rows, the same projects in the same order, its hours with two places.
    const page = (await web(s.admin, 'GET', `/web/api/reports/planned_vs_tracked?${WEEK}`)).json().projects;
    expect(page.map((r: { project: { name: string }; planned_hours: number; tracked_hours: number; difference_hours: number }) => [r.project.name, r.planned_hours, r.tracked_hours, r.difference_hours])).toEqual([
      ['Intranet', 3.33, 1, -2.33],
      ['Website', 10, 3.33, -6.67],
      ['=Shop', 0, 0.5, 0.5],
    ]);
    // One day: named after it.
    const day = await web(s.owner, 'GET', '/web/api/reports/planned_vs_tracked/export?format=csv&from=2026-11-03&to=2026-11-03');
    expect(day.headers['content-disposition']).toContain('planned-vs-tracked-2026-11-03.csv');
    expect(day.body).toBe(csvOf('Acme,Website,2,3,1'));
  });

  it('gives the page its total row: the exact sums of the rows’ hours as shown, the difference column adding up to it', async () => {
    const body = (await web(s.admin, 'GET', `/web/api/reports/planned_vs_tracked?${WEEK}`)).json();
    // 3.33 + 10 + 0 planned and 1 + 3.33 + 0.5 tracked: the rows' two places, not the exact 13.333333 and 4.833333.
    expect(body.totals).toEqual({ planned_hours: 13.33, tracked_hours: 4.83, difference_hours: -8.5 });
    // Each row's difference is its two figures' (1 − 3.33 = −2.33), so the column adds up to the total's.
    const differences = body.projects.map((r: { difference_hours: number }) => r.difference_hours);
    expect(Decimal.sum(...differences).toNumber()).toBe(body.totals.difference_hours);
    // A manager's total is their projects' (the intranet) alone.
    expect((await web(s.manager, 'GET', `/web/api/reports/planned_vs_tracked?${WEEK}`)).json().totals).toEqual({ planned_hours: 3.33, tracked_hours: 1, difference_hours: -2.33 });

    // 10 h over three days, a day of it (3.333333, shown 3.33) against 1.005 h tracked (shown 1.01): the
    // row's difference is 1.01 − 3.33 = −2.32, what the page shows, not the exact −2.328333 rounded (−2.33).
    await plan({ project_id: w.managed, user_id: w.other.userId, starts_on: '2027-03-01', ends_on: '2027-03-03', total_hours: 10 });
    await insertEntryRow(ctx.db, w.companyId, { userId: w.other.userId, projectId: w.managed, taskId: w.managedTask, spentDate: '2027-03-01', seconds: 3618 });
    const day = (await web(s.admin, 'GET', '/web/api/reports/planned_vs_tracked?from=2027-03-01&to=2027-03-01')).json();
    expect(day.projects.map((r: { planned_hours: number; tracked_hours: number; difference_hours: number }) => [r.planned_hours, r.tracked_hours, r.difference_hours])).toEqual([[3.33, 1.01, -2.32]]);
    expect(day.totals).toEqual({ planned_hours: 3.33, tracked_hours: 1.01, difference_hours: -2.32 });
  });

  it('opens as XLSX with numeric hours', async () => {
    const res = await web(s.owner, 'GET', `/web/api/reports/planned_vs_tracked/export?format=xlsx&${WEEK}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toContain('planned-vs-tracked-2026-11-02-to-2026-11-08.xlsx');
    expect(await xlsxRows(res.rawPayload)).toEqual([
      ['Client', 'Project', 'Planned hours', 'Tracked hours', 'Difference hours'],
      ['Acme', 'Intranet', 3.333333, 1, -2.333333],
      ['Acme', 'Website', 10, 3.333333, -6.666667],
      // XLSX text cells are never formulas: the name as it is.
      ['Bolt', '=Shop', 0, 0.5, 0.5],
    ]);
  });

  it('has the report’s permissions: members 403, managers their managed projects, another workspace none of these', async () => {
    for (const format of ['csv', 'xlsx']) {
      expectError(await web(s.member, 'GET', `/web/api/reports/planned_vs_tracked/export?format=${format}&${WEEK}`), 403, 'forbidden');
    }
    expect((await web(s.manager, 'GET', `/web/api/reports/planned_vs_tracked/export?format=csv&${WEEK}`)).body).toBe(csvOf('Acme,Intranet,3.333333,1,-2.333333'));
    // A manager who manages nothing: the header alone.
    expect((await web(s.mgrPlain, 'GET', `/web/api/reports/planned_vs_tracked/export?format=csv&${WEEK}`)).body).toBe(csvOf());
    // Another workspace's administrator: their own workspace (an hour on a project without a plan), none of this one.
    const theirs = await web(s.foreignAdmin, 'GET', `/web/api/reports/planned_vs_tracked/export?format=csv&${WEEK}`);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.body).not.toContain('Acme');
    expect(theirs.body.trim().split('\n')).toHaveLength(2);
    expect(theirs.body).toMatch(/,Main project,0,1,1\n$/);
    // A web route: no session 401, an API key 403.
    expectError(await web(null, 'GET', `/web/api/reports/planned_vs_tracked/export?format=csv&${WEEK}`), 401, 'unauthorized');
    expect((await web(w.admin, 'GET', `/web/api/reports/planned_vs_tracked/export?format=csv&${WEEK}`)).statusCode).toBe(403);
  });

  it('refuses a bad range or format with 400', async () => {
    const url = (q: string) => `/web/api/reports/planned_vs_tracked/export?${q}`;
    expectError(await web(s.admin, 'GET', url('format=csv&from=2026-11-08&to=2026-11-02')), 400, 'invalid_request', 'to');
    for (const q of ['format=csv&from=2026-11-02', 'format=csv&from=2026-13-01&to=2026-12-31', 'format=pdf&from=2026-11-02&to=2026-11-08', `${WEEK}`, `format=csv&${WEEK}&project_id=x`]) {
      expect((await web(s.admin, 'GET', url(q))).statusCode, q).toBe(400);
    }
    // The page's report refuses the same range.
    expectError(await web(s.admin, 'GET', '/web/api/reports/planned_vs_tracked?from=2026-11-08&to=2026-11-02'), 400, 'invalid_request', 'to');
  });
});

/** A transport that keeps what it was given. */
function keepingTransport() {
  const sent: Array<{ message: MailMessage; attachments: SentAttachment[] }> = [];
  return { sent, transport: { send: async (message: MailMessage, attachments: SentAttachment[]) => void sent.push({ message, attachments }) } };
}

async function save(caller: Caller, body: Record<string, unknown>) {
  const res = await web(caller, 'POST', '/web/api/saved_reports', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('the saved report', () => {
  it('saves planned vs tracked with a period, no grouping and no project filter', async () => {
    expect(await save(s.manager, { name: 'Plan', report: 'planned_vs_tracked' })).toMatchObject({
      report: 'planned_vs_tracked',
      period: 'this_month',
      from: null,
      to: null,
      group_by: null,
      is_active: null,
      range: { from: '2026-11-01', to: '2026-11-30' },
    });
    const fixed = await save(s.admin, { name: 'Plan week', report: 'planned_vs_tracked', period: 'custom', from: '2026-11-02', to: '2026-11-08', visibility: 'workspace' });
    expect(fixed).toMatchObject({ period: 'custom', range: { from: '2026-11-02', to: '2026-11-08' } });
    // As the page, any length.
    await save(s.admin, { name: 'Plan years', report: 'planned_vs_tracked', period: 'custom', from: '2024-01-01', to: '2025-12-31' });
    expect((await web(s.admin, 'GET', `/web/api/saved_reports/${fixed.id}`)).json()).toEqual(fixed);

    for (const [body, field] of [
      [{ group_by: 'task' }, 'group_by'],
      [{ is_active: true }, 'is_active'],
      [{ period: null }, 'period'],
      [{ period: 'custom', from: '2026-11-08', to: '2026-11-02' }, 'to'],
      [{ period: 'custom', from: '2026-11-02' }, 'to'],
    ] as const) {
      expectError(await web(s.admin, 'POST', '/web/api/saved_reports', { name: 'x', report: 'planned_vs_tracked', ...body }), 400, 'invalid_request', field);
    }
    // Members may not run it, so they neither save it nor see a shared one.
    expectError(await web(s.member, 'POST', '/web/api/saved_reports', { name: 'x', report: 'planned_vs_tracked' }), 403, 'forbidden');
    expectError(await web(s.member, 'GET', `/web/api/saved_reports/${fixed.id}`), 404, 'not_found');
    expect((await web(s.member, 'GET', '/web/api/saved_reports')).json().saved_reports.map((r: { id: string }) => r.id)).not.toContain(fixed.id);
    // A manager sees the shared one (and runs it with their own projects).
    expect((await web(s.mgrPlain, 'GET', `/web/api/saved_reports/${fixed.id}`)).json()).toMatchObject({ is_own: false, report: 'planned_vs_tracked' });
    // Another kind changes into it, taking its defaults.
    const time = await save(s.owner, { name: 'Was time', report: 'time', group_by: 'task' });
    const changed = await web(s.owner, 'PATCH', `/web/api/saved_reports/${time.id}`, { report: 'planned_vs_tracked', period: 'last_month' });
    expect(changed.json()).toMatchObject({ report: 'planned_vs_tracked', period: 'last_month', group_by: null, range: { from: '2026-10-01', to: '2026-10-31' } });
  });

  it('e-mails its CSV on its schedule: the owner’s download of the period', async () => {
    const r = await save(s.manager, { name: 'Planned monthly', report: 'planned_vs_tracked', period: 'last_month', schedule: 'monthly' });
    expect(r.next_send_date).toBe('2026-12-01');
    const run = () => runDueSavedReports({ db: ctx.db, clock: ctx.clock.now, baseUrl: 'https://sheaf.example' });
    expect(await run()).toEqual({ sent: 0, skipped: 0 });

    setNow(ctx.clock, '2026-12-01T06:00:00Z');
    expect(await run()).toMatchObject({ sent: 1 });
    expect(await run()).toEqual({ sent: 0, skipped: 0 });
    const { sent, transport } = keepingTransport();
    await deliverDueMessages({ db: ctx.db, transport, renderers: savedReportRenderers, clock: ctx.clock.now, log: { warn: () => {} } });
    const mail = sent.find((m) => m.message.subject.includes('Planned monthly'))!;
    expect(mail.message.to).toEqual([{ email: w.manager.email, name: expect.stringMatching(/^Max/) }]);
    expect(mail.message.subject).toBe('Your report "Planned monthly", 2026-11-01 to 2026-11-30');
    expect(mail.message.text).toContain('Attached: the planned vs tracked report for 2026-11-01 to 2026-11-30 as CSV.');
    expect(mail.message.text).toContain('https://sheaf.example/reports/planned?from=2026-11-01&to=2026-11-30');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: 'Planned monthly 2026-11-01 2026-11-30.csv', contentType: 'text/csv; charset=utf-8' });
    // The manager's own projects: the intranet's whole plan (10 h) in November, not the website's.
    const csv = mail.attachments[0].content.toString('utf8');
    expect(csv).toBe(csvOf('Acme,Intranet,10,1,-9'));
    await sessions();
    expect((await web(s.manager, 'GET', '/web/api/reports/planned_vs_tracked/export?format=csv&from=2026-11-01&to=2026-11-30')).body).toBe(csv);
  });
});
