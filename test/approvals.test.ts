import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { approvalTestHooks } from '../src/modules/tracking/approvals/service.ts';
import { enterPersonTime, lockPersonTimeForApproval } from '../src/modules/tracking/week/lock.ts';
import { createTestContext, onPostgres, request, type Caller, type TestContext } from './helpers.ts';
import { insertEntryRow, patchEntry, postEntry, setNow, setWorkspace } from './fixtures/catalog.ts';
import { approveAs, freshPerson, makeApprovalWorkspace, rejectAs, statusesOf, submitAs, type ApprovalWorkspace } from './fixtures/approvals.ts';

/**
 * Timesheet approvals over HTTP: submit, approve (with its preflight), reject,
 * who may act, approvals turned off, idempotency, notifications through the
 * outbox, the week lock, concurrent approvals and bad input. The operator's
 * withdrawal (sheaf admin approvals withdraw) is in approvals-cli.test.ts, the
 * pure rules in approvals-rules.test.ts.
 */

let ctx: TestContext;
let w: ApprovalWorkspace;
let foreign: ApprovalWorkspace;

const NOW = '2026-06-10T10:00:00.000Z'; // a Wednesday

beforeAll(async () => {
  ctx = await createTestContext();
  setNow(ctx.clock, NOW);
  w = await makeApprovalWorkspace(ctx.db);
  foreign = await makeApprovalWorkspace(ctx.db, { name: 'Elsewhere' });
});
afterAll(() => ctx.close());
afterEach(() => {
  approvalTestHooks.afterPreflight = undefined;
  setNow(ctx.clock, NOW);
});

// ---- helpers ----

/** Each test takes its own week, so week locks never meet: week n starts on Monday 2024-01-01 + 7n. */
let weekCounter = 0;
function nextWeek() {
  const monday = new Date(Date.UTC(2024, 0, 1 + 7 * weekCounter++));
  const day = (offset: number) => new Date(monday.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  return { mon: day(0), tue: day(1), wed: day(2), thu: day(3), fri: day(4), sat: day(5), sun: day(6), period: { from: day(0), to: day(6) } };
}

async function entry(caller: Caller, spentDate: string, extra: Record<string, unknown> = {}, project = w.project, task = w.task) {
  const res = await postEntry(ctx.app, caller, { project_id: project, task_id: task, spent_date: spentDate, hours: 2, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function expense(caller: Caller, spentDate: string, totalCost = 12.5, project = w.project) {
  const res = await request(ctx.app, caller, {
    method: 'POST',
    url: '/api/v2/expenses',
    payload: { project_id: project, expense_category_id: w.category, spent_date: spentDate, total_cost: totalCost },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

function expectError(res: { statusCode: number; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  const b = res.json();
  expect(b.error).toBe(error);
  expect(typeof b.error_description).toBe('string');
  expect(b.error_description.length).toBeGreaterThan(0);
  expect(b.message).toBe(b.error_description);
  if (field !== undefined) expect(b.field).toBe(field);
  return b;
}

/** The preflight every preflight error carries. */
function expectPreflight(body: any) {
  expect(Object.keys(body.preflight).sort()).toEqual(['blockers', 'fingerprint', 'warnings']);
  expect(typeof body.preflight.fingerprint).toBe('string');
  expect(Array.isArray(body.preflight.blockers)).toBe(true);
  expect(Array.isArray(body.preflight.warnings)).toBe(true);
  return body.preflight as { fingerprint: string; blockers: any[]; warnings: any[] };
}

const getEntry = (caller: Caller, id: string) => request(ctx.app, caller, { method: 'GET', url: `/api/v2/time_entries/${id}` });
const getExpense = (caller: Caller, id: string) => request(ctx.app, caller, { method: 'GET', url: `/api/v2/expenses/${id}` });

async function outbox(companyId = w.companyId) {
  return ctx.db.selectFrom('outbox').selectAll().where('company_id', '=', companyId).orderBy('created_at').orderBy('id').execute();
}

/** Ids of the outbox's messages now, to find the ones a request adds (created_at follows the moved app clock). */
async function outboxIds(companyId = w.companyId) {
  return new Set((await outbox(companyId)).map((j) => j.id));
}
async function newJobs(seen: Set<string>, companyId = w.companyId) {
  return (await outbox(companyId)).filter((j) => !seen.has(j.id));
}

async function auditOf(action: string, subjectId: string, companyId = w.companyId) {
  return ctx.db
    .selectFrom('audit_logs')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('action', '=', action)
    .where('subject_id', '=', subjectId)
    .orderBy('id')
    .execute();
}

/** A teammate of `manager` with submitted time in a fresh week: ids and the period. */
async function submittedWeek(options: { hours?: number[]; expenses?: number } = {}) {
  const person = await freshPerson(ctx.db, w, { teammateOf: w.manager });
  const week = nextWeek();
  const ids: string[] = [];
  for (const [i, hours] of (options.hours ?? [2, 3]).entries()) ids.push(await entry(person, [week.mon, week.tue, week.wed][i % 3], { hours }));
  for (let i = 0; i < (options.expenses ?? 0); i++) ids.push(await expense(person, week.thu));
  const res = await submitAs(ctx.app, person, week.period);
  expect(res.statusCode, res.body).toBe(200);
  return { person, week, ids, review: { user_id: person.userId, ...week.period } };
}

// ---------------------------------------------------------------- submit

describe('submit', () => {
  it("submits the caller's completed, unsubmitted, unbilled time and expenses in the period, and nothing else", async () => {
    const person = await freshPerson(ctx.db, w, { teammateOf: w.manager });
    const week = nextWeek();
    const a = await entry(person, week.mon, { hours: 1.5 });
    const b = await entry(person, week.sun, { hours: 0.25 }, w.managed, w.managedTask);
    const ex = await expense(person, week.wed);
    const before = await entry(person, '2025-12-31'); // outside the period
    const billed = await insertEntryRow(ctx.db, w.companyId, { userId: person.userId, projectId: w.project, taskId: w.task, spentDate: week.tue, billed: true });
    const someoneElse = await entry(w.other, week.tue);

    const res = await submitAs(ctx.app, person, week.period);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['submitted_count', 'submitted_seconds', 'fingerprint']);
    expect(body).toMatchObject({ submitted_count: 3, submitted_seconds: 1.75 * 3600 });
    expect(body.fingerprint).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(await statusesOf(ctx.db, w.companyId, [a, b, ex, before, billed, someoneElse])).toEqual({
      [a]: 'submitted',
      [b]: 'submitted',
      [ex]: 'submitted',
      [before]: 'unsubmitted',
      [billed]: 'unsubmitted',
      [someoneElse]: 'unsubmitted',
    });
    // approval_status shows on the API, and the change touched updated_at
    expect((await getEntry(person, a)).json()).toMatchObject({ approval_status: 'submitted', is_locked: false, is_closed: false, updated_at: NOW });
    expect((await getExpense(person, ex)).json()).toMatchObject({ approval_status: 'submitted' });
    const [log] = await auditOf('timesheet.submitted', person.userId);
    expect(log).toMatchObject({ actor_user_id: person.userId, credential_id: person.keyId });
    expect(log.details).toMatchObject({ from: week.mon, to: week.sun, time_entry_count: 2, expense_count: 1, submitted_seconds: 6300 });
  });

  it('submitting again submits nothing new; a fingerprint from the last submit is accepted while the period is unchanged', async () => {
    const person = await freshPerson(ctx.db, w);
    const week = nextWeek();
    await entry(person, week.tue);
    const first = (await submitAs(ctx.app, person, week.period)).json();
    const again = await submitAs(ctx.app, person, { ...week.period, fingerprint: first.fingerprint });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ submitted_count: 0, submitted_seconds: 0, fingerprint: first.fingerprint });
    expect(await auditOf('timesheet.submitted', person.userId)).toHaveLength(1);
  });

  it('a fingerprint that no longer matches the period is 409 submission_stale with the current one, and submits nothing', async () => {
    const person = await freshPerson(ctx.db, w);
    const week = nextWeek();
    await entry(person, week.tue);
    const first = (await submitAs(ctx.app, person, week.period)).json();
    ctx.clock.advance(60_000);
    const added = await entry(person, week.wed);
    const res = await submitAs(ctx.app, person, { ...week.period, fingerprint: first.fingerprint });
    const b = expectError(res, 409, 'submission_stale');
    expect(b.fingerprint).not.toBe(first.fingerprint);
    expect(await statusesOf(ctx.db, w.companyId, [added])).toEqual({ [added]: 'unsubmitted' });
    // resubmitting with the current fingerprint works
    const ok = await submitAs(ctx.app, person, { ...week.period, fingerprint: b.fingerprint });
    expect(ok.json()).toMatchObject({ submitted_count: 1, submitted_seconds: 7200 });
    // a made-up fingerprint is stale too
    expectError(await submitAs(ctx.app, person, { ...week.period, fingerprint: 'nope' }), 409, 'submission_stale');
  });

  it('a running timer in the period is 409 running_timer, and nothing is submitted', async () => {
    const person = await freshPerson(ctx.db, w);
    const done = await entry(person, '2026-06-08');
    const timer = await postEntry(ctx.app, person, { project_id: w.project, task_id: w.task, is_running: true });
    expect(timer.statusCode, timer.body).toBe(201);
    const b = expectError(await submitAs(ctx.app, person, { from: '2026-06-08', to: '2026-06-14' }), 409, 'running_timer');
    expect(b).toMatchObject({ running_entry: { id: timer.json().id }, running_entry_count: 1 });
    expect(await statusesOf(ctx.db, w.companyId, [done])).toEqual({ [done]: 'unsubmitted' });
    // a period without the timer submits
    const other = await submitAs(ctx.app, person, { from: '2026-06-01', to: '2026-06-07' });
    expect(other.json()).toMatchObject({ submitted_count: 0 });
    await patchEntry(ctx.app, person, timer.json().id, {}, '/stop');
  });

  it("e-mails the person's approvers through the outbox, in the same transaction, and only when something was submitted", async () => {
    const person = await freshPerson(ctx.db, w, { teammateOf: w.manager });
    const week = nextWeek();
    await entry(person, week.mon, { hours: 1 }, w.managed, w.managedTask);
    await expense(person, week.tue);
    const seen = await outboxIds();
    expect((await submitAs(ctx.app, person, week.period)).statusCode).toBe(200);
    const jobs = await newJobs(seen);
    expect(jobs).toHaveLength(1);
    const job = jobs[0];
    expect(job.kind).toBe('timesheet_submitted');
    expect(job.status).toBe('pending');
    const payload = job.payload as { to: Array<{ email: string; name: string }>; subject: string; text: string };
    // owner, administrator, the teammate's manager, and the manager who approves time on the managed project
    expect(payload.to.map((t) => t.email).sort()).toEqual([w.owner.email, w.admin.email, w.manager.email, w.approver.email].sort());
    for (const absent of [person.email, w.mgrPlain.email, w.member.email, foreign.owner.email]) {
      expect(payload.to.map((t) => t.email)).not.toContain(absent);
    }
    expect(payload.subject).toContain(`${week.mon} to ${week.sun}`);
    expect(payload.text).toContain('1 time entry (1 hour) and 1 expense');
    // a link to the approvals page (test/approvals-review.test.ts checks it on PUBLIC_URL), not an API call to make
    expect(payload.text).toMatch(/^http:\/\/\S+\/approvals$/m);
    // nothing new to submit: no e-mail
    await submitAs(ctx.app, person, week.period);
    expect(await newJobs(seen)).toHaveLength(1);
    // a person without a manager or managed-project time: owner and administrator only
    const loner = await freshPerson(ctx.db, w);
    await entry(loner, week.mon);
    const seenBefore = await outboxIds();
    await submitAs(ctx.app, loner, week.period);
    const [last] = await newJobs(seenBefore);
    expect((last.payload as any).to.map((t: any) => t.email).sort()).toEqual([w.owner.email, w.admin.email].sort());
  });

  it('rejected items can be edited and submitted again', async () => {
    const { person, ids, review } = await submittedWeek({ hours: [2], expenses: 1 });
    expect((await rejectAs(ctx.app, w.owner, { ...review, reason: 'Split the meeting' })).json()).toEqual({ time_entry_count: 1, expense_count: 1 });
    const edited = await patchEntry(ctx.app, person, ids[0], { hours: 1.5, notes: 'meeting split' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ approval_status: 'rejected', is_locked: false });
    const again = await submitAs(ctx.app, person, { from: review.from, to: review.to });
    expect(again.json()).toMatchObject({ submitted_count: 2, submitted_seconds: 5400 });
    expect(await statusesOf(ctx.db, w.companyId, ids)).toEqual({ [ids[0]]: 'submitted', [ids[1]]: 'submitted' });
  });
});

// ---------------------------------------------------------------- approve

describe('approve', () => {
  it('approves the submitted items: approved, locked, closed; the response has the counts and the preflight fingerprint', async () => {
    const { person, ids, review } = await submittedWeek({ hours: [2, 3], expenses: 1 });
    const res = await approveAs(ctx.app, w.manager, review);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['time_entry_count', 'expense_count', 'preflight_fingerprint', 'acknowledged_warning_codes']);
    expect(body).toMatchObject({ time_entry_count: 2, expense_count: 1, acknowledged_warning_codes: [] });
    expect(await statusesOf(ctx.db, w.companyId, ids)).toEqual(Object.fromEntries(ids.map((id) => [id, 'approved'])));
    expect((await getEntry(person, ids[0])).json()).toMatchObject({ approval_status: 'approved', is_locked: true, is_closed: true });
    expect((await getExpense(person, ids[2])).json()).toMatchObject({ approval_status: 'approved' });
    const [log] = await auditOf('timesheet.approved', person.userId);
    expect(log).toMatchObject({ actor_user_id: w.manager.userId, credential_id: w.manager.keyId });
    expect(log.details).toMatchObject({ from: review.from, to: review.to, time_entry_count: 2, expense_count: 1, preflight_fingerprint: body.preflight_fingerprint });
  });

  it('approved time locks its entries and its week: new or changed time there is 409', async () => {
    const { person, week, ids, review } = await submittedWeek({ hours: [2] });
    // before approval the week is open
    const open = await entry(person, week.fri);
    expect((await patchEntry(ctx.app, person, open, { notes: 'still open' })).statusCode).toBe(200);
    await submitAs(ctx.app, person, week.period);
    expect((await approveAs(ctx.app, w.owner, review)).statusCode).toBe(200);
    // the approved entry itself: the week's code too (the spec's code for changed time in an approved week)
    expect(expectError(await patchEntry(ctx.app, person, ids[0], { notes: 'x' }), 409, 'approved_timesheet_week_locked')).toMatchObject({
      week_start: week.mon,
      week_end: week.sun,
    });
    const b = expectError(
      await postEntry(ctx.app, person, { project_id: w.project, task_id: w.task, spent_date: week.sat, hours: 1 }),
      409,
      'approved_timesheet_week_locked',
    );
    expect(b).toMatchObject({ week_start: week.mon, week_end: week.sun });
    expect((await postEntry(ctx.app, person, { project_id: w.project, task_id: w.task, spent_date: '2026-06-01', hours: 1 })).statusCode).toBe(201);
  });

  it('counts are 0 when nothing was submitted (an empty period, or one already approved)', async () => {
    const person = await freshPerson(ctx.db, w, { expectedWeeklyHours: '40' });
    const week = nextWeek();
    const empty = await approveAs(ctx.app, w.owner, { user_id: person.userId, ...week.period });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toMatchObject({ time_entry_count: 0, expense_count: 0, acknowledged_warning_codes: [] });
    const { review } = await submittedWeek();
    expect((await approveAs(ctx.app, w.owner, review)).json()).toMatchObject({ time_entry_count: 2 });
    expect((await approveAs(ctx.app, w.owner, review)).json()).toMatchObject({ time_entry_count: 0, expense_count: 0 });
    expect(await auditOf('timesheet.approved', review.user_id)).toHaveLength(1);
  });

  it('blockers: unsubmitted time is 409 approval_blocked with the preflight, cannot be acknowledged, and approves nothing', async () => {
    const { person, week, ids, review } = await submittedWeek({ hours: [2] });
    const late = await entry(person, week.fri);
    const res = await approveAs(ctx.app, w.owner, review);
    const pre = expectPreflight(expectError(res, 409, 'approval_blocked'));
    expect(pre.blockers).toEqual([expect.objectContaining({ code: 'unsubmitted_time', time_entry_ids: [late], expense_ids: [] })]);
    expect(typeof pre.blockers[0].message).toBe('string');
    const acknowledged = await approveAs(ctx.app, w.owner, {
      ...review,
      preflight_fingerprint: pre.fingerprint,
      acknowledged_warning_codes: ['unsubmitted_time'],
    });
    expectError(acknowledged, 409, 'approval_blocked');
    expect(await statusesOf(ctx.db, w.companyId, [...ids, late])).toEqual({ [ids[0]]: 'submitted', [late]: 'unsubmitted' });
    // a project_id scope that leaves the unsubmitted entry out is not blocked by it
    const other = await entry(person, week.thu, {}, w.managed, w.managedTask);
    expect((await approveAs(ctx.app, w.owner, { ...review, project_id: w.managed })).statusCode).toBe(409);
    await submitAs(ctx.app, person, week.period);
    expect((await statusesOf(ctx.db, w.companyId, [other]))[other]).toBe('submitted');
  });

  it('blockers: unsubmitted time in the rest of the weeks an approval locks blocks it too; what it approves is the period', async () => {
    const person = await freshPerson(ctx.db, w, { teammateOf: w.manager });
    const week = nextWeek();
    const monday = await entry(person, week.mon);
    const wednesday = await entry(person, week.wed);
    const period = { from: week.wed, to: week.sun };
    expect((await submitAs(ctx.app, person, period)).json()).toMatchObject({ submitted_count: 1 });
    // Approving Wednesday to Sunday would lock the whole week, Monday's unsubmitted entry with it.
    const blocked = await approveAs(ctx.app, w.owner, { user_id: person.userId, ...period });
    const pre = expectPreflight(expectError(blocked, 409, 'approval_blocked'));
    expect(pre.blockers).toEqual([expect.objectContaining({ code: 'unsubmitted_time', time_entry_ids: [monday] })]);
    expect(await statusesOf(ctx.db, w.companyId, [monday, wednesday])).toEqual({ [monday]: 'unsubmitted', [wednesday]: 'submitted' });
    // Submitted, Monday blocks nothing; the approval approves Wednesday to Sunday only.
    await submitAs(ctx.app, person, week.period);
    let res = await approveAs(ctx.app, w.owner, { user_id: person.userId, ...period });
    if (res.statusCode === 409 && res.json().error === 'approval_warnings_unacknowledged') {
      const warned = res.json().preflight;
      res = await approveAs(ctx.app, w.owner, { user_id: person.userId, ...period, preflight_fingerprint: warned.fingerprint, acknowledged_warning_codes: warned.warnings.map((x: { code: string }) => x.code) });
    }
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ time_entry_count: 1 });
    expect(await statusesOf(ctx.db, w.companyId, [monday, wednesday])).toEqual({ [monday]: 'submitted', [wednesday]: 'approved' });
  });

  it('blockers: a running timer in the period is 409 approval_blocked (running_timer)', async () => {
    const person = await freshPerson(ctx.db, w);
    const done = await entry(person, '2026-06-09');
    await submitAs(ctx.app, person, { from: '2026-06-08', to: '2026-06-09' });
    const timer = (await postEntry(ctx.app, person, { project_id: w.project, task_id: w.task, is_running: true })).json();
    const res = await approveAs(ctx.app, w.owner, { user_id: person.userId, from: '2026-06-08', to: '2026-06-14' });
    const pre = expectPreflight(expectError(res, 409, 'approval_blocked'));
    expect(pre.blockers.map((b) => b.code)).toEqual(['running_timer']);
    expect(pre.blockers[0].time_entry_ids).toEqual([timer.id]);
    expect(await statusesOf(ctx.db, w.companyId, [done])).toEqual({ [done]: 'submitted' });
    await patchEntry(ctx.app, person, timer.id, {}, '/stop');
  });

  it('warnings: hours below expected need the fingerprint and every code; then the approval goes through', async () => {
    const person = await freshPerson(ctx.db, w, { expectedWeeklyHours: '40' });
    const week = nextWeek();
    const ids = [await entry(person, week.mon, { hours: 8 }), await entry(person, week.tue, { hours: 7.5 })];
    await submitAs(ctx.app, person, week.period);
    const review = { user_id: person.userId, ...week.period };

    const first = expectError(await approveAs(ctx.app, w.owner, review), 409, 'approval_warnings_unacknowledged');
    const pre = expectPreflight(first);
    expect(pre.blockers).toEqual([]);
    expect(pre.warnings).toEqual([
      expect.objectContaining({ code: 'hours_below_expected', tracked_hours: 15.5, expected_hours: 40 }),
    ]);
    // the codes without the fingerprint, or the fingerprint without the codes: still 409
    expectError(await approveAs(ctx.app, w.owner, { ...review, acknowledged_warning_codes: ['hours_below_expected'] }), 409, 'approval_warnings_unacknowledged');
    expectError(await approveAs(ctx.app, w.owner, { ...review, preflight_fingerprint: pre.fingerprint }), 409, 'approval_warnings_unacknowledged');
    expectError(
      await approveAs(ctx.app, w.owner, { ...review, preflight_fingerprint: pre.fingerprint, acknowledged_warning_codes: ['overlapping_entries'] }),
      409,
      'approval_warnings_unacknowledged',
    );
    expect(await statusesOf(ctx.db, w.companyId, ids)).toEqual({ [ids[0]]: 'submitted', [ids[1]]: 'submitted' });

    const ok = await approveAs(ctx.app, w.owner, { ...review, preflight_fingerprint: pre.fingerprint, acknowledged_warning_codes: ['hours_below_expected'] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ time_entry_count: 2, expense_count: 0, preflight_fingerprint: pre.fingerprint, acknowledged_warning_codes: ['hours_below_expected'] });
    const [log] = await auditOf('timesheet.approved', person.userId);
    expect(log.details).toMatchObject({ acknowledged_warning_codes: ['hours_below_expected'] });
  });

  it('warnings: time outside working capacity and overlapping entries', async () => {
    const person = await freshPerson(ctx.db, w, { expectedWeeklyHours: '10' });
    const week = nextWeek();
    const a = await entry(person, week.mon, { hours: undefined, started_time: '09:00', ended_time: '13:00' });
    const b = await entry(person, week.mon, { hours: undefined, started_time: '12:30', ended_time: '17:00' });
    const c = await entry(person, week.mon, { hours: undefined, started_time: '17:00', ended_time: '20:00' }); // touches b, no overlap
    await submitAs(ctx.app, person, week.period);
    const pre = expectPreflight(expectError(await approveAs(ctx.app, w.owner, { user_id: person.userId, ...week.period }), 409, 'approval_warnings_unacknowledged'));
    expect(pre.warnings.map((x) => x.code)).toEqual(['outside_working_capacity', 'overlapping_entries']);
    expect(pre.warnings[0]).toMatchObject({ tracked_hours: 11.5, capacity_hours: 10 });
    expect(pre.warnings[1].time_entry_ids).toEqual([a, b].sort());
    const ok = await approveAs(ctx.app, w.owner, {
      user_id: person.userId,
      ...week.period,
      preflight_fingerprint: pre.fingerprint,
      acknowledged_warning_codes: ['overlapping_entries', 'outside_working_capacity', 'overlapping_entries'],
    });
    expect(ok.json()).toMatchObject({ time_entry_count: 3, acknowledged_warning_codes: ['outside_working_capacity', 'overlapping_entries'] });
    expect(await statusesOf(ctx.db, w.companyId, [a, b, c])).toEqual({ [a]: 'approved', [b]: 'approved', [c]: 'approved' });
  });

  it('a time entry edited between the preflight and the approval: 409 approval_preflight_stale with the fresh preflight', async () => {
    const person = await freshPerson(ctx.db, w, { expectedWeeklyHours: '40' });
    const week = nextWeek();
    const id = await entry(person, week.mon, { hours: 4 });
    await submitAs(ctx.app, person, week.period);
    const review = { user_id: person.userId, ...week.period };
    const pre = expectPreflight(expectError(await approveAs(ctx.app, w.owner, review), 409, 'approval_warnings_unacknowledged'));
    ctx.clock.advance(60_000);
    expect((await patchEntry(ctx.app, person, id, { hours: 5 })).statusCode).toBe(200);
    const acknowledged = { ...review, preflight_fingerprint: pre.fingerprint, acknowledged_warning_codes: ['hours_below_expected'] };
    const stale = expectError(await approveAs(ctx.app, w.owner, acknowledged), 409, 'approval_preflight_stale');
    const fresh = expectPreflight(stale);
    expect(fresh.fingerprint).not.toBe(pre.fingerprint);
    expect(fresh.warnings[0]).toMatchObject({ code: 'hours_below_expected', tracked_hours: 5 });
    expect(await statusesOf(ctx.db, w.companyId, [id])).toEqual({ [id]: 'submitted' });
    const ok = await approveAs(ctx.app, w.owner, { ...acknowledged, preflight_fingerprint: fresh.fingerprint });
    expect(ok.json()).toMatchObject({ time_entry_count: 1, preflight_fingerprint: fresh.fingerprint });
  });

  it('a change while the approval runs: 409 approval_conflict with the current preflight, nothing approved', async () => {
    const { person, ids, review } = await submittedWeek({ hours: [2, 3] });
    approvalTestHooks.afterPreflight = async () => {
      approvalTestHooks.afterPreflight = undefined;
      ctx.clock.advance(60_000);
      expect((await patchEntry(ctx.app, person, ids[0], { hours: 2.5 })).statusCode).toBe(200);
    };
    const res = await approveAs(ctx.app, w.owner, review);
    const pre = expectPreflight(expectError(res, 409, 'approval_conflict'));
    expect(pre.blockers).toEqual([]);
    expect(await statusesOf(ctx.db, w.companyId, ids)).toEqual({ [ids[0]]: 'submitted', [ids[1]]: 'submitted' });
    expect(await auditOf('timesheet.approved', person.userId)).toHaveLength(0);
    // the retry goes through
    expect((await approveAs(ctx.app, w.owner, review)).json()).toMatchObject({ time_entry_count: 2, preflight_fingerprint: pre.fingerprint });
  });

  it('two approvers approving the same period at once: one wins, nothing is counted twice', async () => {
    const { person, ids, review } = await submittedWeek({ hours: [1, 2, 3], expenses: 2 });
    const results = await Promise.all([w.owner, w.admin, w.manager, w.owner, w.admin, w.manager].map((approver) => approveAs(ctx.app, approver, review)));
    const winners = results.filter((r) => r.statusCode === 200 && r.json().time_entry_count > 0);
    expect(winners).toHaveLength(1);
    expect(winners[0].json()).toMatchObject({ time_entry_count: 3, expense_count: 2 });
    for (const r of results.filter((x) => x !== winners[0])) {
      if (r.statusCode === 200) expect(r.json()).toMatchObject({ time_entry_count: 0, expense_count: 0 });
      else expectPreflight(expectError(r, 409, 'approval_conflict'));
    }
    expect(await statusesOf(ctx.db, w.companyId, ids)).toEqual(Object.fromEntries(ids.map((id) => [id, 'approved'])));
    expect(await auditOf('timesheet.approved', person.userId)).toHaveLength(1);
  });

  it('an approval racing a rejection: the items end in exactly one of the two states', async () => {
    const { ids, review } = await submittedWeek({ hours: [1, 2] });
    const [approved, rejected] = await Promise.all([approveAs(ctx.app, w.owner, review), rejectAs(ctx.app, w.admin, review)]);
    const statuses = Object.values(await statusesOf(ctx.db, w.companyId, ids));
    if (approved.statusCode === 200 && approved.json().time_entry_count === 2) {
      expect(rejected.json()).toEqual({ time_entry_count: 0, expense_count: 0 });
      expect(statuses).toEqual(['approved', 'approved']);
    } else {
      expect(rejected.json()).toEqual({ time_entry_count: 2, expense_count: 0 });
      expect(statuses).toEqual(['rejected', 'rejected']);
    }
  });
});

// ---------------------------------------------------------------- reject

describe('reject', () => {
  it('returns submitted items to rejected; the reason goes to the e-mail and the audit log', async () => {
    const { person, ids, review } = await submittedWeek({ hours: [2, 3], expenses: 1 });
    const seen = await outboxIds();
    const reason = 'Tuesday looks like two entries for the same meeting.\nPlease merge them.';
    const res = await rejectAs(ctx.app, w.manager, { ...review, reason });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ time_entry_count: 2, expense_count: 1 });
    expect(await statusesOf(ctx.db, w.companyId, ids)).toEqual(Object.fromEntries(ids.map((id) => [id, 'rejected'])));
    expect((await getEntry(person, ids[0])).json()).toMatchObject({ approval_status: 'rejected', is_locked: false, is_closed: false });
    const jobs = await newJobs(seen);
    expect(jobs).toHaveLength(1);
    const job = jobs[0];
    expect(job.kind).toBe('timesheet_rejected');
    const payload = job.payload as any;
    expect(payload.to).toEqual([{ email: person.email, name: expect.any(String) }]);
    expect(payload.reply_to).toMatchObject({ email: w.manager.email });
    expect(payload.text).toContain(reason);
    const [log] = await auditOf('timesheet.rejected', person.userId);
    expect(log).toMatchObject({ actor_user_id: w.manager.userId });
    expect(log.details).toMatchObject({ reason, time_entry_count: 2, expense_count: 1 });
    // a rejected week is not locked: new time goes in
    expect((await postEntry(ctx.app, person, { project_id: w.project, task_id: w.task, spent_date: review.to, hours: 1 })).statusCode).toBe(201);
  });

  it('without a reason, and with nothing submitted (0 counts, no e-mail); approved items stay approved', async () => {
    const { ids, review } = await submittedWeek({ hours: [2] });
    const seen = await outboxIds();
    expect((await rejectAs(ctx.app, w.owner, { ...review, reason: null })).json()).toEqual({ time_entry_count: 1, expense_count: 0 });
    const [log] = await auditOf('timesheet.rejected', review.user_id);
    expect(log.details).toMatchObject({ reason: null });
    const [job] = await newJobs(seen);
    expect(job.payload).toMatchObject({ text: expect.stringContaining('No reason was given.') });
    const count = (await outbox()).length;
    expect((await rejectAs(ctx.app, w.owner, review)).json()).toEqual({ time_entry_count: 0, expense_count: 0 });
    expect(await outbox()).toHaveLength(count);
    const approvedWeek = await submittedWeek({ hours: [1] });
    await approveAs(ctx.app, w.owner, approvedWeek.review);
    expect((await rejectAs(ctx.app, w.owner, approvedWeek.review)).json()).toEqual({ time_entry_count: 0, expense_count: 0 });
    expect(await statusesOf(ctx.db, w.companyId, approvedWeek.ids)).toEqual({ [approvedWeek.ids[0]]: 'approved' });
    expect(ids).toHaveLength(1);
  });

  it('project_id narrows the rejection to that project', async () => {
    const person = await freshPerson(ctx.db, w);
    const week = nextWeek();
    const main = await entry(person, week.mon);
    const managed = await entry(person, week.tue, {}, w.managed, w.managedTask);
    await submitAs(ctx.app, person, week.period);
    expect((await rejectAs(ctx.app, w.owner, { user_id: person.userId, ...week.period, project_id: w.managed })).json()).toEqual({ time_entry_count: 1, expense_count: 0 });
    expect(await statusesOf(ctx.db, w.companyId, [main, managed])).toEqual({ [main]: 'submitted', [managed]: 'rejected' });
  });
});

// ---------------------------------------------------------------- who may act

describe('who may act', () => {
  it('everyone with a full-access key submits their own time; a personal sync key cannot', async () => {
    for (const caller of [w.owner, w.admin, w.manager, w.mgrPlain, w.member, w.contractor, w.approver]) {
      const res = await submitAs(ctx.app, caller, { from: '2025-01-01', to: '2025-01-31' });
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const key of [w.memberPersonal, w.managerPersonal, w.adminPersonal]) {
      expectError(await submitAs(ctx.app, key, { from: '2025-01-01', to: '2025-01-31' }), 403, 'forbidden');
    }
  });

  it('submit has no user_id: naming someone is an unknown field', async () => {
    expectError(await submitAs(ctx.app, w.owner, { user_id: w.member.userId, from: '2025-01-01', to: '2025-01-31' }), 400, 'unknown_field', 'user_id');
  });

  it('owners and administrators approve and reject anyone in the workspace, themselves included', async () => {
    for (const approver of [w.owner, w.admin]) {
      const a = await submittedWeek({ hours: [1] });
      expect((await approveAs(ctx.app, approver, a.review)).json()).toMatchObject({ time_entry_count: 1 });
      const r = await submittedWeek({ hours: [1] });
      expect((await rejectAs(ctx.app, approver, r.review)).json()).toMatchObject({ time_entry_count: 1 });
    }
    const week = nextWeek();
    await entry(w.admin, week.mon);
    await submitAs(ctx.app, w.admin, week.period);
    expect((await approveAs(ctx.app, w.admin, { user_id: w.admin.userId, ...week.period })).json()).toMatchObject({ time_entry_count: 1 });
  });

  it("managers approve and reject their teammates' time, on every project", async () => {
    const person = await freshPerson(ctx.db, w, { teammateOf: w.mgrPlain });
    const week = nextWeek();
    const ids = [await entry(person, week.mon), await entry(person, week.tue, {}, w.managed, w.managedTask)];
    await submitAs(ctx.app, person, week.period);
    expect((await rejectAs(ctx.app, w.mgrPlain, { user_id: person.userId, ...week.period })).json()).toEqual({ time_entry_count: 2, expense_count: 0 });
    await submitAs(ctx.app, person, week.period);
    expect((await approveAs(ctx.app, w.mgrPlain, { user_id: person.userId, ...week.period })).json()).toMatchObject({ time_entry_count: 2 });
    expect(await statusesOf(ctx.db, w.companyId, ids)).toEqual({ [ids[0]]: 'approved', [ids[1]]: 'approved' });
  });

  it('managers with approve_managed_projects approve time on the projects they manage, and only that', async () => {
    const person = await freshPerson(ctx.db, w); // nobody's teammate
    const week = nextWeek();
    const onManaged = await entry(person, week.mon, {}, w.managed, w.managedTask);
    const onMain = await entry(person, week.tue);
    await submitAs(ctx.app, person, week.period);
    const review = { user_id: person.userId, ...week.period };
    // without the permission (manager manages the project too): 403
    for (const body of [review, { ...review, project_id: w.managed }]) {
      expectError(await approveAs(ctx.app, w.manager, body), 403, 'forbidden');
      expectError(await rejectAs(ctx.app, w.manager, body), 403, 'forbidden');
    }
    // with it, but naming a project they do not manage: 403
    expectError(await approveAs(ctx.app, w.approver, { ...review, project_id: w.project }), 403, 'forbidden');
    expectError(await rejectAs(ctx.app, w.approver, { ...review, project_id: w.project }), 403, 'forbidden');
    expect(await statusesOf(ctx.db, w.companyId, [onManaged, onMain])).toEqual({ [onManaged]: 'submitted', [onMain]: 'submitted' });
    // with it: the managed project's time only, with or without project_id
    expect((await approveAs(ctx.app, w.approver, review)).json()).toMatchObject({ time_entry_count: 1, expense_count: 0 });
    expect(await statusesOf(ctx.db, w.companyId, [onManaged, onMain])).toEqual({ [onManaged]: 'approved', [onMain]: 'submitted' });
    // reject likewise
    const week2 = nextWeek();
    const again = await entry(person, week2.mon, {}, w.managed, w.managedTask);
    const mainAgain = await entry(person, week2.tue);
    await submitAs(ctx.app, person, week2.period);
    expect((await rejectAs(ctx.app, w.approver, { user_id: person.userId, ...week2.period, project_id: w.managed })).json()).toEqual({ time_entry_count: 1, expense_count: 0 });
    expect(await statusesOf(ctx.db, w.companyId, [again, mainAgain])).toEqual({ [again]: 'rejected', [mainAgain]: 'submitted' });
  });

  it("managers cannot reach people who are neither teammates nor on a project whose time they approve, nor their own time", async () => {
    const person = await freshPerson(ctx.db, w);
    const week = nextWeek();
    await entry(person, week.mon);
    await submitAs(ctx.app, person, week.period);
    const review = { user_id: person.userId, ...week.period };
    expectError(await approveAs(ctx.app, w.mgrPlain, review), 403, 'forbidden');
    expectError(await rejectAs(ctx.app, w.mgrPlain, review), 403, 'forbidden');
    // a person not on the approver's managed project
    const outsider = await freshPerson(ctx.db, w);
    await ctx.db.deleteFrom('project_user_assignments').where('company_id', '=', w.companyId).where('user_id', '=', outsider.userId).where('project_id', '=', w.managed).execute();
    expectError(await approveAs(ctx.app, w.approver, { user_id: outsider.userId, ...week.period }), 403, 'forbidden');
    // their own time
    await entry(w.approver, week.mon, {}, w.managed, w.managedTask);
    await submitAs(ctx.app, w.approver, week.period);
    expectError(await approveAs(ctx.app, w.approver, { user_id: w.approver.userId, ...week.period }), 403, 'forbidden');
    expectError(await approveAs(ctx.app, w.manager, { user_id: w.manager.userId, ...week.period }), 403, 'forbidden');
  });

  it('members, contractors and personal sync keys approve and reject nothing (403, whatever the person)', async () => {
    const { ids, review } = await submittedWeek({ hours: [1] });
    for (const caller of [w.member, w.contractor, w.other, w.memberPersonal, w.managerPersonal, w.adminPersonal]) {
      for (const body of [review, { ...review, user_id: foreign.member.userId }, { ...review, user_id: caller.userId }]) {
        expectError(await approveAs(ctx.app, caller, body), 403, 'forbidden');
        expectError(await rejectAs(ctx.app, caller, body), 403, 'forbidden');
      }
    }
    expect(await statusesOf(ctx.db, w.companyId, ids)).toEqual({ [ids[0]]: 'submitted' });
  });

  it("another workspace's person or project is 404, as are unknown and malformed ids", async () => {
    const { ids, review } = await submittedWeek({ hours: [1] });
    for (const caller of [w.owner, w.admin, w.manager]) {
      for (const userId of [foreign.member.userId, foreign.owner.userId, newId(), 'not-an-id']) {
        expectError(await approveAs(ctx.app, caller, { ...review, user_id: userId }), 404, 'not_found');
        expectError(await rejectAs(ctx.app, caller, { ...review, user_id: userId }), 404, 'not_found');
      }
      for (const projectId of [foreign.project, newId(), 'nope']) {
        expectError(await approveAs(ctx.app, caller, { ...review, project_id: projectId }), 404, 'not_found');
        expectError(await rejectAs(ctx.app, caller, { ...review, project_id: projectId }), 404, 'not_found');
      }
    }
    // the other workspace's owner cannot reach this workspace's person either
    expectError(await approveAs(ctx.app, foreign.owner, review), 404, 'not_found');
    expect(await statusesOf(ctx.db, w.companyId, ids)).toEqual({ [ids[0]]: 'submitted' });
  });
});

// ---------------------------------------------------------------- approvals off

describe('approvals turned off for the workspace', () => {
  it('is 403 on all three, before the body is looked at, and changes nothing', async () => {
    const off = await makeApprovalWorkspace(ctx.db, { name: 'No approvals' });
    const person = await freshPerson(ctx.db, off);
    const id = (await postEntry(ctx.app, person, { project_id: off.project, task_id: off.task, spent_date: '2026-06-01', hours: 1 })).json().id;
    await setWorkspace(ctx.db, off.companyId, { approvals_enabled: false });
    const period = { from: '2026-06-01', to: '2026-06-07' };
    for (const caller of [off.owner, off.admin, person]) {
      expectError(await submitAs(ctx.app, caller, period), 403, 'forbidden');
      expectError(await approveAs(ctx.app, caller, { user_id: person.userId, ...period }), 403, 'forbidden');
      expectError(await rejectAs(ctx.app, caller, { user_id: person.userId, ...period }), 403, 'forbidden');
      expectError(await submitAs(ctx.app, caller, { bogus: 1 }), 403, 'forbidden');
    }
    expect(await statusesOf(ctx.db, off.companyId, [id])).toEqual({ [id]: 'unsubmitted' });
    await setWorkspace(ctx.db, off.companyId, { approvals_enabled: true });
    expect((await submitAs(ctx.app, person, period)).json()).toMatchObject({ submitted_count: 1 });
  });

  it('X-Service-Features lists time-approvals-v1', async () => {
    const res = await request(ctx.app, w.member, { method: 'GET', url: '/api/v2/users/me' });
    expect(res.headers['x-service-features']).toContain('time-approvals-v1');
  });
});

// ---------------------------------------------------------------- idempotency

describe('Idempotency-Key', () => {
  it('replays a submit: the same body, nothing submitted twice', async () => {
    const person = await freshPerson(ctx.db, w);
    const week = nextWeek();
    await entry(person, week.mon);
    const key = { 'idempotency-key': `submit-${newId()}` };
    const first = await submitAs(ctx.app, person, week.period, key);
    expect(first.json()).toMatchObject({ submitted_count: 1 });
    ctx.clock.advance(60_000);
    await entry(person, week.tue);
    const replay = await submitAs(ctx.app, person, week.period, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
    expect(await auditOf('timesheet.submitted', person.userId)).toHaveLength(1);
    expectError(await submitAs(ctx.app, person, { ...week.period, to: week.sat }, key), 409, 'idempotency_key_reused');
  });

  it('a 409 releases the key: the corrected approval goes through with it, then replays', async () => {
    const person = await freshPerson(ctx.db, w, { expectedWeeklyHours: '40' });
    const week = nextWeek();
    await entry(person, week.mon);
    await submitAs(ctx.app, person, week.period);
    const key = { 'idempotency-key': `approve-${newId()}` };
    const review = { user_id: person.userId, ...week.period };
    const pre = expectPreflight(expectError(await approveAs(ctx.app, w.owner, review, key), 409, 'approval_warnings_unacknowledged'));
    const corrected = { ...review, preflight_fingerprint: pre.fingerprint, acknowledged_warning_codes: ['hours_below_expected'] };
    const ok = await approveAs(ctx.app, w.owner, corrected, key);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ time_entry_count: 1 });
    const replay = await approveAs(ctx.app, w.owner, corrected, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(ok.body);
    expect(await auditOf('timesheet.approved', person.userId)).toHaveLength(1);
  });

  it('replays a reject; a malformed key is 400', async () => {
    const { person, review } = await submittedWeek({ hours: [1] });
    const key = { 'idempotency-key': `reject-${newId()}` };
    const first = await rejectAs(ctx.app, w.owner, { ...review, reason: 'why' }, key);
    expect(first.json()).toEqual({ time_entry_count: 1, expense_count: 0 });
    const replay = await rejectAs(ctx.app, w.owner, { ...review, reason: 'why' }, key);
    expect(replay.body).toBe(first.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await auditOf('timesheet.rejected', person.userId)).toHaveLength(1);
    expectError(await rejectAs(ctx.app, w.owner, review, { 'idempotency-key': 'short' }), 400, 'invalid_request', 'Idempotency-Key');
  });
});

// ---------------------------------------------------------------- bad input

describe('bad input is 400 and changes nothing', () => {
  it('unknown fields, wrong types, bad dates, long periods and long reasons', async () => {
    const { person, ids, review } = await submittedWeek({ hours: [1] });
    const open = await entry(person, review.to);
    const jobs = (await outbox()).length;
    const period = { from: review.from, to: review.to };
    const cases: Array<[typeof submitAs, unknown, string, string | undefined]> = [
      // submit
      [submitAs, { ...period, extra: 1 }, 'unknown_field', 'extra'],
      [submitAs, { ...period, fingerprint: 5 }, 'invalid_request', 'fingerprint'],
      [submitAs, { ...period, fingerprint: '' }, 'invalid_request', 'fingerprint'],
      [submitAs, { from: 20260101, to: review.to }, 'invalid_request', 'from'],
      [submitAs, { from: review.from }, 'invalid_request', 'to'],
      [submitAs, { from: '2026-02-30', to: '2026-03-01' }, 'invalid_request', 'from'],
      [submitAs, { from: '2026/01/01', to: '2026-03-01' }, 'invalid_request', 'from'],
      [submitAs, { from: '20260101', to: '2026-03-01' }, 'invalid_request', 'from'],
      [submitAs, { from: '', to: '2026-03-01' }, 'invalid_request', 'from'],
      [submitAs, { from: '2026-03-02', to: '2026-03-01' }, 'invalid_request', 'to'],
      [submitAs, { from: '2025-01-01', to: '2026-01-02' }, 'invalid_request', 'to'], // 367 days
      [submitAs, [], 'invalid_request', undefined],
      // approve
      [approveAs, { ...review, preflight: 'x' }, 'unknown_field', 'preflight'],
      [approveAs, { ...period }, 'invalid_request', 'user_id'],
      [approveAs, { ...review, user_id: 42 }, 'invalid_request', 'user_id'],
      [approveAs, { ...review, project_id: null }, 'invalid_request', 'project_id'],
      [approveAs, { ...review, acknowledged_warning_codes: 'hours_below_expected' }, 'invalid_request', 'acknowledged_warning_codes'],
      [approveAs, { ...review, acknowledged_warning_codes: [1] }, 'invalid_request', 'acknowledged_warning_codes.0'],
      [approveAs, { ...review, preflight_fingerprint: true }, 'invalid_request', 'preflight_fingerprint'],
      [approveAs, { ...review, from: '2026-13-01' }, 'invalid_request', 'from'],
      [approveAs, { ...review, from: '2024-01-01', to: '2025-01-01' }, 'invalid_request', 'to'], // 367 days (leap year)
      // reject
      [rejectAs, { ...review, note: 'x' }, 'unknown_field', 'note'],
      [rejectAs, { ...review, reason: 'x'.repeat(2001) }, 'invalid_request', 'reason'],
      [rejectAs, { ...review, reason: 5 }, 'invalid_request', 'reason'],
      [rejectAs, { ...review, reason: 'a\u0000b' }, 'invalid_request', 'reason'],
      [rejectAs, { ...review, to: '2026-02-29' }, 'invalid_request', 'to'],
    ];
    for (const [send, payload, error, field] of cases) {
      const res = await send(ctx.app, send === submitAs ? person : w.owner, payload);
      expect(res.statusCode, `${JSON.stringify(payload).slice(0, 80)}: ${res.body}`).toBe(400);
      expectError(res, 400, error, field);
    }
    // no body, not JSON, wrong content type
    for (const url of ['/api/v2/approvals/submit', '/api/v2/approvals/approve', '/api/v2/approvals/reject']) {
      expect((await request(ctx.app, w.owner, { method: 'POST', url })).statusCode).toBe(400);
      expectError(await request(ctx.app, w.owner, { method: 'POST', url, payload: '{', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
      expect((await request(ctx.app, w.owner, { method: 'POST', url, payload: 'from=x', headers: { 'content-type': 'text/plain' } })).statusCode).toBe(415);
    }
    expect(await statusesOf(ctx.db, w.companyId, [...ids, open])).toEqual({ [ids[0]]: 'submitted', [open]: 'unsubmitted' });
    expect(await outbox()).toHaveLength(jobs);
    expect(await auditOf('timesheet.rejected', person.userId)).toHaveLength(0);
    expect(await auditOf('timesheet.approved', person.userId)).toHaveLength(0);
  });

  it('a reason of exactly 2000 characters and a period of exactly 366 days are accepted', async () => {
    const { review } = await submittedWeek({ hours: [1] });
    expect((await rejectAs(ctx.app, w.owner, { ...review, reason: 'é'.repeat(2000) })).json()).toEqual({ time_entry_count: 1, expense_count: 0 });
    expect((await submitAs(ctx.app, w.contractor, { from: '2024-01-01', to: '2024-12-31' })).statusCode).toBe(200); // leap year: 366 days
    expect((await approveAs(ctx.app, w.owner, { user_id: w.contractor.userId, from: '2025-01-01', to: '2026-01-01' })).statusCode).toBe(200);
  });
});

describe.runIf(onPostgres)('approvals against writes in flight (PostgreSQL: several connections)', () => {
  it('a write that starts while an approval of the person runs is a 409 and writes nothing', async () => {
    const person = await freshPerson(ctx.db, w);
    const wk = nextWeek();
    const existing = await entry(person, wk.mon);
    await ctx.db.transaction().execute(async (trx) => {
      await lockPersonTimeForApproval(trx, w.companyId, person.userId);
      const created = await postEntry(ctx.app, person, { project_id: w.project, task_id: w.task, spent_date: wk.tue, hours: 1 });
      expectError(created, 409, 'conflict');
      // The same lock whoever writes, however the person's id is spelled, and for timers.
      const forThem = { user_id: person.userId.toUpperCase(), project_id: w.project, task_id: w.task };
      expectError(await postEntry(ctx.app, w.owner, { ...forThem, spent_date: wk.tue, hours: 1 }), 409, 'conflict');
      expectError(await postEntry(ctx.app, w.owner, { ...forThem, is_running: true }), 409, 'conflict');
      expectError(await patchEntry(ctx.app, person, existing, { hours: 3 }), 409, 'conflict');
      // Someone else's time is not held up.
      await entry(w.member, wk.tue);
    });
    const after = await request(ctx.app, person, { method: 'GET', url: `/api/v2/time_entries?from=${wk.mon}&to=${wk.sun}` });
    expect(after.json().time_entries.map((e: { id: string; hours: number }) => [e.id, e.hours])).toEqual([[existing, 2]]);
    await entry(person, wk.tue);
  });

  it('an approval waits for a write in flight and then refuses the changed period (approval_conflict)', async () => {
    const person = await freshPerson(ctx.db, w);
    const wk = nextWeek();
    const submitted = await entry(person, wk.mon);
    expect((await submitAs(ctx.app, person, wk.period)).statusCode).toBe(200);
    let approval: Promise<{ statusCode: number; json(): any }> | undefined;
    await ctx.db.transaction().execute(async (trx) => {
      // A write of the person's time in flight: it holds the shared lock and has added an entry.
      await enterPersonTime(trx, w.companyId, person.userId);
      await insertEntryRow(trx, w.companyId, { userId: person.userId, projectId: w.project, taskId: w.task, spentDate: wk.tue });
      approval = approveAs(ctx.app, w.owner, { user_id: person.userId, ...wk.period });
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const body = expectError(await approval!, 409, 'approval_conflict');
    expect(expectPreflight(body).blockers.map((b: { code: string }) => b.code)).toEqual(['unsubmitted_time']);
    expect(await statusesOf(ctx.db, w.companyId, [submitted])).toEqual({ [submitted]: 'submitted' });
  });
});
