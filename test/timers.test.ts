import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import type { DB } from '../src/db/types.ts';
import { newId } from '../src/ids.ts';
import {
  DATABASE_URL,
  TestClock,
  addMember,
  createTestContext,
  onPostgres,
  openTestDatabase,
  request,
  type Caller,
  type TestContext,
} from './helpers.ts';
import {
  ENTRY_FULL_KEYS,
  assignUser,
  insertEntryRow,
  makeTimeWorkspace,
  patchEntry,
  postEntry,
  setNow,
  setWorkspace,
  type TimeWorkspace,
} from './fixtures/catalog.ts';

/**
 * Live timers: the state machine of the spec (start, conflict, replace, stop,
 * restart), the timer's clock and date rules, and the one-running-timer-per-person
 * guarantee under concurrency (one app, and two app instances on one PostgreSQL).
 */

let ctx: TestContext;
let w: TimeWorkspace;

// 2026-06-10 12:00:30 UTC is 08:00:30 in New York (EDT, UTC-4).
const NOW = '2026-06-10T12:00:30.000Z';
const ZONE = 'America/New_York';

beforeAll(async () => {
  ctx = await createTestContext();
  setNow(ctx.clock, NOW);
  w = await makeTimeWorkspace(ctx.db, { timezone: ZONE });
});
afterAll(() => ctx.close());

/** A fresh person on the main project, so each test has its own timers. */
async function person(role: 'member' | 'manager' = 'member') {
  const p = await addMember(ctx.db, w.companyId, { role });
  await assignUser(ctx.db, w.companyId, w.project, p.userId);
  return p;
}
const start = (caller: Caller, extra: Record<string, unknown> = {}) =>
  postEntry(ctx.app, caller, { project_id: w.project, task_id: w.task, is_running: true, ...extra });
const get = (caller: Caller, id: string) => request(ctx.app, caller, { method: 'GET', url: `/api/v2/time_entries/${id}` });
const stop = (caller: Caller, id: string, payload?: unknown) => patchEntry(ctx.app, caller, id, payload, '/stop');
const restart = (caller: Caller, id: string, payload?: unknown) => patchEntry(ctx.app, caller, id, payload, '/restart');
const runningOf = (db: Kysely<DB>, userId: string) =>
  db.selectFrom('time_entries').select(['id']).where('user_id', '=', userId).where('is_running', '=', true).execute();

function expectError(res: { statusCode: number; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  const b = res.json();
  expect(b.error).toBe(error);
  if (field !== undefined) expect(b.field).toBe(field);
  return b;
}

/** The spec's running timer conflict body, field by field and nothing else. */
function expectRunningConflict(res: { statusCode: number; json(): any }, runningId: string) {
  expect(res.statusCode).toBe(409);
  const b = res.json();
  expect(Object.keys(b).sort()).toEqual(['error', 'error_description', 'message', 'running_entry', 'running_entry_count']);
  expect(b.error).toBe('running_timer_conflict');
  expect(typeof b.error_description).toBe('string');
  expect(b.error_description.length).toBeGreaterThan(10);
  expect(b.message).toBe(b.error_description);
  expect(b.running_entry).toEqual({ id: runningId });
  expect(b.running_entry_count).toBe(1);
  expect(Number.isInteger(b.running_entry_count)).toBe(true);
}

describe('starting a timer', () => {
  it('defaults spent_date and started_time to now in the workspace zone', async () => {
    const p = await person();
    const res = await start(p);
    expect(res.statusCode).toBe(201);
    const e = res.json();
    expect(Object.keys(e)).toEqual(ENTRY_FULL_KEYS);
    expect(e).toMatchObject({
      spent_date: '2026-06-10',
      started_time: '08:00',
      ended_time: null,
      is_running: true,
      timer_started_at: NOW,
      hours: 0,
      duration_seconds: 0,
      rounded_hours: 0,
    });
  });

  it('shows the time so far on every read (the app clock), rounded per the workspace', async () => {
    const p = await person();
    const e = (await start(p)).json();
    ctx.clock.advance(30 * 60_000);
    expect((await get(p, e.id)).json()).toMatchObject({ is_running: true, hours: 0.5, duration_seconds: 1800, rounded_hours: 0.5 });
    const listed = (await request(ctx.app, p, { method: 'GET', url: '/api/v2/time_entries?is_running=true' })).json();
    expect(listed.time_entries[0]).toMatchObject({ id: e.id, duration_seconds: 1800 });
    const rounding = await makeTimeWorkspace(ctx.db, { name: 'Rounded timers' });
    await setWorkspace(ctx.db, rounding.companyId, { rounding: 'up', rounding_minutes: 15 });
    const t = (await postEntry(ctx.app, rounding.member, { project_id: rounding.project, task_id: rounding.task, is_running: true })).json();
    ctx.clock.advance(61_000);
    expect((await get(rounding.member, t.id)).json()).toMatchObject({ duration_seconds: 61, rounded_hours: 0.25 });
    setNow(ctx.clock, NOW);
  });

  it('takes a started_time within a minute of now; refuses the future', async () => {
    const p = await person();
    const e = (await start(p, { started_time: '08:01', spent_date: '2026-06-10' })).json();
    expect(e).toMatchObject({ started_time: '08:01', timer_started_at: NOW }); // never starts after now
    await stop(p, e.id);
    const prev = (await start(p, { started_time: '07:59' })).json();
    expect(prev.timer_started_at).toBe('2026-06-10T11:59:00.000Z');
    await stop(p, prev.id);
    expectError(await start(p, { started_time: '08:02' }), 400, 'invalid_request', 'started_time');
    expectError(await start(p, { spent_date: '2026-06-11' }), 400, 'invalid_request', 'spent_date');
    expectError(await start(p, { spent_date: '2026-06-11', started_time: '00:00' }), 400, 'invalid_request', 'spent_date');
  });

  it('a start in the past needs allow_past_timer_starts', async () => {
    const p = await person();
    const b = expectError(await start(p, { started_time: '07:00' }), 400, 'invalid_request', 'started_time');
    expect(b.error_description).toMatch(/allow_past_timer_starts/);
    expectError(await start(p, { spent_date: '2026-06-09' }), 400, 'invalid_request', 'spent_date');
    await setWorkspace(ctx.db, w.companyId, { allow_past_timer_starts: true });
    try {
      const early = (await start(p, { started_time: '07:00' })).json();
      expect(early).toMatchObject({ started_time: '07:00', timer_started_at: '2026-06-10T11:00:00.000Z', duration_seconds: 3630 });
      await stop(p, early.id);
      const yesterday = (await start(p, { spent_date: '2026-06-09' })).json();
      expect(yesterday).toMatchObject({ spent_date: '2026-06-09', started_time: null, timer_started_at: NOW, duration_seconds: 0 });
      await stop(p, yesterday.id);
      const lateYesterday = (await start(p, { spent_date: '2026-06-09', started_time: '22:00' })).json();
      expect(lateYesterday.duration_seconds).toBe(10 * 3600 + 30);
      await stop(p, lateYesterday.id);
      // more than 24 hours back is allowed too: the spec bounds only the future
      const dayBefore = (await start(p, { spent_date: '2026-06-09', started_time: '07:00' })).json();
      expect(dayBefore).toMatchObject({ spent_date: '2026-06-09', started_time: '07:00', timer_started_at: '2026-06-09T11:00:00.000Z' });
      await stop(p, dayBefore.id);
      // an earlier date without a time counts from now
      const older = await start(p, { spent_date: '2026-06-01' });
      expect(older.json()).toMatchObject({ spent_date: '2026-06-01', timer_started_at: NOW });
    } finally {
      await setWorkspace(ctx.db, w.companyId, { allow_past_timer_starts: false });
    }
  });

  it('a timer may start days back with the setting (400 without, future still 400); stopping it records 24 hours on its start date', async () => {
    const p = await person();
    const threeDaysBack = { spent_date: '2026-06-07', started_time: '09:15' };
    const refused = expectError(await start(p, threeDaysBack), 400, 'invalid_request', 'spent_date');
    expect(refused.error_description).toMatch(/allow_past_timer_starts/);
    await setWorkspace(ctx.db, w.companyId, { allow_past_timer_starts: true });
    try {
      expectError(await start(p, { spent_date: '2026-06-11', started_time: '09:15' }), 400, 'invalid_request', 'spent_date');
      expectError(await start(p, { started_time: '08:02' }), 400, 'invalid_request', 'started_time');
      const res = await start(p, threeDaysBack);
      expect(res.statusCode, res.body).toBe(201);
      const e = res.json();
      // 2026-06-07 09:15 in New York is 13:15 UTC; the run so far is over 24 hours, shown as the 24-hour maximum
      expect(e).toMatchObject({ spent_date: '2026-06-07', started_time: '09:15', timer_started_at: '2026-06-07T13:15:00.000Z', is_running: true, hours: 24, duration_seconds: 86400 });
      ctx.clock.advance(2 * 3600_000);
      const stopped = await stop(p, e.id, { notes: 'long run' });
      expect(stopped.statusCode, stopped.body).toBe(200);
      // the whole entry stays on its start date, at most 24 hours (the column's and hours' bound); it
      // ended on a later date, so it keeps no times (09:15–09:15 is no span of one date)
      expect(stopped.json()).toMatchObject({ id: e.id, spent_date: '2026-06-07', is_running: false, timer_started_at: null, hours: 24, duration_seconds: 86400, started_time: null, ended_time: null, notes: 'long run' });
      expect((await get(p, e.id)).json()).toMatchObject({ spent_date: '2026-06-07', hours: 24, is_running: false });
      // and it can be edited down like any entry
      expect((await patchEntry(ctx.app, p, e.id, { hours: 7.5 })).json()).toMatchObject({ hours: 7.5, duration_seconds: 27000 });
    } finally {
      await setWorkspace(ctx.db, w.companyId, { allow_past_timer_starts: false });
      setNow(ctx.clock, NOW);
    }
  });

  it('refuses hours, ended_time and a lone replace_running', async () => {
    const p = await person();
    expectError(await start(p, { hours: 1 }), 400, 'invalid_request', 'hours');
    expectError(await start(p, { ended_time: '09:00' }), 400, 'invalid_request', 'ended_time');
    expectError(
      await postEntry(ctx.app, p, { project_id: w.project, task_id: w.task, spent_date: '2026-06-10', hours: 1, replace_running: true }),
      400,
      'invalid_request',
      'replace_running',
    );
    expectError(await start(p, { is_running: 'true' }), 400, 'invalid_request', 'is_running');
    expectError(await start(p, { replace_running: 1 }), 400, 'invalid_request', 'replace_running');
    expect(await runningOf(ctx.db, p.userId)).toHaveLength(0);
  });

  it('the week lock applies to timers', async () => {
    const p = await person();
    await insertEntryRow(ctx.db, w.companyId, { userId: p.userId, projectId: w.project, taskId: w.task, spentDate: '2026-06-08', approval: 'approved' });
    expectError(await start(p), 409, 'approved_timesheet_week_locked');
  });

  it('a timer running when its week locks (an approval of another project of that week) can still be stopped, then neither restarted nor deleted', async () => {
    const p = await person();
    const e = (await start(p)).json();
    await insertEntryRow(ctx.db, w.companyId, { userId: p.userId, projectId: w.project, taskId: w.task, spentDate: '2026-06-08', approval: 'approved' });
    ctx.clock.advance(600_000);
    const locked = { week_start: '2026-06-08', week_end: '2026-06-14' };
    expect(expectError(await request(ctx.app, p, { method: 'DELETE', url: `/api/v2/time_entries/${e.id}` }), 409, 'approved_timesheet_week_locked')).toMatchObject(locked);
    // the run in progress is recorded: a timer is always stoppable, else it would run on, unstoppable and undeletable, until a withdrawal
    expect((await stop(p, e.id)).json()).toMatchObject({ is_running: false, duration_seconds: 600 });
    expect(expectError(await restart(p, e.id), 409, 'approved_timesheet_week_locked')).toMatchObject(locked);
    expect(expectError(await patchEntry(ctx.app, p, e.id, { notes: 'x' }), 409, 'approved_timesheet_week_locked')).toMatchObject(locked);
    setNow(ctx.clock, NOW);
  });
});

describe('one running timer per person', () => {
  it('a second start is 409 running_timer_conflict with exactly the spec body', async () => {
    const p = await person();
    const first = (await start(p)).json();
    expectRunningConflict(await start(p), first.id);
    expectRunningConflict(await start(p, { replace_running: false }), first.id);
    expect(await runningOf(ctx.db, p.userId)).toEqual([{ id: first.id }]);
    // others may run their own timers meanwhile
    const q = await person();
    expect((await start(q)).statusCode).toBe(201);
  });

  it('replace_running stops the running timer first, in the same transaction', async () => {
    const p = await person();
    const first = (await start(p, { notes: 'first' })).json();
    ctx.clock.advance(20 * 60_000);
    const second = await start(p, { replace_running: true, notes: 'second' });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ is_running: true, started_time: '08:20' });
    const stopped = (await get(p, first.id)).json();
    expect(stopped).toMatchObject({ is_running: false, timer_started_at: null, duration_seconds: 1200, hours: 0.333333, ended_time: '08:20' });
    expect(await runningOf(ctx.db, p.userId)).toEqual([{ id: second.json().id }]);
    setNow(ctx.clock, NOW);
  });

  it('an administrator starting a timer for someone meets that person’s timer', async () => {
    const p = await person();
    const mine = (await start(p)).json();
    expectRunningConflict(await start(w.admin, { user_id: p.userId }), mine.id);
    const replaced = await start(w.admin, { user_id: p.userId, replace_running: true });
    expect(replaced.statusCode).toBe(201);
    expect(replaced.json().user_id).toBe(p.userId);
    expect((await get(p, mine.id)).json().is_running).toBe(false);
  });

  it('50 simultaneous starts leave exactly one running timer', async () => {
    const p = await person();
    const results = await Promise.all(Array.from({ length: 50 }, () => start(p)));
    const created = results.filter((r) => r.statusCode === 201);
    expect(created).toHaveLength(1);
    const runningId = created[0].json().id;
    for (const r of results.filter((x) => x.statusCode !== 201)) expectRunningConflict(r, runningId);
    expect(await runningOf(ctx.db, p.userId)).toEqual([{ id: runningId }]);
  });

  it('50 simultaneous starts with replace_running all start, each stopping the one before: exactly one runs', async () => {
    const p = await person();
    const results = await Promise.all(Array.from({ length: 50 }, () => start(p, { replace_running: true })));
    // The spec: with replace_running the other timer is stopped first; the 409 is only for starts without it.
    for (const r of results) expect(r.statusCode, r.body).toBe(201);
    const running = await runningOf(ctx.db, p.userId);
    expect(running).toHaveLength(1);
    const stopped = await ctx.db.selectFrom('time_entries').select('id').where('user_id', '=', p.userId).where('is_running', '=', false).execute();
    expect(stopped).toHaveLength(49);
  });

  it('simultaneous restarts of different entries leave exactly one running', async () => {
    const p = await person();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const e = (await postEntry(ctx.app, p, { project_id: w.project, task_id: w.task, spent_date: '2026-06-10', hours: 0.5 })).json();
      ids.push(e.id);
    }
    const results = await Promise.all(ids.map((id) => restart(p, id)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(await runningOf(ctx.db, p.userId)).toHaveLength(1);
  });
});

describe('stop', () => {
  it('measures the run on the server and sets ended_time; accepts no body, an empty JSON body, {} and {notes}', async () => {
    const p = await person();
    const variants: Array<{ payload?: unknown; headers?: Record<string, string>; notes?: string | null }> = [
      {},
      { payload: '', headers: { 'content-type': 'application/json' } },
      { payload: {} },
      { payload: { notes: 'finished the parser' }, notes: 'finished the parser' },
      { payload: { notes: null }, notes: null },
    ];
    for (const v of variants) {
      setNow(ctx.clock, NOW);
      const e = (await start(p, { notes: 'working' })).json();
      ctx.clock.advance(45 * 60_000 + 10_000);
      const res = await request(ctx.app, p, {
        method: 'PATCH',
        url: `/api/v2/time_entries/${e.id}/stop`,
        ...(v.payload !== undefined ? { payload: v.payload as string } : {}),
        headers: v.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        is_running: false,
        timer_started_at: null,
        duration_seconds: 2710,
        hours: 0.752778,
        started_time: '08:00',
        ended_time: '08:45',
        notes: v.notes === undefined ? 'working' : v.notes,
      });
      expect(res.json().updated_at).toBe(ctx.clock.now().toISOString());
    }
    setNow(ctx.clock, NOW);
  });

  it('refuses a body that is not UTF-8 (400 invalid_json) and leaves the timer running', async () => {
    const p = await person();
    const e = (await start(p, { notes: 'working' })).json();
    const res = await request(ctx.app, p, { method: 'PATCH', url: `/api/v2/time_entries/${e.id}/stop`, payload: Buffer.from('{"notes":"fertig f\xfcr heute"}', 'latin1'), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_json');
    expect((await request(ctx.app, p, { method: 'GET', url: `/api/v2/time_entries/${e.id}` })).json()).toMatchObject({ is_running: true, notes: 'working' });
    await stop(p, e.id);
  });

  it('refuses hours, ended_time and is_running (the server measures); unknown fields', async () => {
    const p = await person();
    const e = (await start(p)).json();
    for (const [field, value] of [['hours', 1], ['ended_time', '09:00'], ['is_running', false], ['started_time', '07:00']] as const) {
      const b = expectError(await stop(p, e.id, { [field]: value }), 400, 'invalid_request', field);
      expect(b.error_description).toMatch(/server measures/);
    }
    expectError(await stop(p, e.id, { foo: 1 }), 400, 'unknown_field', 'foo');
    expectError(await stop(p, e.id, { notes: 5 }), 400, 'invalid_request', 'notes');
    expectError(await stop(p, e.id, [1]), 400, 'invalid_request');
    expect((await get(p, e.id)).json().is_running).toBe(true);
  });

  it('409 timer_not_running when the entry is not running', async () => {
    const p = await person();
    const e = (await start(p)).json();
    expect((await stop(p, e.id)).statusCode).toBe(200);
    expectError(await stop(p, e.id), 409, 'timer_not_running');
    const done = (await postEntry(ctx.app, p, { project_id: w.project, task_id: w.task, spent_date: '2026-06-10', hours: 1 })).json();
    expectError(await stop(p, done.id), 409, 'timer_not_running');
  });

  it('a forgotten timer stops at 24 hours, the longest entry', async () => {
    const p = await person();
    const e = (await start(p)).json();
    ctx.clock.advance(30 * 3600_000);
    expect((await get(p, e.id)).json()).toMatchObject({ duration_seconds: 86400, hours: 24 });
    expect((await stop(p, e.id)).json()).toMatchObject({ duration_seconds: 86400, hours: 24, started_time: null, ended_time: null }); // the 24 hours ended on the next date
    setNow(ctx.clock, NOW);
  });

  it('a timer stopped past midnight keeps its hours on its start date, without times, and stays editable', async () => {
    const p = await person();
    setNow(ctx.clock, '2026-06-10T02:00:00.000Z'); // 22:00 on 2026-06-09 in New York
    try {
      const e = (await start(p, { notes: 'late' })).json();
      expect(e).toMatchObject({ spent_date: '2026-06-09', started_time: '22:00' });
      ctx.clock.advance(3 * 3600_000 + 30 * 60_000); // 01:30 on 2026-06-10
      const stopped = await stop(p, e.id);
      expect(stopped.statusCode, stopped.body).toBe(200);
      // Not 22:00–01:30: an end before the start, which every later edit would refuse.
      expect(stopped.json()).toMatchObject({ spent_date: '2026-06-09', hours: 3.5, started_time: null, ended_time: null });
      expect((await patchEntry(ctx.app, p, e.id, { notes: 'late, fixed' })).json()).toMatchObject({ notes: 'late, fixed', hours: 3.5 });
      expectError(await patchEntry(ctx.app, p, e.id, { started_time: '22:15' }), 400, 'invalid_request', 'ended_time');
      // A run on one date keeps both times.
      const same = (await start(p, { notes: 'morning' })).json();
      ctx.clock.advance(3600_000);
      expect((await stop(p, same.id)).json()).toMatchObject({ spent_date: '2026-06-10', started_time: '01:30', ended_time: '02:30', hours: 1 });
    } finally {
      setNow(ctx.clock, NOW);
    }
  });

  it('follows the write rules: teammates’ managers yes, others 404, personal keys 403', async () => {
    const e = (await start(w.member)).json();
    expectError(await stop(w.other, e.id), 404, 'not_found');
    expectError(await stop(w.mgrPlain, e.id), 404, 'not_found');
    expectError(await stop(w.memberPersonal, e.id), 403, 'forbidden');
    expect((await stop(w.manager, e.id)).statusCode).toBe(200);
    expectError(await stop(w.member, newId()), 404, 'not_found');
    expectError(await stop(w.member, 'nope'), 404, 'not_found');
  });
});

describe('restart', () => {
  it('continues the entry from now, keeping its time so far and its started_time while it runs', async () => {
    const p = await person();
    const e = (await start(p)).json();
    ctx.clock.advance(30 * 60_000);
    await stop(p, e.id);
    ctx.clock.advance(60 * 60_000);
    const res = await restart(p, e.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ is_running: true, duration_seconds: 1800, started_time: '08:00', ended_time: null });
    expect(res.json().timer_started_at).toBe(ctx.clock.now().toISOString());
    ctx.clock.advance(15 * 60_000);
    expect((await get(p, e.id)).json().duration_seconds).toBe(2700);
    // 08:00 to 09:45 would span the hour's pause too: the entry keeps its 0.75 hours without times.
    expect((await stop(p, e.id)).json()).toMatchObject({ duration_seconds: 2700, hours: 0.75, started_time: null, ended_time: null });
    setNow(ctx.clock, NOW);
  });

  it('restarts an entry recorded in hours from its hours', async () => {
    const p = await person();
    const e = (await postEntry(ctx.app, p, { project_id: w.project, task_id: w.task, spent_date: '2026-06-10', hours: 1.5 })).json();
    const res = await restart(p, e.id, { replace_running: false });
    expect(res.json()).toMatchObject({ is_running: true, duration_seconds: 5400, started_time: '08:00' });
    ctx.clock.advance(600_000);
    expect((await stop(p, e.id)).json()).toMatchObject({ hours: 1.666667, duration_seconds: 6000, started_time: null, ended_time: null });
    setNow(ctx.clock, NOW);
  });

  it('409 running_timer_conflict with running_entry while another runs; replace_running stops it', async () => {
    const p = await person();
    const done = (await postEntry(ctx.app, p, { project_id: w.project, task_id: w.task, spent_date: '2026-06-10', hours: 1 })).json();
    const running = (await start(p)).json();
    expectRunningConflict(await restart(p, done.id), running.id);
    expectRunningConflict(await restart(p, done.id, { replace_running: false }), running.id);
    ctx.clock.advance(60_000);
    const res = await restart(p, done.id, { replace_running: true });
    expect(res.statusCode).toBe(200);
    expect((await get(p, running.id)).json()).toMatchObject({ is_running: false, duration_seconds: 60 });
    expect(await runningOf(ctx.db, p.userId)).toEqual([{ id: done.id }]);
    setNow(ctx.clock, NOW);
  });

  it('409 for a running entry, an approved or billed one, and one holding 24 hours; 400 for bad bodies', async () => {
    const p = await person();
    const running = (await start(p)).json();
    expectError(await restart(p, running.id), 409, 'timer_already_running');
    await stop(p, running.id);
    const full = (await postEntry(ctx.app, p, { project_id: w.project, task_id: w.task, spent_date: '2026-06-10', hours: 24 })).json();
    expectError(await restart(p, full.id), 409, 'conflict');
    const approved = await insertEntryRow(ctx.db, w.companyId, { userId: p.userId, projectId: w.project, taskId: w.task, spentDate: '2026-06-10', approval: 'approved' });
    expectError(await restart(p, approved), 409, 'approved_timesheet_week_locked');
    await ctx.db.updateTable('time_entries').set({ approval_status: 'unsubmitted' }).where('id', '=', approved).execute();
    await ctx.db.updateTable('time_entries').set({ is_billed: true }).where('id', '=', approved).execute();
    expect(expectError(await restart(p, approved), 409, 'time_entry_locked').reason).toBe('billed');
    expectError(await restart(p, running.id, { replace_running: 'yes' }), 400, 'invalid_request', 'replace_running');
    expectError(await restart(p, running.id, { notes: 'x' }), 400, 'unknown_field', 'notes');
    expect(await runningOf(ctx.db, p.userId)).toHaveLength(0);
  });

  it('past dates need allow_past_timer_starts; future dates are refused', async () => {
    const p = await person();
    const yesterday = (await postEntry(ctx.app, p, { project_id: w.project, task_id: w.task, spent_date: '2026-06-09', hours: 1 })).json();
    const tomorrow = (await postEntry(ctx.app, p, { project_id: w.project, task_id: w.task, spent_date: '2026-06-11', hours: 1 })).json();
    expectError(await restart(p, yesterday.id), 400, 'invalid_request', 'spent_date');
    expectError(await restart(p, tomorrow.id), 400, 'invalid_request', 'spent_date');
    await setWorkspace(ctx.db, w.companyId, { allow_past_timer_starts: true });
    try {
      expect((await restart(p, yesterday.id)).json()).toMatchObject({ is_running: true, spent_date: '2026-06-09', started_time: null });
    } finally {
      await setWorkspace(ctx.db, w.companyId, { allow_past_timer_starts: false });
    }
  });

  it('follows the write rules', async () => {
    const e = (await postEntry(ctx.app, w.other, { project_id: w.project, task_id: w.task, spent_date: '2026-06-10', hours: 1 })).json();
    expectError(await restart(w.member, e.id), 404, 'not_found');
    expectError(await restart(w.memberPersonal, e.id), 403, 'forbidden');
    expect((await restart(w.admin, e.id)).statusCode).toBe(200);
    expect((await stop(w.admin, e.id)).statusCode).toBe(200);
  });
});

describe('PATCH of a running timer', () => {
  it('changes notes, task and project but not its date or duration', async () => {
    const p = await person();
    const e = (await start(p)).json();
    expect((await patchEntry(ctx.app, p, e.id, { notes: 'still going' })).json()).toMatchObject({ notes: 'still going', is_running: true });
    for (const [field, value] of [['hours', 1], ['ended_time', '10:00'], ['started_time', '07:00'], ['spent_date', '2026-06-09']] as const) {
      expectError(await patchEntry(ctx.app, p, e.id, { [field]: value }), 400, 'invalid_request', field);
    }
    expectError(await patchEntry(ctx.app, p, e.id, { is_running: false }), 400, 'invalid_request', 'is_running');
  });

  it('a running timer can be deleted', async () => {
    const p = await person();
    const e = (await start(p)).json();
    expect((await request(ctx.app, p, { method: 'DELETE', url: `/api/v2/time_entries/${e.id}` })).statusCode).toBe(204);
    expect((await start(p)).statusCode).toBe(201);
  });
});

describe('feature tokens', () => {
  it('X-Service-Features names timer-stop and timer-restart', async () => {
    const res = await request(ctx.app, w.member, { method: 'GET', url: '/api/v2/time_entries' });
    const tokens = String(res.headers['x-service-features']).split(',').map((t) => t.trim());
    expect(tokens).toEqual(expect.arrayContaining(['timer-stop', 'timer-restart']));
  });
});

describe.runIf(onPostgres)('two app instances on one PostgreSQL', () => {
  let apps: FastifyInstance[] = [];
  let closeAll: () => Promise<void>;
  let db: Kysely<DB>;
  let ws: TimeWorkspace;

  beforeAll(async () => {
    const first = await openTestDatabase();
    const second = await openDatabase({ databaseUrl: DATABASE_URL, schema: first.schema, poolSize: 20 });
    db = first.db;
    const clock = new TestClock(new Date(NOW));
    const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000' }, { clock: clock.now, dataDir: null });
    apps = [await buildApp({ config, db: first.db }), await buildApp({ config, db: second.db })];
    ws = await makeTimeWorkspace(db, { name: 'Two nodes' });
    closeAll = async () => {
      for (const app of apps) await app.close();
      await second.close();
      await first.close();
    };
  });
  afterAll(() => closeAll());

  it('50 starts split across two servers leave exactly one running timer', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        postEntry(apps[i % 2], ws.member, { project_id: ws.project, task_id: ws.task, is_running: true }),
      ),
    );
    const created = results.filter((r) => r.statusCode === 201);
    expect(created).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 201)) expectRunningConflict(r, created[0].json().id);
    expect(await runningOf(db, ws.member.userId)).toHaveLength(1);
  });

  it('50 replacing starts split across two servers leave exactly one running timer', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        postEntry(apps[i % 2], ws.other, { project_id: ws.project, task_id: ws.task, is_running: true, replace_running: true }),
      ),
    );
    for (const r of results) expect(r.statusCode, r.body).toBe(201);
    expect(await runningOf(db, ws.other.userId)).toHaveLength(1);
  });
});
