import { capacityByDay } from '../src/modules/planning/capacity/rules.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { DB } from '../src/db/types.ts';
import { newId } from '../src/ids.ts';
import { budgetLevel, perCurrency, weekOf } from '../src/modules/reports/home/rules.ts';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { assignTask, assignUser, insertClient, insertEntryRow, insertProject, insertRate, insertTask, makeTimeWorkspace, setNow, setWorkspace, type TimeWorkspace } from './fixtures/catalog.ts';

/**
 * The home page's route (issue 21 item 9): GET /web/api/home. Each role gets only its
 * sections (absent, not zeros); a member's answer holds no money; amounts per currency;
 * budgets at 80 % and 100 % of the projects the caller watches, money budgets only with
 * their permission; the week by the workspace's week_start and zone, across a DST change;
 * nothing of another workspace.
 */

let ctx: TestContext;
let w: TimeWorkspace;
let foreign: TimeWorkspace;
const s: Record<'owner' | 'admin' | 'manager' | 'mgrPlain' | 'member' | 'other' | 'foreignOwner', Caller> = {} as never;
const ids: Record<string, string> = {};

const home = async (caller: Caller) => {
  const res = await request(ctx.app, caller, { method: 'GET', url: '/web/api/home' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, any>;
};

async function invoice(db: Kysely<DB>, companyId: string, clientId: string, o: { state: 'open' | 'draft' | 'paid'; due: string; currency: string; amount: string; paid?: string }) {
  const id = newId();
  await db
    .insertInto('invoices')
    .values({ company_id: companyId, id, client_id: clientId, number: `N-${id.slice(-8)}`, state: o.state, issue_date: '2025-12-01', due_date: o.due, currency: o.currency })
    .execute();
  await db.insertInto('invoice_line_items').values({ company_id: companyId, id: newId(), invoice_id: id, kind: 'Service', quantity: '1', unit_price: o.amount }).execute();
  if (o.paid) await db.insertInto('invoice_payments').values({ company_id: companyId, id: newId(), invoice_id: id, amount: o.paid as never, paid_date: '2026-03-01' }).execute();
}

beforeAll(async () => {
  ctx = await createTestContext();
  const db = ctx.db;
  // Monday 30 March 2026, 00:30 in Berlin (still Sunday 29 March in UTC); the clocks moved to summer time on the 29th.
  setNow(ctx.clock, '2026-03-29T22:30:00Z');
  w = await makeTimeWorkspace(db, { name: 'Home Co', timezone: 'Europe/Berlin' });
  foreign = await makeTimeWorkspace(db, { name: 'Elsewhere' });
  const c = w.companyId;
  await setWorkspace(db, c, { week_start: 'sunday', approvals_enabled: true, currency: 'EUR' });
  await db.updateTable('memberships').set({ expected_weekly_hours: '37.5' as never }).where('company_id', '=', c).where('user_id', '=', w.member.userId).execute();

  // The member's week (Sunday 29 March .. Saturday 4 April) and around it.
  const entry = (who: Caller, projectId: string, taskId: string, spentDate: string, seconds: number, extra: Partial<Parameters<typeof insertEntryRow>[2]> = {}) =>
    insertEntryRow(db, c, { userId: who.userId, projectId, taskId, spentDate, seconds, ...extra });
  await entry(w.member, w.project, w.task, '2026-03-28', 3600, { createdAt: new Date('2026-03-28T10:00:00Z') }); // the Saturday before
  await entry(w.member, w.project, w.task, '2026-03-29', 3600, { createdAt: new Date('2026-03-29T10:00:00Z') });
  await entry(w.member, w.managed, w.managedTask, '2026-03-29', 7200, { createdAt: new Date('2026-03-29T12:00:00Z') });
  await insertEntryRow(db, c, { userId: w.member.userId, projectId: w.project, taskId: w.task, spentDate: '2026-03-29', seconds: 600, running: new Date('2026-03-29T22:20:00Z') });
  await db.updateTable('time_entries').set({ notes: 'Release notes' }).where('company_id', '=', c).where('spent_date', '=', '2026-03-28').execute();

  // An archived project's work is not offered again.
  const archived = await insertProject(db, c, w.clientId, { name: 'Archived work' });
  await assignTask(db, c, archived, w.task);
  await assignUser(db, c, archived, w.member.userId);
  await entry(w.member, archived, w.task, '2026-03-27', 3600, { createdAt: new Date('2026-03-29T20:00:00Z') });
  await db.updateTable('projects').set({ is_active: false }).where('id', '=', archived).execute();

  // Submitted weeks: the member's two (the manager's teammate), Otto's one on the managed project (the manager lacks approve_managed_projects).
  await entry(w.member, w.project, w.task, '2026-03-02', 3600, { approval: 'submitted' });
  await entry(w.member, w.project, w.task, '2026-03-10', 3600, { approval: 'submitted' });
  await entry(w.other, w.managed, w.managedTask, '2026-03-10', 3600, { approval: 'submitted' });

  // Budgets: hours at 150 % and 85 %, one at 10 %, a cost budget at 125 %, an archived one over.
  const budgeted = async (name: string, budgetBy: 'project' | 'project_cost', budget: string, hours: number, isActive = true) => {
    const id = await insertProject(db, c, w.clientId, { name, budgetBy, budget, isBillable: false });
    await assignTask(db, c, id, w.task);
    if (hours) await entry(w.other, id, w.task, '2026-03-05', hours * 3600);
    if (!isActive) await db.updateTable('projects').set({ is_active: false }).where('id', '=', id).execute();
    return (ids[name] = id);
  };
  await budgeted('Hours 150', 'project', '2', 3);
  await budgeted('Hours 85', 'project', '10', 8.5);
  await budgeted('Hours 10', 'project', '100', 10 / 10);
  await budgeted('Cost 125', 'project_cost', '120', 3);
  await budgeted('Archived over', 'project', '1', 2, false);
  await db.insertInto('rates').values({ company_id: c, id: newId(), kind: 'cost', project_id: null, task_id: null, user_id: w.other.userId, effective_from: '2020-01-01', hourly_rate: '50' as never }).execute();
  await assignUser(db, c, ids['Hours 85'], w.manager.userId, { manager: true });
  await assignUser(db, c, ids['Cost 125'], w.manager.userId, { manager: true });
  await assignUser(db, c, ids['Hours 150'], w.mgrPlain.userId, { manager: true });
  await assignUser(db, c, ids['Cost 125'], w.mgrPlain.userId, { manager: true });

  // Uninvoiced (approved, billable): 2 h at 100 EUR on the main project, 1 h at 5000 JPY for a JPY client.
  await insertRate(db, c, { projectId: w.project }, '2020-01-01', '100');
  const nippon = await insertClient(db, c, 'Nippon');
  await db.updateTable('clients').set({ currency: 'JPY' }).where('id', '=', nippon).execute();
  const tokyo = await insertProject(db, c, nippon, { name: 'Tokyo office' });
  const tokyoTask = await insertTask(db, c, { name: 'Consulting' });
  await assignTask(db, c, tokyo, tokyoTask);
  await insertRate(db, c, { projectId: tokyo }, '2020-01-01', '5000');
  await entry(w.admin, w.project, w.task, '2026-02-10', 7200, { approval: 'approved' });
  await entry(w.admin, tokyo, tokyoTask, '2026-02-11', 3600, { approval: 'approved' });

  // Invoices: overdue EUR 100 and 50 − 20 paid, USD 70; not overdue: due later, a draft, a paid one.
  await invoice(db, c, w.clientId, { state: 'open', due: '2026-03-01', currency: 'EUR', amount: '100' });
  await invoice(db, c, w.clientId, { state: 'open', due: '2026-03-10', currency: 'EUR', amount: '50', paid: '20' });
  await invoice(db, c, w.clientId, { state: 'open', due: '2026-03-29', currency: 'USD', amount: '70' });
  await invoice(db, c, w.clientId, { state: 'open', due: '2026-03-30', currency: 'EUR', amount: '999' });
  await invoice(db, c, w.clientId, { state: 'draft', due: '2026-03-01', currency: 'EUR', amount: '999' });
  await invoice(db, c, w.clientId, { state: 'paid', due: '2026-03-01', currency: 'EUR', amount: '999' });

  // Another workspace with all of it too: none of it may show here.
  const f = foreign.companyId;
  await setWorkspace(db, f, { approvals_enabled: true });
  await invoice(db, f, foreign.clientId, { state: 'open', due: '2026-01-01', currency: 'EUR', amount: '5000' });
  const foreignOver = await insertProject(db, f, foreign.clientId, { name: 'Foreign over budget', budgetBy: 'project', budget: '1' });
  await insertEntryRow(db, f, { userId: foreign.member.userId, projectId: foreignOver, taskId: foreign.task, spentDate: '2026-03-05', seconds: 7200, approval: 'submitted' });
  await insertEntryRow(db, f, { userId: foreign.owner.userId, projectId: foreign.project, taskId: foreign.task, spentDate: '2026-03-29', seconds: 7200 });

  const now = ctx.clock.now();
  for (const name of ['owner', 'admin', 'manager', 'mgrPlain', 'member', 'other'] as const) s[name] = await sessionFor(db, w[name], now);
  s.foreignOwner = await sessionFor(db, foreign.owner, now);
});
afterAll(() => ctx.close());

describe('GET /web/api/home', () => {
  it('needs a browser session: no credential 401, an API key 403', async () => {
    expect((await request(ctx.app, null, { method: 'GET', url: '/web/api/home' })).statusCode).toBe(401);
    const res = await request(ctx.app, w.owner, { method: 'GET', url: '/web/api/home' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('session_required');
  });

  it('a member gets the week and recent work only, and no money', async () => {
    const body = await home(s.member);
    expect(Object.keys(body).sort()).toEqual(['plan', 'recent', 'today', 'week']);
    expect(JSON.stringify(body)).not.toMatch(/amount|budget|currency|invoice/);
  });

  it('the week follows week_start and the zone across a DST change, with expected hours spread over Monday to Friday', async () => {
    const { today, week } = await home(s.member);
    expect(today).toBe('2026-03-30'); // Berlin, not UTC's 29th
    expect(week).toMatchObject({ from: '2026-03-29', to: '2026-04-04', week_start: 'sunday', timezone: 'Europe/Berlin', expected_hours: 37.5 });
    expect(week.days.map((d: { date: string }) => d.date)).toEqual(['2026-03-29', '2026-03-30', '2026-03-31', '2026-04-01', '2026-04-02', '2026-04-03', '2026-04-04']);
    expect(week.days.map((d: { expected_hours: number }) => d.expected_hours)).toEqual([0, 7.5, 7.5, 7.5, 7.5, 7.5, 0]);
    // Completed time of the week only: the Saturday before and the running timer are not in it.
    expect(week.days[0].tracked_seconds).toBe(10800);
    expect(week.tracked_seconds).toBe(10800);
  });

  it('expected hours are null for a person without expected_weekly_hours', async () => {
    const { week } = await home(s.owner);
    expect(week.expected_hours).toBeNull();
    expect(week.days.every((d: { expected_hours: null }) => d.expected_hours === null)).toBe(true);
  });

  it('recent work: distinct project, task and notes, newest first, only where a timer can start again', async () => {
    const { recent } = await home(s.member);
    expect(recent.map((r: { project_name: string; task_name: string; notes: string | null }) => [r.project_name, r.task_name, r.notes])).toEqual([
      ['Managed project', 'Design', null],
      ['Main project', 'Development', null],
      ['Main project', 'Development', 'Release notes'],
    ]);
    expect(recent[0]).toMatchObject({ project_id: w.managed, task_id: w.managedTask, client_name: expect.any(String), last_date: '2026-03-29' });
  });

  it('a manager gets approvals and the budgets of managed projects, hours ones without the cost permission; no billing', async () => {
    const body = await home(s.manager);
    expect(Object.keys(body).sort()).toEqual(['approvals', 'budgets', 'plan', 'recent', 'today', 'week']);
    expect(body.approvals).toEqual({ weeks: 2, people: 1 });
    expect(body.budgets).toEqual({
      count: 1,
      projects: [expect.objectContaining({ project_id: ids['Hours 85'], budget_by: 'project', budget: 10, budget_spent: 8.5, percent: 85, level: 'over_80' })],
    });
  });

  it('a manager without any flag still watches hours budgets of managed projects, never a money one', async () => {
    const body = await home(s.mgrPlain);
    expect(body.approvals).toEqual({ weeks: 0, people: 0 });
    expect(body.budgets.projects.map((p: { project_name: string }) => p.project_name)).toEqual(['Hours 150']);
    expect(body.budgets.projects[0]).toMatchObject({ percent: 150, level: 'over_100' });
    expect(body.uninvoiced).toBeUndefined();
  });

  it('owners and administrators get everything: all budgets, uninvoiced and overdue amounts per currency', async () => {
    for (const caller of [s.owner, s.admin]) {
      const body = await home(caller);
      expect(Object.keys(body).sort()).toEqual(['approvals', 'budgets', 'overdue_invoices', 'plan', 'recent', 'today', 'uninvoiced', 'week']);
      expect(body.approvals).toEqual({ weeks: 3, people: 2 });
      expect(body.budgets.count).toBe(3);
      expect(body.budgets.projects.map((p: { project_name: string; level: string; percent: number }) => [p.project_name, p.level, p.percent])).toEqual([
        ['Hours 150', 'over_100', 150],
        ['Cost 125', 'over_100', 125],
        ['Hours 85', 'over_80', 85],
      ]);
      expect(body.uninvoiced).toEqual({ from: '2025-03-30', to: '2026-03-30', amounts: [{ currency: 'EUR', amount: 200 }, { currency: 'JPY', amount: 5000 }] });
      expect(body.overdue_invoices).toEqual({
        count: 3,
        amounts: [
          { currency: 'EUR', amount: 130, count: 2 },
          { currency: 'USD', amount: 70, count: 1 },
        ],
      });
    }
  });

  it('shows nothing of another workspace, and the other workspace sees nothing of this one', async () => {
    const body = JSON.stringify(await home(s.owner));
    expect(body).not.toContain('Foreign over budget');
    expect(body).not.toContain('5000,"count"');
    const theirs = await home(s.foreignOwner);
    expect(theirs.approvals).toEqual({ weeks: 1, people: 1 });
    expect(theirs.budgets.projects.map((p: { project_name: string }) => p.project_name)).toEqual(['Foreign over budget']);
    expect(theirs.overdue_invoices).toEqual({ count: 1, amounts: [{ currency: 'EUR', amount: 5000, count: 1 }] });
    expect(theirs.uninvoiced.amounts).toEqual([]);
    expect(theirs.week.tracked_seconds).toBe(7200);
  });
});

describe('home rules', () => {
  it('a Saturday week start, and no expected hours', () => {
    const week = weekOf('2026-03-30', 'saturday', new Map([['2026-03-28', 60]]), capacityByDay({ patterns: [], fallbackWeekly: '40', timeOff: [] }, '2026-03-28', '2026-04-03'));
    expect(week).toMatchObject({ from: '2026-03-28', to: '2026-04-03', tracked_seconds: 60, expected_hours: 40 });
    expect(weekOf('2026-03-30', 'monday', new Map(), null)).toMatchObject({ from: '2026-03-30', expected_hours: null });
  });

  it('budget levels at exactly 80 % and 100 %', () => {
    expect(budgetLevel('10', '7.99')).toBeNull();
    expect(budgetLevel('10', '8')).toEqual({ level: 'over_80', percent: 80 });
    expect(budgetLevel('10', '10')).toEqual({ level: 'over_100', percent: 100 });
    expect(budgetLevel('0', '5')).toBeNull();
    expect(budgetLevel(null, '5')).toBeNull();
  });

  it('sums per currency exactly, never across currencies', () => {
    expect(perCurrency([{ currency: 'EUR', amount: '0.1' }, { currency: 'USD', amount: '1' }, { currency: 'EUR', amount: '0.2' }])).toEqual([
      { currency: 'EUR', amount: 0.3, count: 2 },
      { currency: 'USD', amount: 1, count: 1 },
    ]);
  });
});
