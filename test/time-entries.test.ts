import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { addMember, createTestContext, request, type Caller, type TestContext } from './helpers.ts';
import {
  ENTRY_FULL_KEYS,
  ENTRY_RATE_KEYS,
  assignTask,
  assignUser,
  expenseCategory,
  insertEntryRow,
  insertProject,
  insertRate,
  insertTask,
  makeTimeWorkspace,
  patchEntry,
  postEntry,
  setNow,
  setWorkspace,
  type TimeWorkspace,
} from './fixtures/catalog.ts';
import { operatorPrincipal } from '../src/access/operator.ts';

/**
 * Time entries: create (completed entries), read, update, delete, external
 * references, metadata, rounding, DST, rates, locks and the week lock, write
 * permissions and tenant isolation. Timers are in timers.test.ts and the list in
 * time-entries-list.test.ts.
 */

let ctx: TestContext;
let w: TimeWorkspace;
let foreign: TimeWorkspace;
let foreignEntry: string;

const NOW = '2026-06-10T10:00:00.000Z'; // a Wednesday; its week (from Monday) is 2026-06-08..14

beforeAll(async () => {
  ctx = await createTestContext();
  setNow(ctx.clock, NOW);
  w = await makeTimeWorkspace(ctx.db);
  foreign = await makeTimeWorkspace(ctx.db, { name: 'Elsewhere' });
  foreignEntry = await insertEntryRow(ctx.db, foreign.companyId, {
    userId: foreign.member.userId,
    projectId: foreign.project,
    taskId: foreign.task,
    spentDate: '2026-06-10',
  });
});
afterAll(() => ctx.close());

const body = (extra: Record<string, unknown> = {}) => ({ project_id: w.project, task_id: w.task, spent_date: '2026-06-09', hours: 1, ...extra });
const create = async (caller: Caller, extra: Record<string, unknown> = {}) => {
  const res = await postEntry(ctx.app, caller, body(extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};
const get = (caller: Caller, id: string) => request(ctx.app, caller, { method: 'GET', url: `/api/v2/time_entries/${id}` });
const del = (caller: Caller, id: string, suffix = '') => request(ctx.app, caller, { method: 'DELETE', url: `/api/v2/time_entries/${id}${suffix}` });

/** A fresh member assigned to the main project (so week locks and timers of one test never touch another's). */
async function freshMember(role: 'member' | 'manager' = 'member') {
  const person = await addMember(ctx.db, w.companyId, { role });
  await assignUser(ctx.db, w.companyId, w.project, person.userId);
  return person;
}

function expectError(res: { statusCode: number; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  const b = res.json();
  expect(b.error).toBe(error);
  expect(typeof b.error_description).toBe('string');
  expect(b.message).toBe(b.error_description);
  if (field !== undefined) expect(b.field).toBe(field);
  return b;
}

describe('create a completed entry', () => {
  it('from hours: 201 with Location and the full-access fields, hours as JSON numbers', async () => {
    const res = await postEntry(ctx.app, w.member, body({ hours: 1.5, notes: 'Wrote the parser' }));
    expect(res.statusCode).toBe(201);
    const e = res.json();
    expect(res.headers.location).toBe(`/api/v2/time_entries/${e.id}`);
    expect(Object.keys(e)).toEqual(ENTRY_FULL_KEYS);
    expect(e).toMatchObject({
      user_id: w.member.userId,
      project_id: w.project,
      task_id: w.task,
      spent_date: '2026-06-09',
      hours: 1.5,
      duration_seconds: 5400,
      rounded_hours: 1.5,
      notes: 'Wrote the parser',
      is_running: false,
      timer_started_at: null,
      started_time: null,
      ended_time: null,
      is_locked: false,
      is_closed: false,
      is_billed: false,
      billable: true,
      source: 'api',
      created_at: NOW,
      updated_at: NOW,
      external_reference: null,
      approval_status: 'unsubmitted',
      metadata: null,
      task: { id: w.task, name: 'Development' },
      budgeted: false,
    });
    expect(res.body).not.toContain('billable_amount');
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('accepts 0 and 24 hours and six decimals; refuses more, less and other types', async () => {
    const person = await freshMember();
    expect((await create(person, { hours: 0 })).hours).toBe(0);
    expect((await create(person, { hours: 24 })).duration_seconds).toBe(86400);
    const precise = await create(person, { hours: 1.333333 });
    expect(precise).toMatchObject({ hours: 1.333333, duration_seconds: 4800, rounded_hours: 1.333333 });
    for (const hours of [24.000001, 25, -1, -0.000001]) expectError(await postEntry(ctx.app, person, body({ hours })), 400, 'invalid_request', 'hours');
    expectError(await postEntry(ctx.app, person, body({ hours: 1.1234567 })), 400, 'invalid_request', 'hours');
    for (const hours of ['1.5', null, true, {}]) expectError(await postEntry(ctx.app, person, body({ hours })), 400, 'invalid_request', 'hours');
  });

  it('from started_time and ended_time in the workspace zone', async () => {
    const e = await create(w.member, { hours: undefined, started_time: '09:00', ended_time: '10:30' });
    expect(e).toMatchObject({ hours: 1.5, duration_seconds: 5400, started_time: '09:00', ended_time: '10:30' });
    // hours that agree with the span (within the minute resolution of the times) are kept as entered
    const both = await create(w.member, { hours: 1.333333, started_time: '09:00', ended_time: '10:20' });
    expect(both).toMatchObject({ hours: 1.333333, started_time: '09:00', ended_time: '10:20' });
  });

  it('refuses inconsistent or incomplete times', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ hours: undefined, started_time: '10:00', ended_time: '09:00' }, 'ended_time'],
      [{ hours: undefined, started_time: '10:00', ended_time: '10:00' }, 'ended_time'],
      [{ hours: undefined, started_time: '10:00' }, 'ended_time'],
      [{ hours: undefined, ended_time: '10:00' }, 'started_time'],
      [{ hours: 2, started_time: '09:00', ended_time: '10:30' }, 'hours'],
      [{ hours: undefined }, 'hours'],
    ];
    for (const [extra, field] of cases) expectError(await postEntry(ctx.app, w.member, body(extra)), 400, 'invalid_request', field);
    for (const t of ['9:00', '24:00', '12:60', '12:00:00', '', 'noon', 900]) {
      expectError(await postEntry(ctx.app, w.member, body({ hours: undefined, started_time: t, ended_time: '23:00' })), 400, 'invalid_request', 'started_time');
    }
  });

  it('measures started_time..ended_time across the DST change in Europe/Berlin', async () => {
    const berlin = await makeTimeWorkspace(ctx.db, { timezone: 'Europe/Berlin', name: 'Berlin' });
    const post = (extra: Record<string, unknown>) =>
      postEntry(ctx.app, berlin.member, { project_id: berlin.project, task_id: berlin.task, ...extra });
    // Spring forward on 2026-03-29: 02:00 becomes 03:00, so 01:00..04:00 is two hours.
    const spring = await post({ spent_date: '2026-03-29', started_time: '01:00', ended_time: '04:00' });
    expect(spring.statusCode).toBe(201);
    expect(spring.json()).toMatchObject({ hours: 2, duration_seconds: 7200, started_time: '01:00', ended_time: '04:00' });
    // 01:30..03:30 is one hour that day, and 1.0 hours agrees with it
    expect((await post({ spent_date: '2026-03-29', started_time: '01:30', ended_time: '03:30', hours: 1 })).statusCode).toBe(201);
    expectError(await post({ spent_date: '2026-03-29', started_time: '01:30', ended_time: '03:30', hours: 2 }), 400, 'invalid_request', 'hours');
    // The same wall-clock span the day before is three hours
    expect((await post({ spent_date: '2026-03-28', started_time: '01:00', ended_time: '04:00' })).json().duration_seconds).toBe(10800);
    // Fall back on 2026-10-25: 03:00 becomes 02:00 again, so 01:00..04:00 is four hours.
    expect((await post({ spent_date: '2026-10-25', started_time: '01:00', ended_time: '04:00' })).json()).toMatchObject({
      hours: 4,
      duration_seconds: 14400,
    });
    // That day has 25 hours: 00:00..23:59 is more than an entry holds, a 400 naming ended_time (not the column's check, a 500).
    const before = (await request(ctx.app, berlin.member, { method: 'GET', url: '/api/v2/time_entries?from=2026-10-25&to=2026-10-25' })).json().time_entries.length;
    expectError(await post({ spent_date: '2026-10-25', started_time: '00:00', ended_time: '23:59' }), 400, 'invalid_request', 'ended_time');
    const day = (await post({ spent_date: '2026-10-25', started_time: '00:00', ended_time: '01:00' })).json();
    expectError(await patchEntry(ctx.app, berlin.member, day.id, { ended_time: '23:30' }), 400, 'invalid_request', 'ended_time');
    // Moved onto a day the clocks change, the same times measure another span: the hours follow them.
    const friday = (await post({ spent_date: '2026-03-27', started_time: '01:00', ended_time: '04:00' })).json();
    expect((await patchEntry(ctx.app, berlin.member, friday.id, { spent_date: '2026-03-29' })).json()).toMatchObject({ hours: 2, duration_seconds: 7200, started_time: '01:00', ended_time: '04:00' });
    expect((await patchEntry(ctx.app, berlin.member, friday.id, { spent_date: '2026-10-25' })).json()).toMatchObject({ hours: 4, duration_seconds: 14400 });
    expect((await patchEntry(ctx.app, berlin.member, friday.id, { spent_date: '2026-03-30' })).json()).toMatchObject({ hours: 3, duration_seconds: 10800 });
    // Hours typed with the times (1.33 for 01:00..02:20) stay where the times still agree with them, and give way where they do not.
    const typed = (await post({ spent_date: '2026-03-27', started_time: '01:00', ended_time: '02:20', hours: 1.33 })).json();
    expect((await patchEntry(ctx.app, berlin.member, typed.id, { spent_date: '2026-03-28' })).json()).toMatchObject({ hours: 1.33, duration_seconds: 4788 });
    const early = (await post({ spent_date: '2026-03-27', started_time: '01:30', ended_time: '03:30', hours: 2 })).json();
    expect((await patchEntry(ctx.app, berlin.member, early.id, { spent_date: '2026-03-29' })).json()).toMatchObject({ hours: 1, duration_seconds: 3600 });
    // Times that hold no time on the new date (02:30 counts as 03:30 there, after 03:15), or more than a day, refuse the move and change nothing.
    const skipped = (await post({ spent_date: '2026-03-27', started_time: '02:30', ended_time: '03:15' })).json();
    expectError(await patchEntry(ctx.app, berlin.member, skipped.id, { spent_date: '2026-03-29' }), 400, 'invalid_request', 'started_time');
    const long = (await post({ spent_date: '2026-10-24', started_time: '00:00', ended_time: '23:59' })).json();
    expectError(await patchEntry(ctx.app, berlin.member, long.id, { spent_date: '2026-10-25' }), 400, 'invalid_request', 'ended_time');
    const unchanged = (await request(ctx.app, berlin.member, { method: 'GET', url: `/api/v2/time_entries/${long.id}` })).json();
    expect(unchanged).toMatchObject({ spent_date: '2026-10-24', duration_seconds: 86340 });
    expect((await request(ctx.app, berlin.member, { method: 'GET', url: '/api/v2/time_entries?from=2026-10-25&to=2026-10-25' })).json().time_entries).toHaveLength(before + 1);
  });

  it('measures wall-clock times in the zone the workspace has now, after a change of zone', async () => {
    const moved = await makeTimeWorkspace(ctx.db, { timezone: 'UTC', name: 'Moving' });
    const post = (extra: Record<string, unknown>) =>
      postEntry(ctx.app, moved.member, { project_id: moved.project, task_id: moved.task, ...extra });
    const span = { spent_date: '2026-03-29', started_time: '01:00', ended_time: '04:00' };
    // In UTC the span is three hours (and the server now knows the workspace's zone).
    expect((await post(span)).json()).toMatchObject({ hours: 3, duration_seconds: 10800 });
    await setWorkspace(ctx.db, moved.companyId, { timezone: 'Europe/Berlin' });
    // In Berlin it is two (spring forward), whatever zone the last create saw.
    expect((await post(span)).json()).toMatchObject({ hours: 2, duration_seconds: 7200 });
    expect((await post(span)).json()).toMatchObject({ hours: 2, duration_seconds: 7200 });
  });

  it('requires a real spent_date', async () => {
    expectError(await postEntry(ctx.app, w.member, body({ spent_date: undefined })), 400, 'invalid_request', 'spent_date');
    for (const d of ['2026-02-30', '2026/06/01', '20260601', '', 'today', 20260601]) {
      expectError(await postEntry(ctx.app, w.member, body({ spent_date: d })), 400, 'invalid_request', 'spent_date');
    }
  });

  it('takes source from the allowed list (default api), never anything else', async () => {
    for (const source of ['web', 'cli', 'api', 'agent', 'calendar', 'desktop']) expect((await create(w.member, { source })).source).toBe(source);
    for (const source of ['phone', '', 'API', null]) expectError(await postEntry(ctx.app, w.member, body({ source })), 400, 'invalid_request', 'source');
  });

  it('keeps notes as written, blank as null, at most 10,000 characters', async () => {
    expect((await create(w.member, { notes: '  ' })).notes).toBeNull();
    expect((await create(w.member, { notes: null })).notes).toBeNull();
    expect((await create(w.member, { notes: ' a\nb ' })).notes).toBe(' a\nb ');
    expect((await create(w.member, { notes: 'x'.repeat(10_000) })).notes).toHaveLength(10_000);
    expectError(await postEntry(ctx.app, w.member, body({ notes: 'x'.repeat(10_001) })), 400, 'invalid_request', 'notes');
    expectError(await postEntry(ctx.app, w.member, body({ notes: 'a\u0000b' })), 400, 'invalid_request', 'notes');
    expectError(await postEntry(ctx.app, w.member, body({ notes: 5 })), 400, 'invalid_request', 'notes');
  });

  it('stores metadata objects of at most 4 KB', async () => {
    const metadata = { ticket: 'T-1', nested: { n: [1, 2, 3] }, flag: true };
    expect((await create(w.member, { metadata })).metadata).toEqual(metadata);
    const fits = { k: 'x'.repeat(4096 - '{"k":""}'.length) };
    expect((await create(w.member, { metadata: fits })).metadata).toEqual(fits);
    expectError(await postEntry(ctx.app, w.member, body({ metadata: { k: `${fits.k}x` } })), 400, 'invalid_request', 'metadata');
    for (const metadata of [[1], 'x', 3, true]) expectError(await postEntry(ctx.app, w.member, body({ metadata })), 400, 'invalid_request', 'metadata');
    expect((await create(w.member, { metadata: null })).metadata).toBeNull();
  });

  it('refuses unknown and read-only fields (strict body) and non-JSON bodies', async () => {
    for (const field of ['foo', 'id', 'is_billed', 'billable_rate', 'approval_status', 'created_at', 'duration_seconds']) {
      expectError(await postEntry(ctx.app, w.member, body({ [field]: 1 })), 400, 'unknown_field', field);
    }
    const text = await request(ctx.app, w.member, { method: 'POST', url: '/api/v2/time_entries', payload: 'x', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);
    expectError(await postEntry(ctx.app, w.member, { task_id: w.task, spent_date: '2026-06-09', hours: 1 }), 400, 'invalid_request', 'project_id');
    expectError(await postEntry(ctx.app, w.member, { project_id: w.project, spent_date: '2026-06-09', hours: 1 }), 400, 'invalid_request', 'task_id');
  });

  it('replays a create with the same Idempotency-Key', async () => {
    const person = await freshMember();
    const headers = { 'idempotency-key': `te-${newId()}` };
    const first = await request(ctx.app, person, { method: 'POST', url: '/api/v2/time_entries', payload: body(), headers });
    const again = await request(ctx.app, person, { method: 'POST', url: '/api/v2/time_entries', payload: body(), headers });
    expect(first.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const count = await ctx.db.selectFrom('time_entries').select('id').where('user_id', '=', person.userId).execute();
    expect(count).toHaveLength(1);
  });
});

describe('project, task and person of an entry', () => {
  it('refuses projects the caller cannot use with one 400 on project_id', async () => {
    const unassigned = await insertProject(ctx.db, w.companyId, w.clientId);
    await assignTask(ctx.db, w.companyId, unassigned, w.task);
    for (const project_id of [newId(), 'not-an-id', foreign.project, unassigned]) {
      const b = expectError(await postEntry(ctx.app, w.member, body({ project_id })), 400, 'invalid_request', 'project_id');
      expect(b.error_description).toBe('project_id must be a project of this workspace that you can see.');
    }
  });

  it('owners and administrators record their own time on any active project, assigned or not', async () => {
    const unassigned = await insertProject(ctx.db, w.companyId, w.clientId);
    await assignTask(ctx.db, w.companyId, unassigned, w.task);
    for (const caller of [w.owner, w.admin]) {
      const e = await create(caller, { project_id: unassigned, spent_date: '2026-06-02' });
      expect(e).toMatchObject({ user_id: caller.userId, project_id: unassigned });
      // Moving an entry onto an unassigned project is the same rule.
      const moved = await create(caller, { spent_date: '2026-06-02' });
      const res = await patchEntry(ctx.app, caller, moved.id, { project_id: unassigned });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().project_id).toBe(unassigned);
    }
    // Still an active project with the task actively assigned.
    const archived = await insertProject(ctx.db, w.companyId, w.clientId, { isActive: false });
    await assignTask(ctx.db, w.companyId, archived, w.task);
    expectError(await postEntry(ctx.app, w.admin, body({ project_id: archived })), 400, 'invalid_request', 'project_id');
    const noTask = await insertProject(ctx.db, w.companyId, w.clientId);
    expectError(await postEntry(ctx.app, w.owner, body({ project_id: noTask })), 400, 'invalid_request', 'task_id');
    // An administrator's personal sync key never writes.
    expectError(await postEntry(ctx.app, w.adminPersonal, body({ project_id: unassigned })), 403, 'forbidden');
  });

  it('the owner records time on a project they just created through the API', async () => {
    const created = await request(ctx.app, w.owner, {
      method: 'POST',
      url: '/api/v2/projects',
      payload: { client_id: w.clientId, name: `Fresh ${newId()}`, task_ids: [w.task] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const e = await create(w.owner, { project_id: created.json().id, spent_date: '2026-06-03' });
    expect(e.project_id).toBe(created.json().id);
  });

  it('refuses archived projects and inactive assignments', async () => {
    const archived = await insertProject(ctx.db, w.companyId, w.clientId, { isActive: false });
    await assignTask(ctx.db, w.companyId, archived, w.task);
    await assignUser(ctx.db, w.companyId, archived, w.member.userId);
    expect(expectError(await postEntry(ctx.app, w.member, body({ project_id: archived })), 400, 'invalid_request', 'project_id').error_description).toMatch(/archived/);
    const left = await insertProject(ctx.db, w.companyId, w.clientId);
    await assignTask(ctx.db, w.companyId, left, w.task);
    await assignUser(ctx.db, w.companyId, left, w.member.userId, { active: false });
    expectError(await postEntry(ctx.app, w.member, body({ project_id: left })), 400, 'invalid_request', 'project_id');
  });

  it('needs a task actively assigned to the project, and not archived', async () => {
    const unassignedTask = await insertTask(ctx.db, w.companyId);
    const inactive = await insertTask(ctx.db, w.companyId);
    await assignTask(ctx.db, w.companyId, w.project, inactive, { active: false });
    const archived = await insertTask(ctx.db, w.companyId, { isActive: false });
    await assignTask(ctx.db, w.companyId, w.project, archived);
    for (const task_id of [unassignedTask, inactive, archived, foreign.task, newId(), 'nope']) {
      expectError(await postEntry(ctx.app, w.member, body({ task_id })), 400, 'invalid_request', 'task_id');
    }
  });

  it('members and contractors record only their own time', async () => {
    expect((await create(w.member, { user_id: w.member.userId })).user_id).toBe(w.member.userId);
    expect((await create(w.contractor)).user_id).toBe(w.contractor.userId);
    expectError(await postEntry(ctx.app, w.member, body({ user_id: w.other.userId })), 403, 'forbidden');
    expectError(await postEntry(ctx.app, w.contractor, body({ user_id: w.member.userId })), 403, 'forbidden');
  });

  it('administrators record anyone’s time on projects that person is assigned to', async () => {
    expect((await create(w.admin, { user_id: w.other.userId })).user_id).toBe(w.other.userId);
    expect((await create(w.owner, { user_id: w.contractor.userId })).user_id).toBe(w.contractor.userId);
    const notThere = await insertProject(ctx.db, w.companyId, w.clientId);
    await assignTask(ctx.db, w.companyId, notThere, w.task);
    await assignUser(ctx.db, w.companyId, notThere, w.admin.userId);
    // For someone else the person's rule applies: a member needs the assignment...
    const b = expectError(await postEntry(ctx.app, w.admin, body({ user_id: w.other.userId, project_id: notThere })), 400, 'invalid_request', 'user_id');
    expect(b.error_description).toBe('The person is not assigned to this project.');
    // ...an owner or administrator does not (they see every project).
    expect((await create(w.admin, { user_id: w.owner.userId, project_id: notThere, spent_date: '2026-06-02' })).user_id).toBe(w.owner.userId);
    for (const user_id of [newId(), 'x', foreign.member.userId]) {
      expectError(await postEntry(ctx.app, w.admin, body({ user_id })), 400, 'invalid_request', 'user_id');
    }
    const client = await createMember(ctx.db, operatorPrincipal(w.companyId), { email: `client.${newId()}@example.com`, first_name: 'C', role: 'client' });
    expectError(await postEntry(ctx.app, w.admin, body({ user_id: client.user_id })), 400, 'invalid_request', 'user_id');
    const gone = await freshMember();
    await ctx.db.updateTable('memberships').set({ is_active: false }).where('user_id', '=', gone.userId).execute();
    expectError(await postEntry(ctx.app, w.admin, body({ user_id: gone.userId })), 400, 'invalid_request', 'user_id');
  });

  it('managers record time for their teammates and for people on projects they manage', async () => {
    // member is manager's teammate: any project of the member's
    expect((await create(w.manager, { user_id: w.member.userId })).user_id).toBe(w.member.userId);
    // other is not a teammate: not on the main project (manager is only assigned there)...
    expectError(await postEntry(ctx.app, w.manager, body({ user_id: w.other.userId })), 403, 'forbidden');
    // ...but yes on the project manager manages
    const onManaged = await create(w.manager, { user_id: w.other.userId, project_id: w.managed, task_id: w.managedTask });
    expect(onManaged).toMatchObject({ user_id: w.other.userId, project_id: w.managed });
    // a manager without teammates or managed projects: own time only
    expectError(await postEntry(ctx.app, w.mgrPlain, body({ user_id: w.member.userId })), 403, 'forbidden');
    expect((await create(w.mgrPlain)).user_id).toBe(w.mgrPlain.userId);
  });

  it('a teammate’s project the manager is not assigned to is usable; others’ invisible projects are not', async () => {
    const teamOnly = await insertProject(ctx.db, w.companyId, w.clientId);
    await assignTask(ctx.db, w.companyId, teamOnly, w.task);
    await assignUser(ctx.db, w.companyId, teamOnly, w.member.userId);
    await assignUser(ctx.db, w.companyId, teamOnly, w.other.userId);
    expect((await create(w.manager, { user_id: w.member.userId, project_id: teamOnly })).project_id).toBe(teamOnly);
    expectError(await postEntry(ctx.app, w.manager, body({ user_id: w.other.userId, project_id: teamOnly })), 400, 'invalid_request', 'project_id');
  });

  it('personal sync keys never write', async () => {
    expectError(await postEntry(ctx.app, w.memberPersonal, body()), 403, 'forbidden');
    expectError(await postEntry(ctx.app, w.adminPersonal, body()), 403, 'forbidden');
  });
});

describe('billable flag and the stored historical rate', () => {
  let project: string;
  let task: string;
  let person: Caller;
  beforeAll(async () => {
    person = await addMember(ctx.db, w.companyId, { role: 'member' });
    project = await insertProject(ctx.db, w.companyId, w.clientId, { billBy: 'project', budgetBy: 'project', budget: '100' });
    task = await insertTask(ctx.db, w.companyId);
    await assignTask(ctx.db, w.companyId, project, task);
    await assignUser(ctx.db, w.companyId, project, person.userId);
    await insertRate(ctx.db, w.companyId, { projectId: project }, '2026-01-01', '100');
    await insertRate(ctx.db, w.companyId, { projectId: project }, '2026-06-01', '120.50');
  });
  const post = (extra: Record<string, unknown>) =>
    postEntry(ctx.app, person, { project_id: project, task_id: task, spent_date: '2026-06-09', hours: 2, ...extra });

  it('stores the rate in force on spent_date; shown only to those who may see rates', async () => {
    const before = (await post({ spent_date: '2026-05-31' })).json();
    const after = (await post({ spent_date: '2026-06-01' })).json();
    expect(before).not.toHaveProperty('billable_rate');
    expect(before.budgeted).toBe(true);
    const asAdmin = (await get(w.admin, before.id)).json();
    expect(Object.keys(asAdmin)).toEqual(ENTRY_RATE_KEYS);
    expect(asAdmin.billable_rate).toBe(100);
    expect((await get(w.admin, after.id)).json().billable_rate).toBe(120.5);
    // a manager sees the rate with view_billable_rates (manager's teammate is `member`, not `person`)...
    const mine = (await create(w.manager)).id;
    expect((await get(w.manager, mine)).json().billable_rate).toBeNull(); // main project has no rate
    // ...and a manager without it does not
    expect((await get(w.mgrPlain, (await create(w.mgrPlain)).id)).json()).not.toHaveProperty('billable_rate');
    // a later rate change never reprices stored work
    await insertRate(ctx.db, w.companyId, { projectId: project }, '2026-05-15', '90');
    expect((await get(w.admin, before.id)).json().billable_rate).toBe(100);
    // never a calculated amount
    expect(JSON.stringify(asAdmin)).not.toContain('amount');
  });

  it('billable defaults to the task assignment and the project; the body overrides; not billable has no rate', async () => {
    const nonBillableTask = await insertTask(ctx.db, w.companyId);
    await assignTask(ctx.db, w.companyId, project, nonBillableTask, { billable: false });
    const nb = (await post({ task_id: nonBillableTask })).json();
    expect(nb.billable).toBe(false);
    expect((await get(w.admin, nb.id)).json().billable_rate).toBeNull();
    const overridden = (await post({ task_id: nonBillableTask, billable: true })).json();
    expect(overridden.billable).toBe(true);
    expect((await get(w.admin, overridden.id)).json().billable_rate).toBe(120.5);
    const off = (await post({ billable: false })).json();
    expect((await get(w.admin, off.id)).json()).toMatchObject({ billable: false, billable_rate: null });
    const internal = await insertProject(ctx.db, w.companyId, w.clientId, { isBillable: false });
    await assignTask(ctx.db, w.companyId, internal, task);
    await assignUser(ctx.db, w.companyId, internal, person.userId);
    expect((await post({ project_id: internal })).json().billable).toBe(false);
    expectError(await post({ billable: 'yes' }), 400, 'invalid_request', 'billable');
  });

  it('prices by task and by person as the project bills', async () => {
    const byTask = await insertProject(ctx.db, w.companyId, w.clientId, { billBy: 'tasks' });
    await assignTask(ctx.db, w.companyId, byTask, task);
    await assignUser(ctx.db, w.companyId, byTask, person.userId);
    await insertRate(ctx.db, w.companyId, { projectId: byTask, taskId: task }, '2026-01-01', '75');
    const e1 = (await post({ project_id: byTask })).json();
    expect((await get(w.admin, e1.id)).json().billable_rate).toBe(75);
    const byPeople = await insertProject(ctx.db, w.companyId, w.clientId, { billBy: 'people' });
    await assignTask(ctx.db, w.companyId, byPeople, task);
    await assignUser(ctx.db, w.companyId, byPeople, person.userId);
    await insertRate(ctx.db, w.companyId, { userId: person.userId }, '2026-01-01', '60');
    const e2 = (await post({ project_id: byPeople })).json();
    expect((await get(w.admin, e2.id)).json().billable_rate).toBe(60);
    await insertRate(ctx.db, w.companyId, { projectId: byPeople, userId: person.userId }, '2026-01-01', '65');
    const e3 = (await post({ project_id: byPeople })).json();
    expect((await get(w.admin, e3.id)).json().billable_rate).toBe(65);
  });

  it('PATCH reprices when the date, project, task or billable flag changes, and not otherwise', async () => {
    const e = (await post({ spent_date: '2026-05-20' })).json();
    expect((await get(w.admin, e.id)).json().billable_rate).toBe(90);
    await patchEntry(ctx.app, person, e.id, { notes: 'n' });
    expect((await get(w.admin, e.id)).json().billable_rate).toBe(90);
    expect((await patchEntry(ctx.app, person, e.id, { spent_date: '2026-06-02' })).statusCode).toBe(200);
    expect((await get(w.admin, e.id)).json().billable_rate).toBe(120.5);
    await patchEntry(ctx.app, person, e.id, { billable: false });
    expect((await get(w.admin, e.id)).json().billable_rate).toBeNull();
    await patchEntry(ctx.app, person, e.id, { billable: true });
    expect((await get(w.admin, e.id)).json().billable_rate).toBe(120.5);
  });
});

describe('rounded_hours follows the workspace rounding', () => {
  it('none, up, down and nearest to the rounding minutes', async () => {
    const ws = await makeTimeWorkspace(ctx.db, { name: 'Rounding' });
    const e = (
      await postEntry(ctx.app, ws.member, { project_id: ws.project, task_id: ws.task, spent_date: '2026-06-09', hours: 1.1 })
    ).json();
    const rounded = async () => (await get(ws.member, e.id)).json();
    expect(await rounded()).toMatchObject({ hours: 1.1, rounded_hours: 1.1 });
    const cases: Array<['up' | 'down' | 'nearest', number, number]> = [
      ['up', 15, 1.25],
      ['down', 15, 1],
      ['nearest', 15, 1],
      ['up', 6, 1.1],
      ['up', 60, 2],
      ['nearest', 60, 1],
      ['down', 1, 1.1],
    ];
    for (const [rounding, rounding_minutes, expected] of cases) {
      await setWorkspace(ctx.db, ws.companyId, { rounding, rounding_minutes });
      const r = await rounded();
      expect(r.rounded_hours, `${rounding} ${rounding_minutes}`).toBe(expected);
      expect(r.hours).toBe(1.1); // hours are never rounded
    }
    await setWorkspace(ctx.db, ws.companyId, { rounding: 'nearest', rounding_minutes: 15 });
    const half = (await postEntry(ctx.app, ws.member, { project_id: ws.project, task_id: ws.task, spent_date: '2026-06-09', hours: 1.125 })).json();
    expect(half.rounded_hours).toBe(1.25); // half up
  });
});

describe('external references', () => {
  it('stores the object and returns it, or null', async () => {
    const ref = {
      id: 'PR-42',
      permalink: 'https://git.example.com/acme/app/pull/42',
      service: 'git.example.com',
      service_name: 'Example Git',
      group_id: '7',
      account_id: 'acme',
      display_name: 'Fix the parser',
      group_name: 'app',
      parent_id: '41',
    };
    const e = await create(w.member, { external_reference: ref });
    expect(e.external_reference).toEqual(ref);
    expect((await get(w.member, e.id)).json().external_reference).toEqual(ref);
    expect((await create(w.member)).external_reference).toBeNull();
  });

  it('rejects anything but an object with exactly the spec message', async () => {
    for (const external_reference of ['PR-42', 42, [], ['a'], true, null]) {
      const b = expectError(await postEntry(ctx.app, w.member, body({ external_reference })), 400, 'invalid_request');
      expect(b.error_description).toBe('external_reference must be an object');
      expect(b.message).toBe('external_reference must be an object');
    }
  });

  it('checks each field of the spec table', async () => {
    const bad: Array<[Record<string, unknown>, string, string?]> = [
      [{}, 'external_reference.id'],
      [{ service: 'x.com' }, 'external_reference.id'],
      [{ id: '' }, 'external_reference.id'],
      [{ id: 'x'.repeat(256) }, 'external_reference.id'],
      [{ id: 7 }, 'external_reference.id'],
      [{ id: 'a', permalink: 'ftp://example.com/a' }, 'external_reference.permalink'],
      [{ id: 'a', permalink: 'example.com/a' }, 'external_reference.permalink'],
      [{ id: 'a', permalink: `https://example.com/${'p'.repeat(2030)}` }, 'external_reference.permalink'],
      [{ id: 'a', service: 5 }, 'external_reference.service'],
      [{ id: 'a', display_name: { x: 1 } }, 'external_reference.display_name'],
      [{ id: 'a', url: 'https://x' }, 'external_reference.url', 'unknown_field'],
    ];
    for (const [ref, field, code] of bad) {
      expectError(await postEntry(ctx.app, w.member, body({ external_reference: ref })), 400, code ?? 'invalid_request', field);
    }
    const max = await create(w.member, { external_reference: { id: 'i'.repeat(255), permalink: `https://e.com/${'p'.repeat(2048 - 14)}` } });
    expect(max.external_reference.permalink).toHaveLength(2048);
  });

  it('refuses the reserved services of built-in integrations (not enabled)', async () => {
    for (const service of ['github.com', 'GITHUB.COM', 'atlassian.net', 'acme.atlassian.net']) {
      const b = expectError(
        await postEntry(ctx.app, w.member, body({ external_reference: { id: '1', service } })),
        400,
        'integration_not_enabled',
        'external_reference.service',
      );
      expect(b.error_description).toMatch(/not enabled/);
    }
    expect((await create(w.member, { external_reference: { id: '1', service: 'gitlab.com' } })).external_reference.service).toBe('gitlab.com');
  });

  it('is set by PATCH and removed by DELETE .../external_reference (204, also when none)', async () => {
    const e = await create(w.member);
    const patched = await patchEntry(ctx.app, w.member, e.id, { external_reference: { id: 'T-9', service: 'tracker.example' } });
    expect(patched.json().external_reference).toEqual({ id: 'T-9', service: 'tracker.example' });
    const b = expectError(await patchEntry(ctx.app, w.member, e.id, { external_reference: 'T-9' }), 400, 'invalid_request');
    expect(b.message).toBe('external_reference must be an object');
    const removed = await del(w.member, e.id, '/external_reference');
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect((await get(w.member, e.id)).json().external_reference).toBeNull();
    expect((await del(w.member, e.id, '/external_reference')).statusCode).toBe(204);
  });
});

describe('read one entry', () => {
  it('shows visible entries only: 404 for others’, foreign, unknown and malformed ids', async () => {
    const own = await create(w.member);
    const others = await create(w.other);
    expect((await get(w.member, own.id)).statusCode).toBe(200);
    for (const id of [others.id, foreignEntry, newId(), 'nope']) expectError(await get(w.member, id), 404, 'not_found');
    expect((await get(w.manager, own.id)).statusCode).toBe(200); // teammate
    expectError(await get(w.manager, others.id), 404, 'not_found'); // not a teammate, main project not managed
    expect((await get(w.admin, others.id)).statusCode).toBe(200);
    expectError(await get(w.admin, foreignEntry), 404, 'not_found');
    expectError(await get(w.memberPersonal, own.id), 403, 'forbidden'); // not on the personal key's allowlist
  });

  it('never shows what is not in the contract', async () => {
    const e = await create(w.admin, { metadata: { a: 1 }, external_reference: { id: 'x' } });
    const text = (await get(w.admin, e.id)).body;
    for (const hidden of ['billable_amount', 'hours_entered', 'company_id', 'created_by', 'invoice_id', 'invoice_line_id', 'external_reference_id', 'private']) {
      expect(text).not.toContain(`"${hidden}"`);
    }
  });
});

describe('update', () => {
  it('changes notes and bumps updated_at; a change to nothing writes nothing', async () => {
    const e = await create(w.member, { notes: 'a' });
    ctx.clock.advance(60_000);
    const changed = (await patchEntry(ctx.app, w.member, e.id, { notes: 'b' })).json();
    expect(changed.notes).toBe('b');
    expect(changed.updated_at).not.toBe(e.updated_at);
    ctx.clock.advance(60_000);
    const same = await patchEntry(ctx.app, w.member, e.id, { notes: 'b', hours: 1, metadata: null, billable: true });
    expect(same.statusCode).toBe(200);
    expect(same.json().updated_at).toBe(changed.updated_at);
    setNow(ctx.clock, NOW);
  });

  it('hours alone replace the duration and clear the times; times recompute it', async () => {
    const e = await create(w.member, { hours: undefined, started_time: '09:00', ended_time: '10:00' });
    const h = (await patchEntry(ctx.app, w.member, e.id, { hours: 2.5 })).json();
    expect(h).toMatchObject({ hours: 2.5, duration_seconds: 9000, started_time: null, ended_time: null });
    const t = (await patchEntry(ctx.app, w.member, e.id, { started_time: '13:00', ended_time: '13:45' })).json();
    expect(t).toMatchObject({ hours: 0.75, duration_seconds: 2700, started_time: '13:00', ended_time: '13:45' });
    const endOnly = (await patchEntry(ctx.app, w.member, e.id, { ended_time: '14:00' })).json();
    expect(endOnly).toMatchObject({ hours: 1, started_time: '13:00', ended_time: '14:00' });
    expectError(await patchEntry(ctx.app, w.member, e.id, { ended_time: '12:00' }), 400, 'invalid_request', 'ended_time');
    expectError(await patchEntry(ctx.app, w.member, e.id, { hours: 3, started_time: '13:00' }), 400, 'invalid_request', 'hours');
    const cleared = (await patchEntry(ctx.app, w.member, e.id, { started_time: null, ended_time: null })).json();
    expect(cleared).toMatchObject({ hours: 1, started_time: null, ended_time: null });
    expectError(await patchEntry(ctx.app, w.member, e.id, { started_time: '09:00' }), 400, 'invalid_request', 'ended_time');
  });

  it('moves to another project and task with the same checks as create; billable follows the new assignment', async () => {
    const e = await create(w.member);
    const task2 = await insertTask(ctx.db, w.companyId);
    await assignTask(ctx.db, w.companyId, w.project, task2, { billable: false });
    const moved = (await patchEntry(ctx.app, w.member, e.id, { task_id: task2 })).json();
    expect(moved).toMatchObject({ task_id: task2, billable: false, task: { id: task2 } });
    const back = (await patchEntry(ctx.app, w.member, e.id, { task_id: w.task, billable: false })).json();
    expect(back).toMatchObject({ task_id: w.task, billable: false });
    const toManaged = (await patchEntry(ctx.app, w.member, e.id, { project_id: w.managed, task_id: w.managedTask })).json();
    expect(toManaged.project_id).toBe(w.managed);
    expectError(await patchEntry(ctx.app, w.member, e.id, { task_id: w.task }), 400, 'invalid_request', 'task_id'); // not on managed
    const unassigned = await insertProject(ctx.db, w.companyId, w.clientId);
    await assignTask(ctx.db, w.companyId, unassigned, w.task);
    for (const project_id of [unassigned, foreign.project, newId(), 'x']) {
      expectError(await patchEntry(ctx.app, w.member, e.id, { project_id, task_id: w.task }), 400, 'invalid_request', 'project_id');
    }
  });

  it('refuses source, is_billed, is_running, user_id with a 400 naming them; unknown fields; an empty body', async () => {
    const e = await create(w.member);
    for (const [field, value] of [['source', 'web'], ['is_billed', true], ['is_running', false], ['user_id', w.other.userId], ['replace_running', true]] as const) {
      expectError(await patchEntry(ctx.app, w.member, e.id, { [field]: value }), 400, 'invalid_request', field);
    }
    for (const field of ['id', 'created_at', 'approval_status', 'billable_rate', 'bogus']) {
      expectError(await patchEntry(ctx.app, w.member, e.id, { [field]: 'x' }), 400, 'unknown_field', field);
    }
    expect(expectError(await patchEntry(ctx.app, w.member, e.id, {}), 400, 'invalid_request').error_description).toMatch(/at least one/);
    expectError(await patchEntry(ctx.app, w.member, e.id, { spent_date: '2026-13-01' }), 400, 'invalid_request', 'spent_date');
    expectError(await patchEntry(ctx.app, w.member, e.id, { hours: 24.5 }), 400, 'invalid_request', 'hours');
    expectError(await patchEntry(ctx.app, w.member, e.id, { metadata: [] }), 400, 'invalid_request', 'metadata');
    expectError(await patchEntry(ctx.app, w.member, e.id, { notes: 'x'.repeat(10_001) }), 400, 'invalid_request', 'notes');
    expect((await get(w.member, e.id)).json().source).toBe('api');
  });

  it('writes follow the visibility and write rules', async () => {
    const others = await create(w.other);
    expectError(await patchEntry(ctx.app, w.member, others.id, { notes: 'x' }), 404, 'not_found');
    expectError(await patchEntry(ctx.app, w.manager, others.id, { notes: 'x' }), 404, 'not_found');
    expect((await patchEntry(ctx.app, w.admin, others.id, { notes: 'by admin' })).json().notes).toBe('by admin');
    const teammates = await create(w.member);
    expect((await patchEntry(ctx.app, w.manager, teammates.id, { notes: 'by manager' })).statusCode).toBe(200);
    const onManaged = await create(w.other, { project_id: w.managed, task_id: w.managedTask });
    expect((await patchEntry(ctx.app, w.manager, onManaged.id, { notes: 'pm' })).statusCode).toBe(200);
    // the project manager may not move someone's entry to a project they do not manage
    expectError(await patchEntry(ctx.app, w.manager, onManaged.id, { project_id: w.project, task_id: w.task }), 403, 'forbidden');
    expectError(await patchEntry(ctx.app, w.memberPersonal, teammates.id, { notes: 'x' }), 403, 'forbidden');
  });
});

describe('locked entries (approved or billed)', () => {
  it('shows is_locked and is_closed; an approved entry is 409 approved_timesheet_week_locked on every change, a billed one 409 time_entry_locked', async () => {
    const person = await freshMember();
    const approved = await insertEntryRow(ctx.db, w.companyId, { userId: person.userId, projectId: w.project, taskId: w.task, spentDate: '2026-04-01', approval: 'approved' });
    const billed = await insertEntryRow(ctx.db, w.companyId, { userId: person.userId, projectId: w.project, taskId: w.task, spentDate: '2026-04-15', billed: true });
    // approved and billed: the invoice holds it, which a withdrawal of the approval would not release
    const both = await insertEntryRow(ctx.db, w.companyId, { userId: person.userId, projectId: w.project, taskId: w.task, spentDate: '2026-04-22', approval: 'approved', billed: true });
    expect((await get(person, approved)).json()).toMatchObject({ is_locked: true, is_closed: true, is_billed: false, approval_status: 'approved' });
    expect((await get(person, billed)).json()).toMatchObject({ is_locked: true, is_closed: false, is_billed: true });
    // the approved entry itself: the spec's code for changed time in an approved week (Wednesday 2026-04-01: week 2026-03-30..2026-04-05)
    const weekLocked = (res: { statusCode: number; json(): any }) => {
      const b = expectError(res, 409, 'approved_timesheet_week_locked');
      expect(Object.keys(b).sort()).toEqual(['error', 'error_description', 'message', 'week_end', 'week_start']);
      expect(b).toMatchObject({ week_start: '2026-03-30', week_end: '2026-04-05' });
    };
    weekLocked(await patchEntry(ctx.app, person, approved, { notes: 'x' }));
    weekLocked(await patchEntry(ctx.app, person, approved, { spent_date: '2026-06-01' }));
    weekLocked(await patchEntry(ctx.app, w.admin, approved, { notes: 'x' }));
    weekLocked(await del(person, approved));
    weekLocked(await del(person, approved, '/external_reference'));
    weekLocked(await patchEntry(ctx.app, person, approved, {}, '/restart'));
    for (const id of [billed, both]) {
      const b = expectError(await patchEntry(ctx.app, person, id, { notes: 'x' }), 409, 'time_entry_locked');
      expect(b.reason).toBe('billed');
      expectError(await del(person, id), 409, 'time_entry_locked');
      expectError(await del(person, id, '/external_reference'), 409, 'time_entry_locked');
      expectError(await patchEntry(ctx.app, person, id, {}, '/restart'), 409, 'time_entry_locked');
      expectError(await patchEntry(ctx.app, w.admin, id, { notes: 'x' }), 409, 'time_entry_locked');
    }
    expect((await get(person, approved)).json()).toMatchObject({ notes: null, spent_date: '2026-04-01', is_running: false });
    const submitted = await insertEntryRow(ctx.db, w.companyId, { userId: person.userId, projectId: w.project, taskId: w.task, spentDate: '2026-05-04', approval: 'submitted' });
    expect((await get(person, submitted)).json()).toMatchObject({ is_locked: false, is_closed: false });
    expect((await patchEntry(ctx.app, person, submitted, { notes: 'still editable' })).statusCode).toBe(200);
  });
});

describe('week lock: approved time locks its week for the person', () => {
  it('refuses new and changed time in the week with approved_timesheet_week_locked (409)', async () => {
    const person = await freshMember();
    // approved time on Tuesday 2026-05-12: the week 2026-05-11 (Monday) .. 2026-05-17 is locked
    await insertEntryRow(ctx.db, w.companyId, { userId: person.userId, projectId: w.project, taskId: w.task, spentDate: '2026-05-12', approval: 'approved' });
    const open = await create(person, { spent_date: '2026-05-18' });
    const post = (spent_date: string) => postEntry(ctx.app, person, body({ spent_date }));
    for (const d of ['2026-05-11', '2026-05-12', '2026-05-17']) {
      const b = expectError(await post(d), 409, 'approved_timesheet_week_locked');
      expect(b).toMatchObject({ week_start: '2026-05-11', week_end: '2026-05-17' });
    }
    expect((await post('2026-05-10')).statusCode).toBe(201);
    expect((await post('2026-05-18')).statusCode).toBe(201);
    // other people are not locked by this person's approval
    expect((await postEntry(ctx.app, w.member, body({ spent_date: '2026-05-13' }))).statusCode).toBe(201);
    // an administrator cannot add to it either
    expectError(await postEntry(ctx.app, w.admin, body({ user_id: person.userId, spent_date: '2026-05-13' })), 409, 'approved_timesheet_week_locked');
    // moving an entry into the week is refused
    expectError(await patchEntry(ctx.app, person, open.id, { spent_date: '2026-05-14' }), 409, 'approved_timesheet_week_locked');
  });

  it('an unapproved entry inside a locked week cannot be changed or deleted', async () => {
    const person = await freshMember();
    const inside = await create(person, { spent_date: '2026-03-03' });
    await insertEntryRow(ctx.db, w.companyId, { userId: person.userId, projectId: w.project, taskId: w.task, spentDate: '2026-03-05', approval: 'approved' });
    expectError(await patchEntry(ctx.app, person, inside.id, { notes: 'x' }), 409, 'approved_timesheet_week_locked');
    expectError(await patchEntry(ctx.app, person, inside.id, { spent_date: '2026-03-10' }), 409, 'approved_timesheet_week_locked');
    expectError(await del(person, inside.id), 409, 'approved_timesheet_week_locked');
    await ctx.db.updateTable('time_entries').set({ external_reference: JSON.stringify({ id: 'x' }) }).where('id', '=', inside.id).execute();
    expectError(await del(person, inside.id, '/external_reference'), 409, 'approved_timesheet_week_locked');
  });

  it('follows the workspace week_start', async () => {
    const ws = await makeTimeWorkspace(ctx.db, { name: 'Sunday weeks' });
    await setWorkspace(ctx.db, ws.companyId, { week_start: 'sunday' });
    await insertEntryRow(ctx.db, ws.companyId, { userId: ws.member.userId, projectId: ws.project, taskId: ws.task, spentDate: '2026-05-12', approval: 'approved' });
    const post = (spent_date: string) => postEntry(ctx.app, ws.member, { project_id: ws.project, task_id: ws.task, spent_date, hours: 1 });
    // Sunday 2026-05-10 .. Saturday 2026-05-16
    expect(expectError(await post('2026-05-10'), 409, 'approved_timesheet_week_locked').week_start).toBe('2026-05-10');
    expectError(await post('2026-05-16'), 409, 'approved_timesheet_week_locked');
    expect((await post('2026-05-17')).statusCode).toBe(201);
    expect((await post('2026-05-09')).statusCode).toBe(201);
  });

  it('approved expenses lock the week too', async () => {
    const person = await freshMember();
    const category = await expenseCategory(ctx.db, w.companyId);
    await ctx.db
      .insertInto('expenses')
      .values({
        company_id: w.companyId,
        id: newId(),
        user_id: person.userId,
        project_id: w.project,
        expense_category_id: category,
        spent_date: '2026-02-04',
        total_cost: '10',
        source: 'api',
        approval_status: 'approved',
      })
      .execute();
    expectError(await postEntry(ctx.app, person, body({ spent_date: '2026-02-06' })), 409, 'approved_timesheet_week_locked');
  });
});

describe('delete', () => {
  it('204 without a body; then gone', async () => {
    const e = await create(w.member);
    const res = await del(w.member, e.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectError(await get(w.member, e.id), 404, 'not_found');
    expectError(await del(w.member, e.id), 404, 'not_found');
  });

  it('follows the write rules', async () => {
    const others = await create(w.other);
    expectError(await del(w.member, others.id), 404, 'not_found');
    expectError(await del(w.memberPersonal, others.id), 403, 'forbidden');
    const teammates = await create(w.member);
    expect((await del(w.manager, teammates.id)).statusCode).toBe(204);
    expect((await del(w.admin, others.id)).statusCode).toBe(204);
  });
});

describe('other workspaces', () => {
  it('every route answers 404 for another workspace’s entry, even to its owner’s peers', async () => {
    for (const caller of [w.owner, w.admin, w.member]) {
      const routes: Array<[string, string, unknown?]> = [
        ['GET', ''],
        ['PATCH', '', { notes: 'x' }],
        ['DELETE', ''],
        ['DELETE', '/external_reference'],
        ['PATCH', '/stop', {}],
        ['PATCH', '/restart', {}],
      ];
      for (const [method, suffix, payload] of routes) {
        const res = await request(ctx.app, caller, { method: method as 'GET', url: `/api/v2/time_entries/${foreignEntry}${suffix}`, ...(payload ? { payload: payload as object } : {}) });
        expectError(res, 404, 'not_found');
      }
    }
    const still = await ctx.db.selectFrom('time_entries').select(['notes']).where('id', '=', foreignEntry).executeTakeFirstOrThrow();
    expect(still.notes).toBeNull();
  });

  it('another workspace’s key cannot reach this workspace’s entries', async () => {
    const e = await create(w.member);
    const res = await request(ctx.app, foreign.admin, { method: 'GET', url: `/api/v2/time_entries/${e.id}` });
    expectError(res, 404, 'not_found');
    // a key presented with the wrong workspace header is unauthenticated
    const crossed = await request(ctx.app, null, {
      method: 'GET',
      url: `/api/v2/time_entries/${e.id}`,
      headers: { authorization: foreign.admin.headers.authorization, 'service-account-id': w.companyId },
    });
    expect(crossed.statusCode).toBe(401);
  });
});
