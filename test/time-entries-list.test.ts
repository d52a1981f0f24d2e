import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { createTestContext, request, type Caller, type TestContext } from './helpers.ts';
import {
  ENTRY_BASE_KEYS,
  ENTRY_FULL_KEYS,
  ENTRY_RATE_KEYS,
  assignTask,
  assignUser,
  insertClient,
  insertEntryRow,
  insertProject,
  insertTask,
  makeTimeWorkspace,
  postEntry,
  setNow,
  type TimeWorkspace,
} from './fixtures/catalog.ts';

/**
 * GET /api/v2/time_entries: visibility by role, the stable order, every filter
 * and its bad input, pagination, and the personal sync key's restrictions.
 */

let ctx: TestContext;
let w: TimeWorkspace;
let foreign: TimeWorkspace;
const NOW = '2026-06-10T10:00:00.000Z';

/** Entries by name, so tests can say which ones a list must hold. */
const E: Record<string, string> = {};
let client2: string;
let project2: string;
let task2: string;

beforeAll(async () => {
  ctx = await createTestContext();
  setNow(ctx.clock, NOW);
  w = await makeTimeWorkspace(ctx.db);
  foreign = await makeTimeWorkspace(ctx.db, { name: 'Foreign' });
  await insertEntryRow(ctx.db, foreign.companyId, { userId: foreign.member.userId, projectId: foreign.project, taskId: foreign.task, spentDate: '2026-06-01' });

  // A second client with its own project and task, for the client/project/task filters.
  client2 = await insertClient(ctx.db, w.companyId, 'Second client');
  project2 = await insertProject(ctx.db, w.companyId, client2, { name: 'Second project' });
  task2 = await insertTask(ctx.db, w.companyId, { name: 'Testing' });
  await assignTask(ctx.db, w.companyId, project2, task2);
  await assignTask(ctx.db, w.companyId, w.project, task2);
  for (const p of [w.member, w.other, w.manager]) await assignUser(ctx.db, w.companyId, project2, p.userId);

  const post = async (name: string, caller: Caller, extra: Record<string, unknown>) => {
    const res = await postEntry(ctx.app, caller, { project_id: w.project, task_id: w.task, hours: 1, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    E[name] = res.json().id;
    ctx.clock.advance(1000); // distinct created_at
  };
  await post('m1', w.member, { spent_date: '2026-06-01', source: 'web' });
  await post('m2', w.member, { spent_date: '2026-06-03', project_id: project2, task_id: task2, external_reference: { id: 'ISSUE-1', service: 'tracker.example' } });
  await post('m3', w.member, { spent_date: '2026-06-03', source: 'cli', task_id: task2 });
  await post('m4', w.member, { spent_date: '2026-05-20', external_reference: { id: 'ISSUE-2', service: 'tracker.example' } });
  await post('o1', w.other, { spent_date: '2026-06-02' });
  await post('o2', w.other, { spent_date: '2026-06-04', project_id: w.managed, task_id: w.managedTask, external_reference: { id: 'ISSUE-1', service: 'other.example' } });
  await post('c1', w.contractor, { spent_date: '2026-06-02', source: 'desktop' });
  await post('g1', w.manager, { spent_date: '2026-06-05' });
  await post('a1', w.admin, { spent_date: '2026-06-06', source: 'agent' });
  await post('run', w.member, { is_running: true, hours: undefined });
  // billed entry (the invoices issue sets the flag)
  E.billed = await insertEntryRow(ctx.db, w.companyId, { userId: w.member.userId, projectId: w.project, taskId: w.task, spentDate: '2026-04-01', billed: true, source: 'calendar' });
  ctx.clock.advance(60_000);
});
afterAll(() => ctx.close());

const list = (caller: Caller, query = '') => request(ctx.app, caller, { method: 'GET', url: `/api/v2/time_entries${query}` });
/**
 * The ids of the entries a request lists. Unless it pages itself, it is asked again one
 * entry per page, where the total is counted by its own query (a first page that holds
 * everything is its own total): the count must see exactly what the page sees.
 */
async function ids(caller: Caller, query = '') {
  const res = await list(caller, query);
  expect(res.statusCode, res.body).toBe(200);
  const found = res.json().time_entries.map((e: { id: string }) => e.id) as string[];
  if (!/[?&](page|per_page)=/.test(query)) {
    expect(res.json().total_entries).toBe(found.length);
    const counted = await list(caller, `${query}${query ? '&' : '?'}per_page=1`);
    expect(counted.json().total_entries, `total of ${query}`).toBe(found.length);
  }
  return found;
}
const named = (...names: string[]) => names.map((n) => E[n]);
const sorted = (a: string[]) => [...a].sort();

function expectError(res: { statusCode: number; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  expect(res.json().error).toBe(error);
  if (field !== undefined) expect(res.json().field).toBe(field);
}

describe('visibility', () => {
  it('administrators and owners see everyone’s entries in the workspace (never another workspace’s)', async () => {
    const all = await ids(w.admin);
    expect(sorted(all)).toEqual(sorted(Object.values(E)));
    expect(sorted(await ids(w.owner))).toEqual(sorted(all));
  });

  it('members and contractors see their own', async () => {
    expect(sorted(await ids(w.member))).toEqual(sorted(named('m1', 'm2', 'm3', 'm4', 'run', 'billed')));
    expect(await ids(w.contractor)).toEqual(named('c1'));
    expect(await ids(w.mgrPlain)).toEqual([]);
  });

  it('managers see their own, their teammates’ and those on projects they manage', async () => {
    expect(sorted(await ids(w.manager))).toEqual(sorted(named('g1', 'm1', 'm2', 'm3', 'm4', 'run', 'billed', 'o2')));
  });

  it('filters only narrow: another person’s id gives an empty list to a full-access member', async () => {
    expect(await ids(w.member, `?user_id=${w.other.userId}`)).toEqual([]);
    expect(await ids(w.manager, `?user_id=${w.other.userId}`)).toEqual(named('o2'));
  });
});

describe('order and shape', () => {
  it('orders by spent_date, then created_at, then id, all descending', async () => {
    const rows = (await list(w.admin, '?per_page=2000')).json().time_entries as Array<{ id: string; spent_date: string; created_at: string }>;
    const expected = [...rows].sort(
      (a, b) => b.spent_date.localeCompare(a.spent_date) || b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id),
    );
    expect(rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    // same date: the later created first
    const june3 = rows.filter((r) => r.spent_date === '2026-06-03').map((r) => r.id);
    expect(june3).toEqual(named('m3', 'm2'));
  });

  it('breaks ties of date and created_at by id, descending', async () => {
    const ws = await makeTimeWorkspace(ctx.db, { name: 'Ties' });
    const at = new Date('2026-01-01T00:00:00Z');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await insertEntryRow(ctx.db, ws.companyId, { userId: ws.member.userId, projectId: ws.project, taskId: ws.task, spentDate: '2026-01-05', createdAt: at }));
    }
    const got = await ids(ws.member);
    expect(got).toEqual([...made].sort().reverse());
    // pages of one are stable and complete
    const paged: string[] = [];
    for (let page = 1; page <= 5; page++) paged.push(...(await ids(ws.member, `?per_page=1&page=${page}`)));
    expect(paged).toEqual(got);
  });

  it('items carry the full-access fields; billable_rate only with the rate permission; never billable_amount', async () => {
    const memberItems = (await list(w.member)).json().time_entries;
    for (const item of memberItems) expect(Object.keys(item)).toEqual(ENTRY_FULL_KEYS);
    const adminItems = (await list(w.admin)).json().time_entries;
    for (const item of adminItems) expect(Object.keys(item)).toEqual(ENTRY_RATE_KEYS);
    expect((await list(w.admin)).body).not.toContain('billable_amount');
    const running = memberItems.find((e: { id: string }) => e.id === E.run);
    expect(running.is_running).toBe(true);
    expect(running.duration_seconds).toBeGreaterThan(0); // counts up to the app clock's now
  });

  it('paginates with the envelope', async () => {
    const res = await list(w.admin, '?per_page=3&page=2');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const b = res.json();
    expect(Object.keys(b)).toEqual(['time_entries', 'per_page', 'total_pages', 'total_entries', 'page', 'links']);
    expect(b).toMatchObject({ page: 2, per_page: 3, total_entries: Object.keys(E).length, total_pages: Math.ceil(Object.keys(E).length / 3) });
    expect(b.time_entries).toHaveLength(3);
    expect(b.links).toEqual({
      first: '/api/v2/time_entries?per_page=3&page=1',
      next: '/api/v2/time_entries?per_page=3&page=3',
      previous: '/api/v2/time_entries?per_page=3&page=1',
      last: `/api/v2/time_entries?per_page=3&page=${b.total_pages}`,
    });
    const beyond = (await list(w.admin, '?page=99')).json();
    expect(beyond).toMatchObject({ time_entries: [], total_entries: Object.keys(E).length, page: 99 });
    expect((await list(w.admin)).json().per_page).toBe(100);
  });
});

describe('filters', () => {
  it('source', async () => {
    expect(await ids(w.admin, '?source=web')).toEqual(named('m1'));
    expect(await ids(w.admin, '?source=cli')).toEqual(named('m3'));
    expect(await ids(w.admin, '?source=calendar')).toEqual(named('billed'));
    expect(sorted(await ids(w.admin, '?source=api'))).toEqual(sorted(named('m2', 'm4', 'o1', 'o2', 'g1', 'run')));
  });

  it('project_id, task_id and task (alias), client_id', async () => {
    expect(await ids(w.admin, `?project_id=${project2}`)).toEqual(named('m2'));
    expect(await ids(w.admin, `?project_id=${w.managed}`)).toEqual(named('o2'));
    expect(sorted(await ids(w.admin, `?task_id=${task2}`))).toEqual(sorted(named('m2', 'm3')));
    expect(sorted(await ids(w.admin, `?task=${task2}`))).toEqual(sorted(named('m2', 'm3')));
    expect(sorted(await ids(w.admin, `?task=${task2}&task_id=${task2}`))).toEqual(sorted(named('m2', 'm3')));
    expect(await ids(w.admin, `?client_id=${client2}`)).toEqual(named('m2'));
    expect((await ids(w.admin, `?client_id=${w.clientId}`)).length).toBe(Object.keys(E).length - 1);
    expect(await ids(w.admin, `?project_id=${project2}&task_id=${w.task}`)).toEqual([]);
  });

  it('user_id', async () => {
    expect(sorted(await ids(w.admin, `?user_id=${w.other.userId}`))).toEqual(sorted(named('o1', 'o2')));
    expect(await ids(w.admin, `?user_id=${w.contractor.userId}`)).toEqual(named('c1'));
    expect(await ids(w.admin, `?user_id=${w.contractor.userId.toUpperCase()}`)).toEqual(named('c1'));
  });

  it('from and to are inclusive dates', async () => {
    expect(sorted(await ids(w.admin, '?from=2026-06-03&to=2026-06-04'))).toEqual(sorted(named('m2', 'm3', 'o2')));
    expect(await ids(w.admin, '?from=2026-06-06&to=2026-06-06')).toEqual(named('a1'));
    expect(await ids(w.admin, '?to=2026-05-31')).toEqual(named('m4', 'billed'));
    expect(sorted(await ids(w.admin, '?from=2026-06-06'))).toEqual(sorted(named('a1', 'run')));
  });

  it('is_billed and is_running', async () => {
    expect(await ids(w.admin, '?is_billed=true')).toEqual(named('billed'));
    expect(await ids(w.admin, '?is_billed=false')).not.toContain(E.billed);
    expect(await ids(w.admin, '?is_running=true')).toEqual(named('run'));
    expect((await ids(w.admin, '?is_running=false')).length).toBe(Object.keys(E).length - 1);
  });

  it('updated_since keeps entries updated at or after it', async () => {
    const since = ctx.clock.now();
    expect(await ids(w.admin, `?updated_since=${encodeURIComponent(since.toISOString())}`)).toEqual([]);
    ctx.clock.advance(1000);
    const res = await request(ctx.app, w.member, { method: 'PATCH', url: `/api/v2/time_entries/${E.m1}`, payload: { notes: 'touched' } });
    expect(res.statusCode).toBe(200);
    expect(await ids(w.admin, `?updated_since=${encodeURIComponent(since.toISOString())}`)).toEqual(named('m1'));
    expect(await ids(w.admin, `?updated_since=${encodeURIComponent(res.json().updated_at)}`)).toEqual(named('m1'));
    const offset = '2026-06-10T12:00:00+02:00'; // = 10:00Z, before every API write of this file (the billed row is older)
    expect(sorted(await ids(w.admin, `?updated_since=${encodeURIComponent(offset)}`))).toEqual(
      sorted(Object.keys(E).filter((k) => k !== 'billed').map((k) => E[k])),
    );
  });

  it('external_reference_id with external_reference_service', async () => {
    expect(await ids(w.admin, '?external_reference_id=ISSUE-1&external_reference_service=tracker.example')).toEqual(named('m2'));
    expect(await ids(w.admin, '?external_reference_id=ISSUE-1&external_reference_service=other.example')).toEqual(named('o2'));
    expect(await ids(w.admin, '?external_reference_id=ISSUE-9&external_reference_service=tracker.example')).toEqual([]);
    expect(await ids(w.member, '?external_reference_id=ISSUE-1&external_reference_service=other.example')).toEqual([]);
  });

  it('unknown and foreign ids match nothing', async () => {
    for (const field of ['project_id', 'task_id', 'user_id', 'client_id']) expect(await ids(w.admin, `?${field}=${newId()}`)).toEqual([]);
    expect(await ids(w.admin, `?project_id=${foreign.project}`)).toEqual([]);
    expect(await ids(w.admin, `?user_id=${foreign.member.userId}`)).toEqual([]);
  });
});

describe('bad filter values', () => {
  it('blank values are 400', async () => {
    for (const field of ['source', 'project_id', 'task_id', 'task', 'user_id', 'client_id', 'from', 'to', 'is_billed', 'is_running', 'updated_since', 'page', 'per_page']) {
      expectError(await list(w.admin, `?${field}=`), 400, 'invalid_request', field);
    }
    expectError(await list(w.admin, '?external_reference_id=&external_reference_service=x'), 400, 'invalid_request', 'external_reference_id');
    expectError(await list(w.admin, '?external_reference_id=%20&external_reference_service=x'), 400, 'invalid_request', 'external_reference_id');
    expectError(await list(w.admin, '?external_reference_id=x&external_reference_service=%20'), 400, 'invalid_request', 'external_reference_service');
  });

  it('invalid values are 400 naming the filter', async () => {
    const cases: Array<[string, string]> = [
      ['source=phone', 'source'],
      ['project_id=abc', 'project_id'],
      ['task_id=1', 'task_id'],
      ['task=x', 'task'],
      [`user_id=${newId()}x`, 'user_id'],
      ['client_id=%20', 'client_id'],
      ['from=2026-02-30', 'from'],
      ['to=06/01/2026', 'to'],
      ['from=20260601', 'from'],
      ['is_billed=yes', 'is_billed'],
      ['is_billed=TRUE', 'is_billed'],
      ['is_running=1', 'is_running'],
      ['updated_since=2026-06-31', 'updated_since'],
      ['updated_since=yesterday', 'updated_since'],
      ['page=0', 'page'],
      ['per_page=2001', 'per_page'],
      ['per_page=-1', 'per_page'],
    ];
    for (const [query, field] of cases) expectError(await list(w.admin, `?${query}`), 400, 'invalid_request', field);
  });

  it('conflicting values are 400', async () => {
    expectError(await list(w.admin, '?from=2026-06-05&to=2026-06-04'), 400, 'invalid_request', 'from');
    expectError(await list(w.admin, `?task=${task2}&task_id=${w.task}`), 400, 'invalid_request', 'task');
    expectError(await list(w.admin, '?external_reference_id=ISSUE-1'), 400, 'invalid_request', 'external_reference_service');
    expectError(await list(w.admin, '?external_reference_service=tracker.example'), 400, 'invalid_request', 'external_reference_id');
    expectError(await list(w.admin, `?project_id=${project2}&project_id=${w.project}`), 400, 'invalid_request', 'project_id');
    expectError(await list(w.admin, '?is_running=true&is_running=false'), 400, 'invalid_request', 'is_running');
  });

  it('unknown filters are 400', async () => {
    expectError(await list(w.admin, '?spent_date=2026-06-01'), 400, 'unknown_field', 'spent_date');
    expectError(await list(w.admin, '?billable=true'), 400, 'unknown_field', 'billable');
  });
});

describe('personal sync key', () => {
  it('lists only its owner’s entries with only the all-credential fields, whatever the owner’s role', async () => {
    const res = await list(w.memberPersonal);
    expect(res.statusCode).toBe(200);
    const items = res.json().time_entries;
    expect(sorted(items.map((e: { id: string }) => e.id))).toEqual(sorted(named('m1', 'm2', 'm3', 'm4', 'run', 'billed')));
    for (const item of items) expect(Object.keys(item)).toEqual(ENTRY_BASE_KEYS);
    for (const hidden of ['external_reference', 'approval_status', 'metadata', '"task"', 'budgeted', 'billable_rate', 'billable_amount']) {
      expect(res.body).not.toContain(hidden);
    }
    // a manager's and an administrator's keys: still their own entries only
    expect(await ids(w.managerPersonal)).toEqual(named('g1'));
    expect(await ids(w.adminPersonal)).toEqual(named('a1'));
  });

  it('user_id may be omitted or the owner’s; another id is 403, even for a manager’s or administrator’s key', async () => {
    expect(sorted(await ids(w.memberPersonal, `?user_id=${w.member.userId}`))).toEqual(sorted(await ids(w.memberPersonal)));
    expectError(await list(w.memberPersonal, `?user_id=${w.other.userId}`), 403, 'forbidden');
    expectError(await list(w.managerPersonal, `?user_id=${w.member.userId}`), 403, 'forbidden'); // a teammate
    expectError(await list(w.adminPersonal, `?user_id=${w.member.userId}`), 403, 'forbidden');
    expectError(await list(w.memberPersonal, `?user_id=${newId()}`), 403, 'forbidden');
    expectError(await list(w.memberPersonal, '?user_id=abc'), 400, 'invalid_request', 'user_id');
    expectError(await list(w.memberPersonal, '?user_id='), 400, 'invalid_request', 'user_id');
  });

  it('accepts client_id, task_id, task, from, to, updated_since, page and per_page', async () => {
    expect(await ids(w.memberPersonal, `?client_id=${client2}`)).toEqual(named('m2'));
    expect(sorted(await ids(w.memberPersonal, `?task_id=${task2}`))).toEqual(sorted(named('m2', 'm3')));
    expect(sorted(await ids(w.memberPersonal, `?task=${task2}`))).toEqual(sorted(named('m2', 'm3')));
    expect(sorted(await ids(w.memberPersonal, `?task=${task2}&task_id=${task2}`))).toEqual(sorted(named('m2', 'm3')));
    expectError(await list(w.memberPersonal, `?task=${task2}&task_id=${w.task}`), 400, 'invalid_request', 'task');
    expect(await ids(w.memberPersonal, '?from=2026-06-01&to=2026-06-01')).toEqual(named('m1'));
    const later = new Date(ctx.clock.now().getTime() + 1000).toISOString();
    expect(await ids(w.memberPersonal, `?updated_since=${encodeURIComponent(later)}`)).toEqual([]);
    const since = await ids(w.memberPersonal, `?updated_since=2026-06-10T10:00:05Z`);
    expect(since).toContain(E.m1);
    expect(since).not.toContain(E.billed);
    const page = (await list(w.memberPersonal, '?per_page=2&page=2')).json();
    expect(page).toMatchObject({ page: 2, per_page: 2, total_entries: 6, total_pages: 3 });
  });

  it('refuses every other filter, and invalid, blank or conflicting values', async () => {
    for (const query of [
      `project_id=${w.project}`,
      'source=api',
      'is_billed=true',
      'is_running=true',
      'external_reference_id=ISSUE-1&external_reference_service=tracker.example',
      'external_reference_id=ISSUE-1',
      'bogus=1',
    ]) {
      const res = await list(w.memberPersonal, `?${query}`);
      expect(res.statusCode, query).toBe(400);
    }
    expectError(await list(w.memberPersonal, '?from=2026-06-02&to=2026-06-01'), 400, 'invalid_request', 'from');
    expectError(await list(w.memberPersonal, '?client_id='), 400, 'invalid_request', 'client_id');
    expectError(await list(w.memberPersonal, '?from=tomorrow'), 400, 'invalid_request', 'from');
  });

  it('keeps seeing its owner’s own entries after the owner leaves their project (entries follow ownership)', async () => {
    await ctx.db
      .updateTable('project_user_assignments')
      .set({ is_active: false })
      .where('project_id', '=', project2)
      .where('user_id', '=', w.member.userId)
      .execute();
    expect(await ids(w.memberPersonal, `?client_id=${client2}`)).toEqual(named('m2'));
    expect(await ids(w.member, `?project_id=${project2}`)).toEqual(named('m2'));
  });
});
