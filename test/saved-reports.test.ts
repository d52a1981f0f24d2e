import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueSavedReports, savedReportRenderers } from '../src/modules/reports/saved-reports/index.ts';
import { nextSendDate, periodStartOf, resolvePeriod } from '../src/modules/reports/saved-reports/rules.ts';
import type { MailMessage } from '../src/outbox/enqueue.ts';
import { deliverDueMessages, type SentAttachment } from '../src/outbox/worker.ts';
import { billableProject, insertClient, insertEntry, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';
import type { Database } from '../src/db/database.ts';
import { runCli } from './cli-runner.ts';
import { createTestContext, onPostgres, request, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * Saved reports (issue 26 item 3): relative periods and schedule dates (pure); the web
 * routes (round trip, bad input with nothing written, who sees and changes what,
 * tenancy); the schedule's e-mail with its CSV, exactly once per period even when two
 * runs race; the backup resource.
 */

describe('relative periods and schedule dates', () => {
  it('resolves each named period against a day', () => {
    expect(resolvePeriod('this_month', '2026-02-10')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(resolvePeriod('last_month', '2026-01-15')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(resolvePeriod('last_month', '2026-03-31')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(resolvePeriod('this_quarter', '2026-05-20')).toEqual({ from: '2026-04-01', to: '2026-06-30' });
    expect(resolvePeriod('last_quarter', '2026-02-10')).toEqual({ from: '2025-10-01', to: '2025-12-31' });
    expect(resolvePeriod('this_year', '2028-02-29')).toEqual({ from: '2028-01-01', to: '2028-12-31' });
    expect(resolvePeriod('last_year', '2026-01-01')).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    expect(resolvePeriod('last_365_days', '2026-02-10')).toEqual({ from: '2025-02-11', to: '2026-02-10' });
  });

  it('resolves this week and last week in the workspace’s weeks (week_start)', () => {
    // 2026-02-10 is a Tuesday.
    expect(resolvePeriod('this_week', '2026-02-10', 'monday')).toEqual({ from: '2026-02-09', to: '2026-02-15' });
    expect(resolvePeriod('last_week', '2026-02-10', 'monday')).toEqual({ from: '2026-02-02', to: '2026-02-08' });
    expect(resolvePeriod('this_week', '2026-02-10', 'sunday')).toEqual({ from: '2026-02-08', to: '2026-02-14' });
    expect(resolvePeriod('last_week', '2026-02-10', 'sunday')).toEqual({ from: '2026-02-01', to: '2026-02-07' });
    expect(resolvePeriod('this_week', '2026-02-10', 'saturday')).toEqual({ from: '2026-02-07', to: '2026-02-13' });
    expect(resolvePeriod('last_week', '2026-01-02', 'saturday')).toEqual({ from: '2025-12-20', to: '2025-12-26' });
    // A weekly e-mail of last week, sent on the first day of a Sunday-start week, is the week just ended.
    expect(resolvePeriod('last_week', periodStartOf('weekly', '2026-02-10', 'sunday'), 'sunday')).toEqual({ from: '2026-02-01', to: '2026-02-07' });
  });

  it('sends first when the next week (by the workspace week start) or month begins', () => {
    // 2026-02-10 is a Tuesday.
    expect(periodStartOf('weekly', '2026-02-10', 'monday')).toBe('2026-02-09');
    expect(nextSendDate('weekly', '2026-02-10', 'monday')).toBe('2026-02-16');
    expect(nextSendDate('weekly', '2026-02-10', 'sunday')).toBe('2026-02-15');
    expect(nextSendDate('weekly', '2026-02-09', 'monday')).toBe('2026-02-16');
    expect(nextSendDate('monthly', '2026-01-31', 'monday')).toBe('2026-02-01');
    expect(nextSendDate('monthly', '2026-02-01', 'monday')).toBe('2026-03-01');
    expect(periodStartOf('monthly', '2026-12-31', 'monday')).toBe('2026-12-01');
  });
});

let ctx: TestContext;
let w: InvoiceWorkspace;
let other: InvoiceWorkspace;
const s: Record<'owner' | 'admin' | 'mgrPlain' | 'mgrInvoices' | 'member', Caller> = {} as never;
let otherOwner: Caller;

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.clock.advance(Date.parse('2026-02-10T09:00:00Z') - ctx.clock.now().getTime());
  w = await makeInvoiceWorkspace(ctx.db);
  other = await makeInvoiceWorkspace(ctx.db);
  for (const who of ['owner', 'admin', 'mgrPlain', 'mgrInvoices', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  otherOwner = await sessionFor(ctx.db, other.owner, ctx.clock.now());
});
afterAll(() => ctx.close());

const web = (caller: Caller, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object) });

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ error, error_description: expect.any(String), ...(field ? { field } : {}) });
}

async function count(table: 'saved_reports' | 'saved_report_deliveries' | 'outbox', companyId = w.companyId) {
  const r = await ctx.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function save(caller: Caller, body: Record<string, unknown>) {
  const res = await web(caller, 'POST', '/web/api/saved_reports', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('saving and opening a report', () => {
  it('round-trips a definition, with its period resolved today in the workspace', async () => {
    const saved = await save(s.member, { name: '  My tasks last month ', report: 'time', period: 'last_month', group_by: 'task' });
    expect(saved).toMatchObject({
      name: 'My tasks last month',
      report: 'time',
      period: 'last_month',
      from: null,
      to: null,
      group_by: 'task',
      is_active: null,
      visibility: 'private',
      schedule: 'none',
      next_send_date: null,
      owner: { id: w.member.userId, name: 'Mia Member' },
      is_own: true,
      may_delete: true,
      range: { from: '2026-01-01', to: '2026-01-31' },
    });
    const got = await web(s.member, 'GET', `/web/api/saved_reports/${saved.id}`);
    expect(got.json()).toEqual(saved);
    const list = (await web(s.member, 'GET', '/web/api/saved_reports')).json().saved_reports;
    expect(list.map((r: { id: string }) => r.id)).toContain(saved.id);
  });

  it('keeps this week and last week relative: opened a week later they are the weeks of that day, in a Sunday-start workspace', async () => {
    const sundays = await makeInvoiceWorkspace(ctx.db, { week_start: 'sunday' });
    const owner = await sessionFor(ctx.db, sundays.owner, ctx.clock.now());
    const last = await save(owner, { name: 'Last week', report: 'time', period: 'last_week' });
    const current = await save(owner, { name: 'This week', report: 'uninvoiced', period: 'this_week' });
    // Tuesday 10 February: its week began on Sunday the 8th.
    expect(last).toMatchObject({ period: 'last_week', from: null, to: null, range: { from: '2026-02-01', to: '2026-02-07' } });
    expect(current).toMatchObject({ period: 'this_week', range: { from: '2026-02-08', to: '2026-02-14' } });
    const week = 7 * 86_400_000;
    ctx.clock.advance(week);
    try {
      expect((await web(owner, 'GET', `/web/api/saved_reports/${last.id}`)).json().range).toEqual({ from: '2026-02-08', to: '2026-02-14' });
      const list = (await web(owner, 'GET', '/web/api/saved_reports')).json().saved_reports;
      expect(list.find((r: { id: string }) => r.id === current.id).range).toEqual({ from: '2026-02-15', to: '2026-02-21' });
    } finally {
      ctx.clock.advance(-week);
    }
    // The workspace's weeks, not Monday's: a Monday-start workspace's last week of the same day.
    expect((await save(s.member, { name: 'Mine last week', report: 'time', period: 'last_week' })).range).toEqual({ from: '2026-02-02', to: '2026-02-08' });
  });

  it('fills each report kind with the report pages\u2019 defaults', async () => {
    expect(await save(s.owner, { name: 'Time', report: 'time' })).toMatchObject({ period: 'this_month', group_by: 'project', is_active: null, range: { from: '2026-02-01', to: '2026-02-28' } });
    expect(await save(s.owner, { name: 'Budget', report: 'project_budget' })).toMatchObject({ period: null, group_by: null, is_active: true, range: null });
    expect(await save(s.owner, { name: 'All budgets', report: 'project_budget', is_active: null })).toMatchObject({ is_active: null });
    expect(await save(s.owner, { name: 'Q', report: 'uninvoiced', period: 'custom', from: '2025-10-01', to: '2025-12-31' })).toMatchObject({
      period: 'custom',
      from: '2025-10-01',
      to: '2025-12-31',
      range: { from: '2025-10-01', to: '2025-12-31' },
    });
  });

  it('refuses bad definitions with a 400 naming the field, and writes nothing', async () => {
    const before = await count('saved_reports');
    const cases: Array<[Record<string, unknown>, string | undefined]> = [
      [{ name: 'x', report: 'time', group_by: 'week' }, 'group_by'],
      [{ name: 'x', report: 'team', group_by: 'task' }, 'group_by'],
      [{ name: 'x', report: 'time', is_active: true }, 'is_active'],
      [{ name: 'x', report: 'project_budget', period: 'last_month' }, 'period'],
      [{ name: 'x', report: 'time', period: null }, 'period'],
      [{ name: 'x', report: 'time', period: 'custom', from: '2026-01-01' }, 'to'],
      [{ name: 'x', report: 'time', period: 'custom', from: '2026-02-01', to: '2026-01-01' }, 'to'],
      [{ name: 'x', report: 'time', period: 'last_month', from: '2026-01-01', to: '2026-01-31' }, 'from'],
      [{ name: 'x', report: 'uninvoiced', period: 'custom', from: '2024-01-01', to: '2025-06-30' }, 'to'],
      [{ name: 'x', report: 'team', period: 'custom', from: '2024-01-01', to: '2025-06-30' }, 'to'],
      [{ name: '   ', report: 'time' }, 'name'],
      [{ name: 'x'.repeat(201), report: 'time' }, undefined],
      [{ name: 'x', report: 'weekly' }, undefined],
      [{ name: 'x', report: 'time', period: 'yesterday' }, undefined],
      [{ name: 'x', report: 'time', schedule: 'daily' }, undefined],
      [{ name: 'x', report: 'time', visibility: 'public' }, undefined],
      [{ name: 'x', report: 'time', owner: 'someone' }, undefined],
      [{ name: 'x', report: 'time', color: 'red' }, undefined],
      [{ name: 7, report: 'time' }, undefined],
    ];
    for (const [body, field] of cases) {
      const res = await web(s.owner, 'POST', '/web/api/saved_reports', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      if (field) expect(res.json().field, JSON.stringify(body)).toBe(field);
    }
    expect(await count('saved_reports')).toBe(before);
  });

  it('saves only reports the role may run', async () => {
    const before = await count('saved_reports');
    expectError(await web(s.member, 'POST', '/web/api/saved_reports', { name: 'x', report: 'project_budget' }), 403, 'forbidden');
    expectError(await web(s.member, 'POST', '/web/api/saved_reports', { name: 'x', report: 'team' }), 403, 'forbidden');
    expectError(await web(s.mgrPlain, 'POST', '/web/api/saved_reports', { name: 'x', report: 'uninvoiced' }), 403, 'forbidden');
    expect(await count('saved_reports')).toBe(before);
    await save(s.mgrPlain, { name: 'My team', report: 'team' });
  });
});

describe('private and shared reports', () => {
  it('keeps a private report to its owner, shares a shared one with those who may run it', async () => {
    const mine = await save(s.admin, { name: 'Admin private', report: 'time' });
    const shared = await save(s.admin, { name: 'Budget for all', report: 'project_budget', visibility: 'workspace' });
    const sharedTime = await save(s.admin, { name: 'Time for all', report: 'time', visibility: 'workspace', group_by: 'client' });

    // Another member: not the private one (404, as if it did not exist), not a budget report it may not run.
    expectError(await web(s.member, 'GET', `/web/api/saved_reports/${mine.id}`), 404, 'not_found');
    expectError(await web(s.member, 'GET', `/web/api/saved_reports/${shared.id}`), 404, 'not_found');
    const memberList = (await web(s.member, 'GET', '/web/api/saved_reports')).json().saved_reports.map((r: { id: string }) => r.id);
    expect(memberList).toContain(sharedTime.id);
    expect(memberList).not.toContain(mine.id);
    expect(memberList).not.toContain(shared.id);
    const seen = (await web(s.member, 'GET', `/web/api/saved_reports/${sharedTime.id}`)).json();
    expect(seen).toMatchObject({ is_own: false, may_delete: false, owner: { id: w.admin.userId, name: 'Ada Admin' } });

    // The member may not change or delete it; nothing changes.
    expectError(await web(s.member, 'PATCH', `/web/api/saved_reports/${sharedTime.id}`, { name: 'Mine now' }), 403, 'forbidden');
    expectError(await web(s.member, 'DELETE', `/web/api/saved_reports/${sharedTime.id}`), 403, 'forbidden');
    expect((await web(s.admin, 'GET', `/web/api/saved_reports/${sharedTime.id}`)).json().name).toBe('Time for all');

    // The owner of the workspace may delete a shared report, not change it, and never see a private one.
    expect((await web(s.owner, 'GET', `/web/api/saved_reports/${shared.id}`)).json()).toMatchObject({ is_own: false, may_delete: true });
    expectError(await web(s.owner, 'PATCH', `/web/api/saved_reports/${shared.id}`, { name: 'x' }), 403, 'forbidden');
    expectError(await web(s.owner, 'GET', `/web/api/saved_reports/${mine.id}`), 404, 'not_found');
    expect((await web(s.owner, 'DELETE', `/web/api/saved_reports/${shared.id}`)).statusCode).toBe(204);
    expectError(await web(s.admin, 'GET', `/web/api/saved_reports/${shared.id}`), 404, 'not_found');
  });

  it("another workspace's ids are 404 for every route, and nothing changes", async () => {
    const theirs = await save(otherOwner, { name: 'Theirs', report: 'time', visibility: 'workspace' });
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      expectError(await web(s.owner, method, `/web/api/saved_reports/${theirs.id}`, body), 404, 'not_found');
    }
    expectError(await web(s.owner, 'GET', '/web/api/saved_reports/not-an-id'), 404, 'not_found');
    expect((await web(otherOwner, 'GET', `/web/api/saved_reports/${theirs.id}`)).json().name).toBe('Theirs');
    const list = (await web(s.owner, 'GET', '/web/api/saved_reports')).json().saved_reports.map((r: { id: string }) => r.id);
    expect(list).not.toContain(theirs.id);
  });

  it('the owner changes the definition; a new kind starts from its own defaults', async () => {
    const r = await save(s.owner, { name: 'Changing', report: 'time', period: 'last_quarter', group_by: 'person' });
    const renamed = (await web(s.owner, 'PATCH', `/web/api/saved_reports/${r.id}`, { name: 'Changed', visibility: 'workspace' })).json();
    expect(renamed).toMatchObject({ name: 'Changed', visibility: 'workspace', period: 'last_quarter', group_by: 'person' });
    const budget = await web(s.owner, 'PATCH', `/web/api/saved_reports/${r.id}`, { report: 'project_budget' });
    expect(budget.json()).toMatchObject({ report: 'project_budget', period: null, group_by: null, is_active: true, range: null });
    expectError(await web(s.owner, 'PATCH', `/web/api/saved_reports/${r.id}`, {}), 400, 'invalid_request');
    expectError(await web(s.owner, 'PATCH', `/web/api/saved_reports/${r.id}`, { group_by: 'task' }), 400, 'invalid_request', 'group_by');
    expectError(await web(s.owner, 'PATCH', `/web/api/saved_reports/${r.id}`, { id: r.id, name: 'x' }), 400, 'unknown_field', 'id');
    expect((await web(s.owner, 'GET', `/web/api/saved_reports/${r.id}`)).json().report).toBe('project_budget');
  });
});

// ---------------------------------------------------------------- the schedule

/** A transport that keeps what it was given. */
function keepingTransport() {
  const sent: Array<{ message: MailMessage; attachments: SentAttachment[] }> = [];
  return { sent, transport: { send: async (message: MailMessage, attachments: SentAttachment[]) => void sent.push({ message, attachments }) } };
}

describe('the e-mailed schedule', () => {
  it('sends the CSV once per period to its owner, with the owner\u2019s numbers, even when two runs race', async () => {
    const clientId = await insertClient(ctx.db, w.companyId, { name: 'Initech' });
    const { projectId, taskId } = await billableProject(ctx.db, w.companyId, clientId, { rate: '100', name: 'Mailed project' });
    await ctx.db.insertInto('project_user_assignments').values({ company_id: w.companyId, project_id: projectId, user_id: w.member.userId, is_active: true }).execute();
    await insertEntry(ctx.db, w.companyId, { userId: w.member.userId, projectId, taskId, date: '2026-02-03', seconds: 5400 });
    await insertEntry(ctx.db, w.companyId, { userId: w.admin.userId, projectId, taskId, date: '2026-02-04', seconds: 7200 });

    const r = await save(s.member, { name: 'Monthly time', report: 'time', period: 'last_month', group_by: 'project', schedule: 'monthly' });
    expect(r.next_send_date).toBe('2026-03-01');
    const run = () => runDueSavedReports({ db: ctx.db, clock: ctx.clock.now, baseUrl: 'https://sheaf.example' });

    // Not due yet: nothing.
    expect(await run()).toEqual({ sent: 0, skipped: 0 });
    const outboxBefore = await count('outbox');

    // 1 March, 06:00 in the workspace: two runs at once make one e-mail.
    ctx.clock.advance(Date.parse('2026-03-01T06:00:00Z') - ctx.clock.now().getTime());
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.sent + b.sent).toBe(1);
    expect(await run()).toEqual({ sent: 0, skipped: 0 });
    expect(await count('outbox')).toBe(outboxBefore + 1);
    const after = (await web(await sessionFor(ctx.db, w.member, ctx.clock.now()), 'GET', `/web/api/saved_reports/${r.id}`)).json();
    expect(after.next_send_date).toBe('2026-04-01');

    const { sent, transport } = keepingTransport();
    await deliverDueMessages({ db: ctx.db, transport, renderers: savedReportRenderers, clock: ctx.clock.now, log: { warn: () => {} } });
    const mail = sent.find((m) => m.message.subject.includes('Monthly time'))!;
    expect(mail.message.to).toEqual([{ email: w.member.email, name: 'Mia Member' }]);
    expect(mail.message.subject).toBe('Your report "Monthly time", 2026-02-01 to 2026-02-28');
    expect(mail.message.text).toContain('https://sheaf.example/reports/time?from=2026-02-01&to=2026-02-28&group_by=project');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: 'Monthly time 2026-02-01 2026-02-28.csv', contentType: 'text/csv; charset=utf-8' });
    const csv = mail.attachments[0].content.toString('utf8');
    // The member's own time only (1.5 h), never the administrator's 2 h on the same project.
    expect(csv).toContain('Mailed project');
    expect(csv).toMatch(/Mailed project[^\n]*,1\.5,/);
    expect(csv).not.toMatch(/,3\.5,/);
  });

  it('after downtime sends the latest period once; a deactivated owner gets nothing and the schedule moves on', async () => {
    const member = await sessionFor(ctx.db, w.member, ctx.clock.now());
    const r = await save(member, { name: 'Weekly', report: 'time', period: 'this_month', schedule: 'weekly' });
    const run = () => runDueSavedReports({ db: ctx.db, clock: ctx.clock.now, baseUrl: 'https://sheaf.example' });
    // Three weeks later: one e-mail, not three.
    ctx.clock.advance(21 * 24 * 3600 * 1000);
    expect(await run()).toMatchObject({ sent: 1 });
    expect(await run()).toEqual({ sent: 0, skipped: 0 });
    const deliveries = await ctx.db.selectFrom('saved_report_deliveries').selectAll().where('saved_report_id', '=', r.id).execute();
    expect(deliveries).toHaveLength(1);

    await ctx.db.updateTable('memberships').set({ is_active: false }).where('company_id', '=', w.companyId).where('user_id', '=', w.member.userId).execute();
    try {
      ctx.clock.advance(7 * 24 * 3600 * 1000);
      const outbox = await count('outbox');
      expect((await run()).skipped).toBeGreaterThanOrEqual(1);
      expect(await count('outbox')).toBe(outbox);
      const skipped = await ctx.db.selectFrom('saved_report_deliveries').selectAll().where('saved_report_id', '=', r.id).where('outcome', '=', 'skipped').execute();
      expect(skipped).toHaveLength(1);
      expect(skipped[0].note).toMatch(/no longer an active member/);
    } finally {
      await ctx.db.updateTable('memberships').set({ is_active: true }).where('company_id', '=', w.companyId).where('user_id', '=', w.member.userId).execute();
    }
    // Made a client since: clients run no report, so nothing is sent.
    await ctx.db.updateTable('memberships').set({ role: 'client' }).where('company_id', '=', w.companyId).where('user_id', '=', w.member.userId).execute();
    try {
      ctx.clock.advance(7 * 24 * 3600 * 1000);
      const outbox = await count('outbox');
      await run();
      expect(await count('outbox')).toBe(outbox);
      const notes = await ctx.db.selectFrom('saved_report_deliveries').select('note').where('saved_report_id', '=', r.id).where('outcome', '=', 'skipped').execute();
      expect(notes.map((n) => n.note)).toContain("The owner's role may no longer run this report.");
    } finally {
      await ctx.db.updateTable('memberships').set({ role: 'member' }).where('company_id', '=', w.companyId).where('user_id', '=', w.member.userId).execute();
    }
  });
});

describe('sheaf admin saved-reports run-due', () => {
  const database = () => ({ db: ctx.db, kind: onPostgres ? 'postgresql' : 'pglite', close: async () => {} }) as unknown as Database;
  const sheaf = (...args: string[]) => runCli(args, { env: { LOG_LEVEL: 'silent', PUBLIC_URL: 'https://cli.example' }, openDatabase: async () => database() });

  it('sends the due ones (by the real clock) once, with the configured address in the link', async () => {
    // Due since yesterday by the system clock, which the command line runs on.
    const r = await save(await sessionFor(ctx.db, w.owner, ctx.clock.now()), { name: 'From cron', report: 'project_budget', schedule: 'weekly' });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await ctx.db.updateTable('saved_reports').set({ next_send_date: yesterday }).where('company_id', '=', w.companyId).where('id', '=', r.id).execute();
    const outbox = await count('outbox');
    const ran = await sheaf('admin', 'saved-reports', 'run-due', '--workspace', w.companyId, '--json');
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.json.sent).toBeGreaterThanOrEqual(1);
    expect(await count('outbox')).toBe(outbox + ran.json.sent);
    const mail = await ctx.db.selectFrom('outbox').select('payload').where('company_id', '=', w.companyId).where('kind', '=', 'saved_report').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const payload = (typeof mail.payload === 'string' ? JSON.parse(mail.payload) : mail.payload) as MailMessage;
    expect(payload.subject).toBe('Your report "From cron"');
    expect(payload.text).toContain('https://cli.example/reports/budget?active=true');
    expect((await sheaf('admin', 'saved-reports', 'run-due', '--workspace', w.companyId, '--json')).json).toEqual({ sent: 0, skipped: 0 });
    expect((await sheaf('admin', 'saved-reports', 'run-due', '--workspace', 'nope')).code).toBe(2);
  });
});

describe('the backup', () => {
  it('exports saved reports as records, without their deliveries', async () => {
    const res = await request(ctx.app, w.owner, { method: 'GET', url: '/api/v2/backup/saved_reports' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const records = body.records;
    expect(Array.isArray(records)).toBe(true);
    const one = records.find((x: { name: string }) => x.name === 'Monthly time');
    expect(one).toMatchObject({ report: 'time', period: 'last_month', group_by: 'project', schedule: 'monthly', owner_id: w.member.userId, next_send_date: expect.stringMatching(/^\d{4}-\d{2}-01$/) });
    expect(one).not.toHaveProperty('company_id');
    expect(Object.keys(one).sort()).toEqual(
      ['created_at', 'from', 'group_by', 'id', 'is_active', 'name', 'next_send_date', 'owner_id', 'period', 'report', 'schedule', 'to', 'updated_at', 'visibility'],
    );
    // Every workspace's own only.
    expect(records.every((x: { name: string }) => x.name !== 'Theirs')).toBe(true);
  });
});
