import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../src/db/tenant.ts';
import { principalOf } from '../src/http/security.ts';
import { presentEntry } from '../src/modules/tracking/time/presenter.ts';
import { listEntries } from '../src/modules/tracking/time/queries.ts';
import { presentOf } from '../src/modules/tracking/time/service.ts';
import { loadTimeSettings } from '../src/modules/tracking/week/index.ts';
import { presentProject } from '../src/modules/catalog/projects/presenter.ts';
import { projectListQuery } from '../src/modules/catalog/projects/queries.ts';
import { projectView } from '../src/modules/catalog/projects/service.ts';
import { workspaceToday } from '../src/modules/catalog/rates/index.ts';
import { maySeeRates } from '../src/access/catalog.ts';
import { fetchPage } from '../src/http/pagination.ts';
import { addMember, createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import {
  assignTask,
  assignUser,
  insertClient,
  insertEntryRow,
  insertProject,
  insertRate,
  insertTask,
  makeTimeWorkspace,
  postEntry,
  setNow,
  setWorkspace,
  type TimeWorkspace,
} from './fixtures/catalog.ts';

/**
 * The list pages whose JSON PostgreSQL builds (time entries: list-json.ts; projects:
 * projects/list-json.ts) against the JavaScript presenters they replace, kept callable
 * here as the reference: for every caller (each role, with and without the rate
 * permissions, personal sync keys), every rounding rule and pages that are counted,
 * each listed item must be the bytes JSON.stringify gives of the presenter's object,
 * and the body the bytes of the whole page. Runs on PGlite and PostgreSQL alike.
 */

let ctx: TestContext;
let w: TimeWorkspace;
let costManager: Caller;
let ratesManager: Caller;
const NOW = '2026-06-10T10:00:00.000Z';

/**
 * The old list, as a test route: the rows of the same query, presented by presentEntry
 * and projects' presentProject and written by JSON.stringify (what the routes did).
 * It answers the list's own path for the host `reference.test`, so a personal sync key
 * may call it too.
 */
const REFERENCE = { constraints: { host: 'reference.test' }, config: { access: 'authenticated' as const } };
async function referenceRoutes(app: FastifyInstance) {
  app.get('/api/v2/time_entries', REFERENCE, async (request) => {
    const p = principalOf(request);
    const q = request.query as Record<string, string>;
    const page = { page: Number(q.page ?? 1), perPage: Number(q.per_page ?? 100) };
    const now = app.config.clock();
    return withTenant(app.db, p.companyId, async (trx) => {
      const settings = await loadTimeSettings(trx, p.companyId);
      const filter = { userId: p.kind === 'personal' ? p.userId : q.user_id };
      const { rows, total } = await listEntries(trx, p.companyId, p, filter, page);
      const present = presentOf(p, settings, now);
      return { items: JSON.stringify(rows.map((row) => presentEntry(row, present))), total };
    });
  });
  app.get('/api/v2/projects', REFERENCE, async (request) => {
    const p = principalOf(request);
    const q = request.query as Record<string, string>;
    const page = { page: Number(q.page ?? 1), perPage: Number(q.per_page ?? 100) };
    const filter = q.is_active === undefined ? {} : { isActive: q.is_active === 'true' };
    return withTenant(app.db, p.companyId, async (trx) => {
      const today = await workspaceToday(trx, p.companyId, app.config.clock());
      const options = { principal: p, rateOn: p.kind !== 'personal' && maySeeRates(p) ? today : undefined };
      const { rows, total } = await fetchPage(projectListQuery(trx, p.companyId, options, filter), page);
      return { items: JSON.stringify(rows.map((row) => presentProject(row, projectView(p, row)))), total };
    });
  });
}

beforeAll(async () => {
  ctx = await createTestContext({ plugins: [referenceRoutes] });
  setNow(ctx.clock, NOW);
  w = await makeTimeWorkspace(ctx.db);
  const c = w.companyId;

  // A second project budgeted by hours with a task whose name needs escaping, rates on both.
  const client2 = await insertClient(ctx.db, c, 'Zweiter "Kunde" \\ Ω');
  const budgeted = await insertProject(ctx.db, c, client2, { name: 'Budgeted "project"' });
  await ctx.db.updateTable('projects').set({ budget_by: 'project', budget: '120.50', show_budget_to_all: true }).where('id', '=', budgeted).execute();
  const oddTask = await insertTask(ctx.db, c, { name: 'Dévelopment "quoted" \\ back\tslash 😀' });
  await assignTask(ctx.db, c, budgeted, oddTask);
  await assignTask(ctx.db, c, w.project, oddTask);
  for (const person of [w.owner, w.admin, w.manager, w.mgrPlain, w.member, w.contractor, w.other]) await assignUser(ctx.db, c, budgeted, person.userId);
  await insertRate(ctx.db, c, { projectId: w.project }, '2026-01-01', '1234567890.12');
  await insertRate(ctx.db, c, { projectId: budgeted }, '2026-01-01', '12.50');

  const post = async (caller: Caller, body: Record<string, unknown>) => {
    const res = await postEntry(ctx.app, caller, { project_id: w.project, task_id: w.task, ...body });
    expect(res.statusCode, res.body).toBe(201);
    ctx.clock.advance(1234);
    return res.json().id as string;
  };
  const hours = [0, 0.000001, 0.1, 1.234567, 7.5, 8.25, 23.999999, 24, 1.1, 0.25, 0.666667];
  const notes = [null, 'plain', 'quote " back \\ slash', 'line\nbreak\ttab\r\u0008\u000c', 'control \u0001 \u001f \u007f', 'emoji 😀 and \u2028\u2029', '</script>&<>'];
  let i = 0;
  for (const caller of [w.member, w.other, w.contractor, w.manager, w.admin, w.owner]) {
    for (const h of hours) {
      const n = notes[i % notes.length];
      const body: Record<string, unknown> = { spent_date: `2026-05-${String(1 + (i % 28)).padStart(2, '0')}`, hours: h, ...(n === null ? {} : { notes: n }) };
      if (i % 3 === 0) Object.assign(body, { project_id: budgeted, task_id: oddTask });
      if (i % 5 === 0) body.external_reference = { id: `T-${i}`, service: 'tracker.example.com', permalink: `https://tracker.example.com/T-${i}`, group_id: '7' };
      if (i % 4 === 1) body.metadata = { a: i, nested: { list: [1, 'two', null, true], s: 'x"y' }, '10': 'ten', '2': 'two', 'ü': 1.5 };
      await post(caller, body);
      i++;
    }
  }
  // Start and end times, and a timer with time so far; a timer running past 24 hours.
  await post(w.member, { spent_date: '2026-06-01', started_time: '08:05', ended_time: '09:17' });
  await post(w.contractor, { is_running: true });
  await post(w.other, { is_running: true, project_id: w.managed, task_id: w.managedTask });
  await insertEntryRow(ctx.db, c, { userId: w.manager.userId, projectId: w.project, taskId: w.task, spentDate: '2026-06-08', seconds: 5000, running: new Date('2026-06-10T09:10:11.999Z') });
  await insertEntryRow(ctx.db, c, { userId: w.admin.userId, projectId: w.project, taskId: w.task, spentDate: '2026-06-07', seconds: 3000, running: new Date('2026-06-08T09:00:00.000Z') });
  // Approved, submitted, rejected and billed entries (written directly, as approvals and invoices do).
  await insertEntryRow(ctx.db, c, { userId: w.member.userId, projectId: w.project, taskId: w.task, spentDate: '2026-04-01', approval: 'approved', seconds: 4321 });
  await insertEntryRow(ctx.db, c, { userId: w.member.userId, projectId: w.project, taskId: w.task, spentDate: '2026-04-02', approval: 'submitted', seconds: 1 });
  await insertEntryRow(ctx.db, c, { userId: w.other.userId, projectId: w.managed, taskId: w.managedTask, spentDate: '2026-04-03', approval: 'rejected', seconds: 86399 });
  await insertEntryRow(ctx.db, c, { userId: w.member.userId, projectId: w.project, taskId: w.task, spentDate: '2026-04-04', approval: 'approved', billed: true, source: 'calendar' });
  await insertEntryRow(ctx.db, c, { userId: w.member.userId, projectId: w.project, taskId: w.task, spentDate: '2026-04-05', billed: true });
  // What only other writers store: jsonb numbers as written (1.0, 1e21, 1e-7, beyond 2^53), sub-millisecond
  // instants, an external reference with more fields, rates with scale, no rate at all.
  await sql`update time_entries set metadata = '{"n": 1.0, "big": 100000000000000000000000, "tiny": 0.0000001, "exact": 12345678901234567890, "e": 1e21, "neg": -0, "arr": [1.50, {"k": "v"}], "empty": {}, "ws": " a : b , c "}'::jsonb
    where company_id = ${c} and spent_date = '2026-04-01'`.execute(ctx.db);
  await sql`update time_entries set external_reference = '{"id": "X-1", "service": "s", "service_name": "S \\"q\\"", "display_name": "ü", "parent_id": "p", "account_id": "1", "group_name": "g"}'::jsonb,
    created_at = created_at + interval '0.000789 seconds', updated_at = updated_at + interval '0.999999 seconds'
    where company_id = ${c} and spent_date = '2026-04-02'`.execute(ctx.db);
  await sql`update time_entries set timer_started_at = timer_started_at + interval '0.000999 seconds'
    where company_id = ${c} and is_running and user_id = ${w.manager.userId}`.execute(ctx.db);
  await sql`update time_entries set billable_rate = 99.9 where company_id = ${c} and spent_date = '2026-04-03'`.execute(ctx.db);
  await sql`update time_entries set billable_rate = null, billable = false where company_id = ${c} and spent_date = '2026-04-04'`.execute(ctx.db);
  await sql`update time_entries set billable_rate = 0 where company_id = ${c} and spent_date = '2026-04-05'`.execute(ctx.db);
  // Projects of every budget kind, with and without code, notes, dates, owner, rate, fee and
  // budgets; managers with each permission, managing some (one through an inactive assignment).
  costManager = await addMember(ctx.db, c, { role: 'manager', permissions: ['view_internal_costs'], firstName: 'Cosima' });
  ratesManager = await addMember(ctx.db, c, { role: 'manager', permissions: ['view_billable_rates', 'view_internal_costs'], firstName: ' \u00a0Rita\t', lastName: '' });
  const client3 = await insertClient(ctx.db, c, 'Client with currency');
  await ctx.db.updateTable('clients').set({ currency: 'CHF' }).where('id', '=', client3).execute();
  const kinds = ['none', 'project', 'project_cost', 'task', 'task_fees', 'person'] as const;
  for (let k = 0; k < 24; k++) {
    const id = await insertProject(ctx.db, c, k % 2 ? client3 : client2, {
      name: `${k % 3 ? 'p' : 'P'}roject ${String(24 - k).padStart(2, '0')} "q" \\ ü`,
      isActive: k % 7 !== 3,
      billBy: (['project', 'tasks', 'people', 'none'] as const)[k % 4],
      budgetBy: kinds[k % kinds.length],
      budget: k % 5 === 0 ? null : `${k * 100}.${k % 2 ? '50' : '00'}`,
    });
    await ctx.db.updateTable('projects').set({
      code: k % 4 === 0 ? null : `C-${k}\t"x"`,
      notes: k % 3 === 0 ? null : `Notes\n${k} </script>`,
      show_budget_to_all: k % 2 === 0,
      budget_is_monthly: k % 5 === 1,
      is_fixed_fee: k % 6 === 1,
      fee: k % 6 === 1 ? '1500.75' : k % 6 === 2 ? '0.00' : null,
      cost_budget: k % 4 === 1 ? '999999999999.99' : null,
      starts_on: k % 2 ? '2026-01-01' : null,
      ends_on: k % 3 ? null : '2026-12-31',
      owner_id: k % 3 === 0 ? null : k % 3 === 1 ? ratesManager.userId : w.member.userId,
      updated_at: new Date(Date.UTC(2026, 0, 1 + k, 0, 0, 0, k)),
    }).where('id', '=', id).execute();
    if (k % 4 !== 2) await insertRate(ctx.db, c, { projectId: id }, k % 2 ? '-infinity' : '2026-02-01', k % 2 ? '80' : '95.25');
    for (const person of [w.member, w.contractor, w.mgrPlain, w.manager, costManager, ratesManager]) {
      if ((k + person.userId.charCodeAt(35)) % 5 === 4) continue;
      const managerRole = person === w.mgrPlain || person === w.manager || person === costManager || person === ratesManager;
      await assignUser(ctx.db, c, id, person.userId, { manager: managerRole && k % 2 === 1, active: k % 9 !== 4 });
    }
  }
  await sql`update projects set created_at = created_at + interval '0.000456 seconds' where company_id = ${c}`.execute(ctx.db);
  await sql`update clients set updated_at = now() + interval '1 day' where company_id = ${c} and id = ${client3}`.execute(ctx.db);
  await sql`update users set updated_at = now() + interval '2 days' where id = ${ratesManager.userId}`.execute(ctx.db);

  // Read later than the entries were written, so the timers have run.
  ctx.clock.advance(61_789);
});
afterAll(() => ctx.close());

const CALLERS = ['owner', 'admin', 'manager', 'mgrPlain', 'member', 'contractor', 'other', 'memberPersonal', 'managerPersonal', 'adminPersonal'] as const;
const ROUNDING = [
  { rounding: 'none', rounding_minutes: 15 },
  { rounding: 'up', rounding_minutes: 15 },
  { rounding: 'down', rounding_minutes: 6 },
  { rounding: 'nearest', rounding_minutes: 7 },
  { rounding: 'nearest', rounding_minutes: 1 },
  { rounding: 'up', rounding_minutes: 60 },
] as const;

/** The page as the route sends it and as the reference presents it; the body must be the reference's bytes. */
async function compare(caller: Caller, path: string, name: 'time_entries' | 'projects', query: string) {
  const res = await request(ctx.app, caller, { method: 'GET', url: `/api/v2/${path}${query}` });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  const ref = await request(ctx.app, caller, { method: 'GET', url: `/api/v2/${path}${query}`, headers: { host: 'reference.test' } });
  expect(ref.statusCode, ref.body).toBe(200);
  const { items, total } = ref.json() as { items: string; total: number };
  const body = res.json() as Record<string, unknown>;
  const expected = JSON.parse(items) as Array<Record<string, unknown>>;
  const listed = body[name] as Array<Record<string, unknown>>;
  // Field by field first (a readable failure), then the bytes.
  expect(listed.length).toBe(expected.length);
  listed.forEach((entry, k) => {
    expect(Object.keys(entry)).toEqual(Object.keys(expected[k]));
    for (const key of Object.keys(expected[k])) expect([key, JSON.stringify(entry[key])]).toEqual([key, JSON.stringify(expected[k][key])]);
  });
  expect(body.total_entries).toBe(total);
  const { [name]: _, ...envelope } = body;
  expect(res.body).toBe(`{"${name}":${items},${JSON.stringify(envelope).slice(1)}`);
  return expected.length;
}

describe('GET /api/v2/time_entries: JSON from PostgreSQL, the bytes of presentEntry', () => {
  for (const rule of ROUNDING) {
    it(`every caller, rounding ${rule.rounding} ${rule.rounding_minutes}`, async () => {
      await setWorkspace(ctx.db, w.companyId, rule);
      let seen = 0;
      for (const name of CALLERS) seen += await compare(w[name], 'time_entries', 'time_entries', '?per_page=2000');
      expect(seen).toBeGreaterThan(200);
    });
  }

  it('counted pages, a filter, an empty page, and a timer read a little later', async () => {
    await setWorkspace(ctx.db, w.companyId, { rounding: 'nearest', rounding_minutes: 15 });
    for (const name of ['owner', 'manager', 'member', 'memberPersonal'] as const) {
      for (const query of ['?per_page=7&page=2', '?per_page=7&page=3', '?per_page=1', '?page=99&per_page=50', `?user_id=${w.mgrPlain.userId}`]) {
        if (name === 'memberPersonal' && query.startsWith('?user_id')) continue;
        await compare(w[name], 'time_entries', 'time_entries', query);
      }
    }
    ctx.clock.advance(499);
    await compare(w.owner, 'time_entries', 'time_entries', '?per_page=2000');
    ctx.clock.advance(501);
    await compare(w.owner, 'time_entries', 'time_entries', '?per_page=2000');
  });
});

describe('GET /api/v2/projects: JSON from PostgreSQL, the bytes of presentProject', () => {
  it('every caller, every budget kind, and counted pages', async () => {
    const callers = [...CALLERS.map((name) => w[name]), costManager, ratesManager];
    let seen = 0;
    for (const caller of callers) {
      seen += await compare(caller, 'projects', 'projects', '?per_page=2000');
      await compare(caller, 'projects', 'projects', '?per_page=5&page=2');
      await compare(caller, 'projects', 'projects', '?per_page=5&page=99');
      await compare(caller, 'projects', 'projects', '?is_active=false');
    }
    expect(seen).toBeGreaterThan(150);
  });

  it("the web app's search answers the same items", async () => {
    const session = await sessionFor(ctx.db, w.manager, ctx.clock.now());
    const web = await request(ctx.app, session, { method: 'GET', url: '/web/api/projects?per_page=2000' });
    const api = await request(ctx.app, w.manager, { method: 'GET', url: '/api/v2/projects?per_page=2000' });
    expect(web.statusCode, web.body).toBe(200);
    const items = (body: string) => body.slice(0, body.indexOf('],"per_page":') + 1);
    expect(items(web.body)).toBe(items(api.body));
    expect((web.json() as { projects: unknown[] }).projects.length).toBeGreaterThan(5);
  });
});
