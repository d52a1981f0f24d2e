import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { postEntry, setNow } from './fixtures/catalog.ts';
import { freshPerson, makeApprovalWorkspace, rejectAs, statusesOf, submitAs, approveAs, type ApprovalWorkspace } from './fixtures/approvals.ts';

/**
 * Reviewing a week before approving it (issue 21 item 6): GET /web/api/approvals/review
 * lists every time entry and expense of the period within the approver's reach, with
 * money only as the approver may see it, and the projects to approve one by one; the
 * submitted and rejected e-mails link to the web app on PUBLIC_URL.
 */

const PUBLIC_URL = 'https://sheaf.example.com';

let ctx: TestContext;
let w: ApprovalWorkspace;
let foreign: ApprovalWorkspace;
const s: Record<'owner' | 'manager' | 'member' | 'approver' | 'mgrPlain', Caller> = {} as never;

beforeAll(async () => {
  ctx = await createTestContext({ config: { publicUrl: PUBLIC_URL } });
  setNow(ctx.clock, '2026-06-10T10:00:00.000Z');
  w = await makeApprovalWorkspace(ctx.db);
  foreign = await makeApprovalWorkspace(ctx.db, { name: 'Elsewhere' });
  for (const who of ['owner', 'manager', 'member', 'approver', 'mgrPlain'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  // The main project bills 80.00 an hour (the managed one has no rate).
  const res = await request(ctx.app, w.owner, { method: 'PATCH', url: `/api/v2/projects/${w.project}`, payload: { hourly_rate: 80, hourly_rate_effective_from: '2025-01-01' } });
  expect(res.statusCode, res.body).toBe(200);
}, 120_000);
afterAll(() => ctx.close());

const review = (caller: Caller, query: Record<string, string>) =>
  request(ctx.app, caller, { method: 'GET', url: `/web/api/approvals/review?${new URLSearchParams(query)}` });

let weekCounter = 0;
/** Each test its own week (Mondays from 2025-09-01), so week locks never meet. */
function nextWeek() {
  const monday = Date.UTC(2025, 8, 1 + 7 * weekCounter++);
  const day = (n: number) => new Date(monday + n * 86_400_000).toISOString().slice(0, 10);
  return { mon: day(0), tue: day(1), wed: day(2), from: day(0), to: day(6) };
}

/**
 * A teammate of `manager` with a submitted week: 2 h on the main project (Mon,
 * notes "Homepage"), 1.5 h on the managed project (Tue), an expense of 42.10 on
 * the main project and one of 9.90 on the managed project (Wed).
 */
async function submittedWeek() {
  const person = await freshPerson(ctx.db, w, { teammateOf: w.manager });
  const week = nextWeek();
  const entry = async (project: string, task: string, date: string, hours: number, notes: string) => {
    const res = await postEntry(ctx.app, person, { project_id: project, task_id: task, spent_date: date, hours, notes });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const expense = async (project: string, date: string, total: number) => {
    const res = await request(ctx.app, person, {
      method: 'POST',
      url: '/api/v2/expenses',
      payload: { project_id: project, expense_category_id: w.category, spent_date: date, total_cost: total, notes: 'Train' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const main = await entry(w.project, w.task, week.mon, 2, 'Homepage');
  const managed = await entry(w.managed, w.managedTask, week.tue, 1.5, 'Logo');
  const mainExpense = await expense(w.project, week.wed, 42.1);
  const managedExpense = await expense(w.managed, week.wed, 9.9);
  expect((await submitAs(ctx.app, person, { from: week.from, to: week.to })).json()).toMatchObject({ submitted_count: 4 });
  return { person, week, ids: { main, managed, mainExpense, managedExpense } };
}

describe('GET /web/api/approvals/review', () => {
  it('gives the manager who may see rates every entry and expense, with hours, notes, task, rate and amount, in one call', async () => {
    const { person, week, ids } = await submittedWeek();
    const res = await review(s.manager, { user_id: person.userId, from: week.from, to: week.to });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ submitted_count: 4, blockers: [], shows_amounts: true });
    expect(typeof body.fingerprint).toBe('string');
    expect(body.time_entries).toEqual([
      expect.objectContaining({
        id: ids.main,
        spent_date: week.mon,
        project_id: w.project,
        task_name: 'Development',
        notes: 'Homepage',
        seconds: 7200,
        hours: 2,
        approval_status: 'submitted',
        billable_rate: 80,
        billable_amount: 160,
      }),
      expect.objectContaining({ id: ids.managed, spent_date: week.tue, task_name: 'Design', hours: 1.5, billable_rate: null, billable_amount: null }),
    ]);
    expect(body.expenses).toEqual([
      expect.objectContaining({ id: ids.mainExpense, spent_date: week.wed, project_id: w.project, total_cost: 42.1, notes: 'Train', approval_status: 'submitted' }),
      expect.objectContaining({ id: ids.managedExpense, total_cost: 9.9 }),
    ]);
    expect(body.projects.map((p: any) => [p.id, p.submitted_count, p.blocked, p.currency])).toEqual(
      expect.arrayContaining([
        [w.project, 2, false, 'USD'],
        [w.managed, 2, false, 'USD'],
      ]),
    );
  });

  it('gives a manager without the permission to see billable rates no rate and no amount of time, and only what they may approve', async () => {
    const { person, week, ids } = await submittedWeek();
    // `approver` manages the managed project (approve_managed_projects), is not the person's manager, and cannot see rates.
    const res = await review(s.approver, { user_id: person.userId, from: week.from, to: week.to });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.shows_amounts).toBe(false);
    expect(body.time_entries.map((e: any) => e.id)).toEqual([ids.managed]);
    for (const e of body.time_entries) {
      expect(e).not.toHaveProperty('billable_rate');
      expect(e).not.toHaveProperty('billable_amount');
    }
    expect(JSON.stringify(body)).not.toContain('"billable_rate"');
    // the main project's items are outside their reach: not listed, not counted
    expect(body.expenses.map((e: any) => e.id)).toEqual([ids.managedExpense]);
    expect(body.projects.map((p: any) => p.id)).toEqual([w.managed]);
    expect(body.submitted_count).toBe(2);
  });

  it('is for approvers of that person only: member 403, manager of others 403, API key 403, foreign or unknown ids 404, bad period 400', async () => {
    const { person, week } = await submittedWeek();
    const q = { user_id: person.userId, from: week.from, to: week.to };
    expect((await review(s.member, q)).statusCode).toBe(403);
    expect((await review(s.mgrPlain, q)).statusCode).toBe(403);
    expect((await review(w.owner, q)).json()).toMatchObject({ error: 'session_required' });
    expect((await review(s.owner, { ...q, user_id: foreign.member.userId })).statusCode).toBe(404);
    expect((await review(s.owner, { ...q, project_id: foreign.project })).statusCode).toBe(404);
    expect((await review(s.owner, { ...q, user_id: 'nope' })).statusCode).toBe(404);
    const bad = await review(s.owner, { ...q, to: '2020-01-01' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'invalid_request', field: 'to' });
    expect((await review(s.owner, { ...q, extra: '1' })).statusCode).toBe(400);
  });

  it('with project_id lists that project alone; approving it leaves the other project submitted', async () => {
    const { person, week, ids } = await submittedWeek();
    const one = (await review(s.owner, { user_id: person.userId, from: week.from, to: week.to, project_id: w.managed })).json();
    expect(one.time_entries.map((e: any) => e.id)).toEqual([ids.managed]);
    expect(one.submitted_count).toBe(2);
    const res = await approveAs(ctx.app, w.owner, { user_id: person.userId, from: week.from, to: week.to, project_id: w.managed, preflight_fingerprint: one.fingerprint });
    expect(res.json()).toMatchObject({ time_entry_count: 1, expense_count: 1 });
    expect(await statusesOf(ctx.db, w.companyId, Object.values(ids))).toEqual({
      [ids.main]: 'submitted',
      [ids.mainExpense]: 'submitted',
      [ids.managed]: 'approved',
      [ids.managedExpense]: 'approved',
    });
    const after = (await review(s.owner, { user_id: person.userId, from: week.from, to: week.to })).json();
    expect(after.projects.find((p: any) => p.id === w.managed).submitted_count).toBe(0);
    expect(after.projects.find((p: any) => p.id === w.project).submitted_count).toBe(2);
  });
});

describe("the workspace's time settings", () => {
  it('the review rounds hours by its rule; the week and the queue give today in its time zone', async () => {
    const { person, week, ids } = await submittedWeek();
    const settings = ['timezone', 'rounding', 'rounding_minutes'] as const;
    const before = await ctx.db.selectFrom('companies').select(settings).where('id', '=', w.companyId).executeTakeFirstOrThrow();
    await ctx.db.updateTable('companies').set({ timezone: 'Pacific/Kiritimati', rounding: 'up', rounding_minutes: 60 }).where('id', '=', w.companyId).execute();
    try {
      const body = (await review(s.manager, { user_id: person.userId, from: week.from, to: week.to })).json();
      // 1.5 h rounded up to the hour; the seconds stay as tracked
      expect(body.time_entries.map((e: any) => [e.id, e.seconds, e.hours])).toEqual([
        [ids.main, 7200, 2],
        [ids.managed, 5400, 2],
      ]);
      // 10:00 UTC on 2026-06-10 is already the 11th at UTC+14
      const me = await sessionFor(ctx.db, person, ctx.clock.now());
      expect((await request(ctx.app, me, { method: 'GET', url: '/web/api/approvals/week' })).json()).toMatchObject({ today: '2026-06-11' });
      expect((await request(ctx.app, s.manager, { method: 'GET', url: '/web/api/approvals/queue' })).json()).toMatchObject({ today: '2026-06-11' });
    } finally {
      await ctx.db.updateTable('companies').set(before).where('id', '=', w.companyId).execute();
    }
  });
});

describe('approval e-mails', () => {
  const outbox = () => ctx.db.selectFrom('outbox').selectAll().where('company_id', '=', w.companyId).execute();

  it('"submitted" links the approvers to the approvals page on PUBLIC_URL, and no longer tells them to call the API', async () => {
    const before = new Set((await outbox()).map((j) => j.id));
    await submittedWeek();
    const [job] = (await outbox()).filter((j) => !before.has(j.id) && j.kind === 'timesheet_submitted');
    const text = (job.payload as { text: string }).text;
    expect(text).toContain(`${PUBLIC_URL}/approvals`);
    expect(text).not.toContain('POST /api/v2');
    expect(text).not.toContain('/api/v2/approvals');
  });

  it('"rejected" links the person to the week on PUBLIC_URL, with the reason', async () => {
    const { person, week } = await submittedWeek();
    const before = new Set((await outbox()).map((j) => j.id));
    // A period starting mid-week links to the week it starts in.
    const res = await rejectAs(ctx.app, w.manager, { user_id: person.userId, from: week.tue, to: week.to, reason: 'Split the logo work' });
    expect(res.json()).toMatchObject({ time_entry_count: 1, expense_count: 2 });
    const [job] = (await outbox()).filter((j) => !before.has(j.id) && j.kind === 'timesheet_rejected');
    const text = (job.payload as { text: string }).text;
    expect(text).toContain('Split the logo work');
    expect(text).toContain(`${PUBLIC_URL}/time/week?start=${week.mon}`);
  });
});

describe("approval e-mails in the recipient's language (users.language)", () => {
  const outbox = () => ctx.db.selectFrom('outbox').selectAll().where('company_id', '=', w.companyId).orderBy('id').execute();
  type Mail = { to: Array<{ email: string }>; subject: string; text: string };
  const setLanguage = (userId: string, language: 'en' | 'de') => ctx.db.updateTable('users').set({ language }).where('id', '=', userId).execute();
  const nameOf = async (userId: string) => {
    const u = await ctx.db.selectFrom('users').select(['first_name', 'last_name', 'email']).where('id', '=', userId).executeTakeFirstOrThrow();
    return { name: `${u.first_name} ${u.last_name}`.trim(), email: u.email };
  };
  const german = (date: string) => date.split('-').reverse().join('.');
  const workspace = async () => (await ctx.db.selectFrom('companies').select('name').where('id', '=', w.companyId).executeTakeFirstOrThrow()).name;

  it('"submitted" goes to German-preferring approvers in German and to the others in English, one message per language', async () => {
    const before = new Set((await outbox()).map((j) => j.id));
    await setLanguage(w.manager.userId, 'de');
    try {
      const { person, week } = await submittedWeek();
      const jobs = (await outbox()).filter((j) => !before.has(j.id) && j.kind === 'timesheet_submitted').map((j) => j.payload as Mail);
      expect(jobs).toHaveLength(2);
      const { name, email } = await nameOf(person.userId);
      const companyName = await workspace();
      const de = jobs.find((m) => m.to.some((t) => t.email === w.manager.email))!;
      const en = jobs.find((m) => m !== de)!;
      expect(de.to.map((t) => t.email)).toEqual([w.manager.email]);
      expect(de.subject).toBe(`${name} hat Zeiten vom ${german(week.from)} bis ${german(week.to)} eingereicht`);
      expect(de.text).toBe(
        `${name} (${email}) hat in ${companyName} 2 Zeiteinträge (3,5 Stunden) und 2 Ausgaben vom ${german(week.from)} bis ${german(week.to)} zur Freigabe eingereicht.\n\n` +
          `Bitte prüfen Sie die Einträge auf der Seite „Freigaben“ und geben Sie sie frei oder weisen Sie sie zurück:\n${PUBLIC_URL}/approvals`,
      );
      expect(en.to.map((t) => t.email)).not.toContain(w.manager.email);
      expect(en.to.map((t) => t.email)).toContain(w.owner.email);
      expect(en.subject).toBe(`${name} submitted time for ${week.from} to ${week.to}`);
      expect(en.text).toBe(
        `${name} (${email}) submitted 2 time entries (3.5 hours) and 2 expenses dated ${week.from} to ${week.to} in ${companyName}.\n\n` +
          `Review them, then approve or reject them, on the approvals page:\n${PUBLIC_URL}/approvals`,
      );
    } finally {
      await setLanguage(w.manager.userId, 'en');
    }
  });

  it('"rejected" reaches a German-preferring person in German (dates, counts, reason, link) and an English one in English', async () => {
    const { person, week } = await submittedWeek();
    await setLanguage(person.userId, 'de');
    const manager = (await nameOf(w.manager.userId)).name;
    const companyName = await workspace();
    let before = new Set((await outbox()).map((j) => j.id));
    expect((await rejectAs(ctx.app, w.manager, { user_id: person.userId, from: week.from, to: week.to, project_id: w.managed, reason: 'Bitte Logo aufteilen' })).json()).toMatchObject({
      time_entry_count: 1,
      expense_count: 1,
    });
    let [job] = (await outbox()).filter((j) => !before.has(j.id) && j.kind === 'timesheet_rejected');
    const de = job.payload as Mail;
    expect(de.subject).toBe(`Ihre Zeiten vom ${german(week.from)} bis ${german(week.to)} wurden zur Korrektur zurückgegeben`);
    expect(de.text).toBe(
      `${manager} hat in ${companyName} 1 Zeiteintrag und 1 Ausgabe vom ${german(week.from)} bis ${german(week.to)} zur Korrektur an Sie zurückgegeben.\n\n` +
        'Grund:\nBitte Logo aufteilen\n\n' +
        `Bitte korrigieren Sie die Einträge und reichen Sie den Zeitraum erneut ein:\n${PUBLIC_URL}/time/week?start=${week.mon}`,
    );

    // The rest, after the person switched back to English: the English text, as it always was.
    await setLanguage(person.userId, 'en');
    before = new Set((await outbox()).map((j) => j.id));
    expect((await rejectAs(ctx.app, w.manager, { user_id: person.userId, from: week.from, to: week.to })).json()).toMatchObject({ time_entry_count: 1, expense_count: 1 });
    [job] = (await outbox()).filter((j) => !before.has(j.id) && j.kind === 'timesheet_rejected');
    const en = job.payload as Mail;
    expect(en.subject).toBe(`Your time for ${week.from} to ${week.to} was returned for correction`);
    expect(en.text).toBe(
      `${manager} returned 1 time entry and 1 expense dated ${week.from} to ${week.to} in ${companyName} for correction.\n\n` +
        'No reason was given.\n\n' +
        `Correct them and submit the period again:\n${PUBLIC_URL}/time/week?start=${week.mon}`,
    );
  });
});
