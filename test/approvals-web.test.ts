import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { insertEntryRow, postEntry, setNow } from './fixtures/catalog.ts';
import { approveAs, freshPerson, makeApprovalWorkspace, rejectAs, statusesOf, submitAs, type ApprovalWorkspace } from './fixtures/approvals.ts';

/**
 * The web app's approval routes (issue 16 item 3): the withdrawal the API does
 * not offer (web only, an approver's, refused where billed work depends on it),
 * the queue, the preflight read and the person's week with their last rejection.
 */

let ctx: TestContext;
let w: ApprovalWorkspace;
let foreign: ApprovalWorkspace;
const s: Record<'owner' | 'admin' | 'manager' | 'member' | 'approver' | 'mgrPlain', Caller> = {} as never;

beforeAll(async () => {
  ctx = await createTestContext();
  setNow(ctx.clock, '2026-06-10T10:00:00.000Z');
  w = await makeApprovalWorkspace(ctx.db);
  foreign = await makeApprovalWorkspace(ctx.db, { name: 'Elsewhere' });
  for (const who of ['owner', 'admin', 'manager', 'member', 'approver', 'mgrPlain'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
});
afterAll(() => ctx.close());

const api = (caller: Caller, method: 'GET' | 'POST', url: string, body?: unknown) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object) });
const withdraw = (caller: Caller, body: unknown) => api(caller, 'POST', '/web/api/approvals/withdraw', body);

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, error: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body).toMatchObject({ error });
  expect(typeof body.error_description).toBe('string');
  expect(body.message).toBe(body.error_description);
}

/** A person (teammate of `manager`) with two approved entries in the week of Monday `monday`. */
async function approvedWeek(monday: string, day2: string) {
  const person = await freshPerson(ctx.db, w, { teammateOf: w.manager });
  const a = (await postEntry(ctx.app, person, { project_id: w.project, task_id: w.task, spent_date: monday, hours: 2 })).json().id as string;
  const b = (await postEntry(ctx.app, person, { project_id: w.managed, task_id: w.managedTask, spent_date: day2, hours: 1 })).json().id as string;
  expect((await submitAs(ctx.app, person, { from: monday, to: day2 })).statusCode).toBe(200);
  expect((await approveAs(ctx.app, w.owner, { user_id: person.userId, from: monday, to: day2 })).json()).toMatchObject({ time_entry_count: 2 });
  return { person, ids: [a, b] };
}

describe('POST /web/api/approvals/withdraw', () => {
  it('unlocks the week: approved items go back to submitted, new time goes in, the audit log names the approver', async () => {
    const { person, ids } = await approvedWeek('2025-03-03', '2025-03-05');
    expect((await postEntry(ctx.app, person, { project_id: w.project, task_id: w.task, spent_date: '2025-03-06', hours: 1 })).json().error).toBe('approved_timesheet_week_locked');

    const res = await withdraw(s.admin, { user_id: person.userId, from: '2025-03-03', to: '2025-03-09', reason: 'Approved by mistake' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      user_id: person.userId,
      from: '2025-03-03',
      to: '2025-03-09',
      project_id: null,
      time_entry_count: 2,
      expense_count: 0,
      billed_kept_count: 0,
      unlocked_weeks: [{ week_start: '2025-03-03', week_end: '2025-03-09' }],
      still_locked_weeks: [],
      reason: 'Approved by mistake',
    });
    expect(await statusesOf(ctx.db, w.companyId, ids)).toEqual({ [ids[0]]: 'submitted', [ids[1]]: 'submitted' });
    expect((await postEntry(ctx.app, person, { project_id: w.project, task_id: w.task, spent_date: '2025-03-06', hours: 1 })).statusCode).toBe(201);
    const log = await ctx.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('company_id', '=', w.companyId)
      .where('action', '=', 'timesheet.approval_withdrawn')
      .where('subject_id', '=', person.userId)
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({ actor_user_id: w.admin.userId });
    expect(log.details).toMatchObject({ reason: 'Approved by mistake', time_entry_ids: [...ids].sort() });
  });

  it('is refused where billed work depends on it, with the reason, and changes nothing', async () => {
    const person = await freshPerson(ctx.db, w, { teammateOf: w.manager });
    const row = (date: string, billed: boolean) =>
      insertEntryRow(ctx.db, w.companyId, { userId: person.userId, projectId: w.project, taskId: w.task, spentDate: date, approval: 'approved', billed });
    const billed = await row('2025-04-08', true);
    const unbilled = await row('2025-04-09', false);

    const res = await withdraw(s.owner, { user_id: person.userId, from: '2025-04-07', to: '2025-04-13' });
    expectError(res, 409, 'approval_withdrawal_billed');
    expect(res.json().message).toContain('1 time entry is billed on an invoice');
    expect(res.json().still_locked_weeks).toEqual([
      {
        week_start: '2025-04-07',
        week_end: '2025-04-13',
        held_by: [{ reason: 'billed', message: expect.stringContaining('billed on an invoice'), time_entry_ids: [billed], expense_ids: [], invoice_ids: [] }],
      },
    ]);
    // nothing moved, nothing logged: the unbilled entry stays approved and the week locked
    expect(await statusesOf(ctx.db, w.companyId, [billed, unbilled])).toEqual({ [billed]: 'approved', [unbilled]: 'approved' });
    const logs = await ctx.db.selectFrom('audit_logs').select('id').where('company_id', '=', w.companyId).where('action', '=', 'timesheet.approval_withdrawn').where('subject_id', '=', person.userId).execute();
    expect(logs).toHaveLength(0);
    expect((await postEntry(ctx.app, person, { project_id: w.project, task_id: w.task, spent_date: '2025-04-10', hours: 1 })).json().error).toBe('approved_timesheet_week_locked');
  });

  it('is web only and for approvers: API key 403 session_required, member 403, manager of someone else 403, foreign ids 404', async () => {
    const { person, ids } = await approvedWeek('2025-05-05', '2025-05-06');
    const body = { user_id: person.userId, from: '2025-05-05', to: '2025-05-11' };
    expectError(await withdraw(w.owner, body), 403, 'session_required'); // the owner's full-access key
    expectError(await withdraw(s.member, body), 403, 'forbidden');
    expectError(await withdraw(s.mgrPlain, body), 403, 'forbidden'); // not their teammate
    expectError(await withdraw(s.owner, { ...body, user_id: foreign.member.userId }), 404, 'not_found');
    expectError(await withdraw(s.owner, { ...body, project_id: foreign.project }), 404, 'not_found');
    expectError(await withdraw(s.owner, { ...body, user_id: 'nope' }), 404, 'not_found');
    expectError(await withdraw(s.owner, { ...body, to: '2025-05-01' }), 400, 'invalid_request');
    expect(await statusesOf(ctx.db, w.companyId, ids)).toEqual({ [ids[0]]: 'approved', [ids[1]]: 'approved' });
    // the API has no withdrawal at all
    expect((await request(ctx.app, w.owner, { method: 'POST', url: '/api/v2/approvals/withdraw', payload: body })).statusCode).toBe(404);
    // their manager may
    expect((await withdraw(s.manager, body)).json()).toMatchObject({ time_entry_count: 2, unlocked_weeks: [{ week_start: '2025-05-05' }] });
  });

  it('a manager approving only a managed project withdraws only that project; the week stays locked by the rest, said in words', async () => {
    const { person, ids } = await approvedWeek('2025-06-02', '2025-06-03'); // [0] on project, [1] on managed
    const res = await withdraw(s.approver, { user_id: person.userId, from: '2025-06-02', to: '2025-06-08' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ time_entry_count: 1, unlocked_weeks: [] });
    expect(res.json().still_locked_weeks[0].held_by[0]).toMatchObject({ reason: 'other_project', time_entry_ids: [ids[0]] });
    expect(res.json().still_locked_weeks[0].held_by[0].message).toContain('an owner or administrator can withdraw it');
    expect(await statusesOf(ctx.db, w.companyId, ids)).toEqual({ [ids[0]]: 'approved', [ids[1]]: 'submitted' });
  });
});

describe('the queue, the preflight and the person\u2019s week', () => {
  it('the queue lists submitted and approved weeks in reach; members 403; API keys 403', async () => {
    const submitter = await freshPerson(ctx.db, w, { teammateOf: w.manager, expectedWeeklyHours: '40' });
    await postEntry(ctx.app, submitter, { project_id: w.project, task_id: w.task, spent_date: '2026-06-01', hours: 3 });
    expect((await submitAs(ctx.app, submitter, { from: '2026-06-01', to: '2026-06-07' })).statusCode).toBe(200);
    const { person: approvedPerson } = await approvedWeek('2026-05-25', '2026-05-26');

    const queue = (await api(s.manager, 'GET', '/web/api/approvals/queue')).json();
    expect(queue.submitted).toContainEqual(expect.objectContaining({ user_id: submitter.userId, week_start: '2026-06-01', week_end: '2026-06-07', item_count: 1, seconds: 10800 }));
    expect(queue.approved).toContainEqual(expect.objectContaining({ user_id: approvedPerson.userId, week_start: '2026-05-25', item_count: 2 }));
    // a manager without teammates sees none of them
    const plain = (await api(s.mgrPlain, 'GET', '/web/api/approvals/queue')).json();
    expect(plain.submitted.map((r: { user_id: string }) => r.user_id)).not.toContain(submitter.userId);
    expectError(await api(s.member, 'GET', '/web/api/approvals/queue'), 403, 'forbidden');
    expectError(await api(w.owner, 'GET', '/web/api/approvals/queue'), 403, 'session_required');

    const pre = await api(s.manager, 'GET', `/web/api/approvals/preflight?user_id=${submitter.userId}&from=2026-06-01&to=2026-06-07`);
    expect(pre.statusCode, pre.body).toBe(200);
    expect(pre.json()).toMatchObject({ blockers: [], warnings: [{ code: 'hours_below_expected' }], submitted_count: 1 });
    // the fingerprint read is the one approve takes
    const ok = await approveAs(ctx.app, w.manager, {
      user_id: submitter.userId,
      from: '2026-06-01',
      to: '2026-06-07',
      preflight_fingerprint: pre.json().fingerprint,
      acknowledged_warning_codes: ['hours_below_expected'],
    });
    expect(ok.json()).toMatchObject({ time_entry_count: 1 });
    expectError(await api(s.mgrPlain, 'GET', `/web/api/approvals/preflight?user_id=${submitter.userId}&from=2026-06-01&to=2026-06-07`), 403, 'forbidden');
    expectError(await api(s.owner, 'GET', `/web/api/approvals/preflight?user_id=${foreign.member.userId}&from=2026-06-01&to=2026-06-07`), 404, 'not_found');
  });

  it('the person\u2019s week: states, a fingerprint submit checks, and the last rejection with its reason', async () => {
    const person = await freshPerson(ctx.db, w, { teammateOf: w.manager });
    const me = await sessionFor(ctx.db, person, ctx.clock.now());
    await postEntry(ctx.app, person, { project_id: w.project, task_id: w.task, spent_date: '2026-06-08', hours: 2 });
    const week = (await api(me, 'GET', '/web/api/approvals/week?date=2026-06-10')).json();
    expect(week).toMatchObject({ from: '2026-06-08', to: '2026-06-14', today: '2026-06-10', approvals_enabled: true, running: false, rejection: null });
    expect(week.statuses.unsubmitted).toEqual({ count: 1, seconds: 7200 });

    // the page went stale: another entry came in after it loaded
    await postEntry(ctx.app, person, { project_id: w.project, task_id: w.task, spent_date: '2026-06-09', hours: 1 });
    expectError(await api(me, 'POST', '/api/v2/approvals/submit', { from: week.from, to: week.to, fingerprint: week.fingerprint }), 409, 'submission_stale');
    const fresh = (await api(me, 'GET', '/web/api/approvals/week?date=2026-06-10')).json();
    expect((await api(me, 'POST', '/api/v2/approvals/submit', { from: week.from, to: week.to, fingerprint: fresh.fingerprint })).json()).toMatchObject({ submitted_count: 2 });

    expect((await rejectAs(ctx.app, w.manager, { user_id: person.userId, from: week.from, to: week.to, reason: 'Wrong project on Tuesday' })).statusCode).toBe(200);
    const after = (await api(me, 'GET', '/web/api/approvals/week?date=2026-06-10')).json();
    expect(after.statuses.rejected).toEqual({ count: 2, seconds: 10800 });
    expect(after.rejection).toMatchObject({ reason: 'Wrong project on Tuesday', rejected_by: expect.stringContaining('Max') });
    expectError(await api(person, 'GET', '/web/api/approvals/week'), 403, 'session_required');
  });
});
