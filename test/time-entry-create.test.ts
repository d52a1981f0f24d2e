import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { lockPersonTimeForApproval } from '../src/modules/tracking/week/index.ts';
import { createTestContext, onPostgres, request, type Caller, type TestContext } from './helpers.ts';
import { assignTask, assignUser, insertProject, insertRate, insertTask, postEntry, setNow } from './fixtures/catalog.ts';
import { approveAs, freshPerson, makeApprovalWorkspace, submitAs, type ApprovalWorkspace } from './fixtures/approvals.ts';

/**
 * A completed entry's create is one statement: the checks' context and an INSERT
 * guarded by every check (src/modules/tracking/time/create-statement.ts). The service
 * raises the errors from the returned context. These tests run every check through
 * the statement (nothing stored on a refusal), the precedence when two fail, the
 * guard against the checks for every role (a timer start still runs the checks in a
 * transaction of its own, so its answers are the reference), and the races the
 * statement must keep winning: an approval of the same week, parallel timer starts.
 */

let ctx: TestContext;
let w: ApprovalWorkspace;

const NOW = '2026-06-10T10:00:00.000Z'; // a Wednesday; its week (from Monday) is 2026-06-08..14

beforeAll(async () => {
  ctx = await createTestContext();
  setNow(ctx.clock, NOW);
  w = await makeApprovalWorkspace(ctx.db);
});
afterAll(() => ctx.close());

const stored = async () =>
  Number(
    (
      await ctx.db
        .selectFrom('time_entries')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('company_id', '=', w.companyId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const body = (extra: Record<string, unknown> = {}) => ({ project_id: w.project, task_id: w.task, spent_date: '2026-06-09', hours: 1, ...extra });

/** POSTs and expects the error; checks nothing was stored. */
async function refused(caller: Caller, payload: Record<string, unknown>, status: number, error: string, field?: string) {
  const before = await stored();
  const res = await postEntry(ctx.app, caller, payload);
  expect(res.statusCode, res.body).toBe(status);
  const json = res.json();
  expect(json.error, res.body).toBe(error);
  if (field !== undefined) expect(json.field, res.body).toBe(field);
  expect(await stored()).toBe(before);
  return json;
}

/** Each test takes a week of its own, so week locks never meet: week n starts on Monday 2024-01-01 + 7n. */
let weekNo = 0;
function nextWeek() {
  const monday = new Date(Date.UTC(2024, 0, 1 + 7 * ++weekNo));
  const day = (n: number) => new Date(monday.getTime() + n * 86_400_000).toISOString().slice(0, 10);
  return { mon: day(0), tue: day(1), wed: day(2), sun: day(6), period: { from: day(0), to: day(6) } };
}

/** A person with an approved entry on the Monday of a fresh week. */
async function approvedWeek() {
  const person = await freshPerson(ctx.db, w);
  const wk = nextWeek();
  const res = await postEntry(ctx.app, person, body({ spent_date: wk.mon }));
  expect(res.statusCode, res.body).toBe(201);
  expect((await submitAs(ctx.app, person, wk.period)).statusCode).toBe(200);
  expect((await approveAs(ctx.app, w.owner, { user_id: person.userId, ...wk.period })).statusCode).toBe(200);
  return { person, wk };
}

describe('every check, through the statement', () => {
  it('answers each refusal as before and stores nothing', async () => {
    const unknown = newId();
    await refused(w.member, body({ project_id: unknown }), 400, 'invalid_request', 'project_id');
    await refused(w.member, body({ project_id: w.managed, task_id: w.managedTask, user_id: w.other.userId }), 403, 'forbidden');
    // Not assigned to a project the member cannot see: the same 400 as an unknown one.
    const hidden = await insertProject(ctx.db, w.companyId, w.clientId, { name: 'Hidden' });
    await assignTask(ctx.db, w.companyId, hidden, w.task);
    await refused(w.member, body({ project_id: hidden }), 400, 'invalid_request', 'project_id');
    // A manager on a project neither managed nor theirs, for someone who is not a teammate.
    await refused(w.mgrPlain, body({ project_id: w.managed, task_id: w.managedTask, user_id: w.other.userId }), 400, 'invalid_request', 'project_id');
    await refused(w.manager, body({ user_id: w.other.userId }), 403, 'forbidden');
    const archived = await insertProject(ctx.db, w.companyId, w.clientId, { name: 'Archived', isActive: false });
    await assignTask(ctx.db, w.companyId, archived, w.task);
    await assignUser(ctx.db, w.companyId, archived, w.member.userId);
    const archivedRes = await refused(w.member, body({ project_id: archived }), 400, 'invalid_request', 'project_id');
    expect(archivedRes.message).toMatch(/archived/);
    // The person is not assigned: an administrator recording a member's time.
    await refused(w.admin, body({ project_id: hidden, user_id: w.member.userId }), 400, 'invalid_request', 'user_id');
    await refused(w.admin, body({ user_id: newId() }), 400, 'invalid_request', 'user_id');
    await refused(w.admin, body({ user_id: 'not-an-id' }), 400, 'invalid_request', 'user_id');
    const loose = await insertTask(ctx.db, w.companyId, { name: 'Unassigned' });
    await refused(w.member, body({ task_id: loose }), 400, 'invalid_request', 'task_id');
    await refused(w.member, body({ task_id: newId() }), 400, 'invalid_request', 'task_id');
    const retired = await insertTask(ctx.db, w.companyId, { name: 'Retired', isActive: false });
    await assignTask(ctx.db, w.companyId, w.project, retired);
    await refused(w.member, body({ task_id: retired }), 400, 'invalid_request', 'task_id');
    await refused(w.member, body({ hours: undefined, started_time: '09:00' }), 400, 'invalid_request', 'ended_time');
    await refused(w.member, body({ hours: undefined, started_time: '10:00', ended_time: '09:00' }), 400, 'invalid_request', 'ended_time');
    await refused(w.member, body({ hours: 3, started_time: '09:00', ended_time: '10:00' }), 400, 'invalid_request', 'hours');
    await refused(w.member, body({ hours: undefined }), 400, 'invalid_request', 'hours');
    const { person, wk } = await approvedWeek();
    const locked = await refused(person, body({ spent_date: wk.tue }), 409, 'approved_timesheet_week_locked');
    expect(locked).toMatchObject({ week_start: wk.mon, week_end: wk.sun });
  });

  // The approval's lock is held in a transaction of the test's own: on PGlite its one session would wait for itself.
  it.runIf(onPostgres)('an approval in progress is 409 conflict, before any other check', async () => {
    const person = await freshPerson(ctx.db, w);
    await ctx.db.transaction().execute(async (trx) => {
      await lockPersonTimeForApproval(trx, w.companyId, person.userId);
      // The rule as a word, for the web app to say in the person's language (src/errors.ts, Refusal).
      expect(await refused(person, body(), 409, 'conflict')).toMatchObject({ refusal: 'approval_in_progress' });
      await refused(person, body({ project_id: newId() }), 409, 'conflict');
      await refused(w.owner, body({ user_id: person.userId.toUpperCase(), task_id: newId() }), 409, 'conflict');
    });
    expect((await postEntry(ctx.app, person, body())).statusCode).toBe(201);
  });
});

describe('precedence when two checks fail', () => {
  it('person, then project, then task, then the duration, then the week lock', async () => {
    const { person, wk } = await approvedWeek();
    // A member naming someone else (403) on an unknown project: the person first.
    await refused(w.member, body({ user_id: w.other.userId, project_id: newId() }), 403, 'forbidden');
    // Unknown person and unknown project: user_id first.
    await refused(w.admin, body({ user_id: newId(), project_id: newId() }), 400, 'invalid_request', 'user_id');
    // Unknown project and a bad task: project_id.
    await refused(person, body({ project_id: newId(), task_id: newId(), spent_date: wk.tue }), 400, 'invalid_request', 'project_id');
    // Bad task and bad times: task_id.
    await refused(person, body({ task_id: newId(), hours: undefined, started_time: '10:00', ended_time: '09:00' }), 400, 'invalid_request', 'task_id');
    // Bad times in a locked week: the times.
    await refused(person, body({ spent_date: wk.tue, hours: undefined, started_time: '10:00', ended_time: '09:00' }), 400, 'invalid_request', 'ended_time');
    // An unknown project in a locked week: project_id.
    await refused(person, body({ spent_date: wk.tue, project_id: newId() }), 400, 'invalid_request', 'project_id');
  });
});

describe('the guard agrees with the checks for every role', () => {
  it('a completed create answers as a timer start (which runs the checks in a transaction) for each caller, person and project', async () => {
    const callers = { owner: w.owner, admin: w.admin, manager: w.manager, mgrPlain: w.mgrPlain, member: w.member, contractor: w.contractor };
    // The contractor is not on the managed project; the owner records anywhere.
    const people = { self: undefined, member: w.member.userId, other: w.other.userId, owner: w.owner.userId, contractor: w.contractor.userId };
    const projects = { main: [w.project, w.task], managed: [w.managed, w.managedTask] };
    const answer = (res: { statusCode: number; json(): any }) => {
      const json = res.json();
      return res.statusCode === 201 ? '201' : `${res.statusCode} ${json.error} ${json.field ?? ''}`;
    };
    const seen = new Set<string>();
    for (const [callerName, caller] of Object.entries(callers)) {
      for (const [personName, userId] of Object.entries(people)) {
        for (const [projectName, [projectId, taskId]] of Object.entries(projects)) {
          const target = { project_id: projectId, task_id: taskId, ...(userId ? { user_id: userId } : {}) };
          const completed = await postEntry(ctx.app, caller, { ...target, spent_date: '2026-06-09', hours: 1 });
          const timer = await postEntry(ctx.app, caller, { ...target, is_running: true, replace_running: true });
          const label = `${callerName} for ${personName} on ${projectName}`;
          expect(answer(completed), label).toBe(answer(timer));
          seen.add(answer(completed));
          for (const res of [completed, timer]) {
            if (res.statusCode === 201) {
              const del = await request(ctx.app, w.owner, { method: 'DELETE', url: `/api/v2/time_entries/${res.json().id}` });
              expect(del.statusCode).toBe(204);
            }
          }
        }
      }
    }
    // The matrix reaches the successes and the refusals alike.
    expect([...seen].sort()).toEqual(['201', '400 invalid_request project_id', '400 invalid_request user_id', '403 forbidden '].sort());
  });
});

describe('the stored entry is the answered one', () => {
  it('the create answers exactly what a later GET presents, with the rate, times, metadata and a reference', async () => {
    await insertRate(ctx.db, w.companyId, { projectId: w.project }, '2020-01-01', '120.00');
    const payload: Record<string, unknown> = body({
      hours: undefined,
      started_time: '09:15',
      ended_time: '11:45',
      notes: "It's a \\ backslash, 'quotes', ünïcødé and\nnewlines",
      metadata: { ticket: 'A-1', nested: { n: 1 } },
      external_reference: { id: 'ref-1', permalink: 'https://example.com/x', service: 'example.com' },
      source: 'cli',
    });
    const res = await postEntry(ctx.app, w.owner, payload);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(res.headers.location).toBe(`/api/v2/time_entries/${created.id}`);
    const got = await request(ctx.app, w.owner, { method: 'GET', url: `/api/v2/time_entries/${created.id}` });
    expect(res.body).toBe(got.body);
    expect(res.headers.etag).toBe(got.headers.etag);
    expect(created).toMatchObject({ hours: 2.5, started_time: '09:15', ended_time: '11:45', notes: payload.notes, source: 'cli' });
    expect(created).toHaveProperty('billable_rate');
  });

  it('an Idempotency-Key replays the create (the statement inside the request’s transaction)', async () => {
    const key = `create-${newId()}`;
    const before = await stored();
    const first = await request(ctx.app, w.member, { method: 'POST', url: '/api/v2/time_entries', payload: body(), headers: { 'idempotency-key': key } });
    const again = await request(ctx.app, w.member, { method: 'POST', url: '/api/v2/time_entries', payload: body(), headers: { 'idempotency-key': key } });
    expect(first.statusCode, first.body).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await stored()).toBe(before + 1);
    const refusedKey = `refused-${newId()}`;
    const bad = await request(ctx.app, w.member, { method: 'POST', url: '/api/v2/time_entries', payload: body({ project_id: newId() }), headers: { 'idempotency-key': refusedKey } });
    expect(bad.statusCode).toBe(400);
    expect(await stored()).toBe(before + 1);
  });
});

describe('races', () => {
  it('50 parallel creates and an approval of that week: nothing unapproved is left in an approved week', async () => {
    const person = await freshPerson(ctx.db, w);
    const wk = nextWeek();
    expect((await postEntry(ctx.app, person, body({ spent_date: wk.mon }))).statusCode).toBe(201);
    expect((await submitAs(ctx.app, person, wk.period)).statusCode).toBe(200);
    const creates = Array.from({ length: 50 }, (_, i) => postEntry(ctx.app, person, body({ spent_date: i % 2 ? wk.tue : wk.wed, hours: 0.25 })));
    const approval = approveAs(ctx.app, w.owner, { user_id: person.userId, ...wk.period });
    const results = await Promise.all(creates);
    const approved = await approval;
    for (const r of results) {
      if (r.statusCode !== 201) expect([409], r.body).toContain(r.statusCode);
      if (r.statusCode === 409) expect(['conflict', 'approved_timesheet_week_locked']).toContain(r.json().error);
    }
    expect([200, 409]).toContain(approved.statusCode);
    const rows = await ctx.db
      .selectFrom('time_entries')
      .select(['approval_status'])
      .where('company_id', '=', w.companyId)
      .where('user_id', '=', person.userId)
      .where('spent_date', '>=', wk.mon)
      .where('spent_date', '<=', wk.sun)
      .execute();
    const statuses = rows.map((r) => r.approval_status);
    if (statuses.includes('approved')) expect(statuses.every((s) => s === 'approved'), JSON.stringify(statuses)).toBe(true);
    else expect(approved.statusCode).toBe(409);
    // Each 201 is one stored entry (plus the submitted one).
    expect(rows.length).toBe(1 + results.filter((r) => r.statusCode === 201).length);
    // After an approval, the week refuses creates.
    if (approved.statusCode === 200) {
      await refused(person, body({ spent_date: wk.tue }), 409, 'approved_timesheet_week_locked');
    }
  });

  it('parallel timer starts of one person: one wins, the others are 409 running_timer_conflict', async () => {
    const person = await freshPerson(ctx.db, w);
    const results = await Promise.all(Array.from({ length: 20 }, () => postEntry(ctx.app, person, { project_id: w.project, task_id: w.task, is_running: true })));
    const won = results.filter((r) => r.statusCode === 201);
    expect(won).toHaveLength(1);
    for (const r of results) if (r.statusCode !== 201) expect(r.json()).toMatchObject({ error: 'running_timer_conflict', running_entry: { id: won[0].json().id } });
    // Completed creates do not count as timers.
    expect((await postEntry(ctx.app, person, body())).statusCode).toBe(201);
  });

});
