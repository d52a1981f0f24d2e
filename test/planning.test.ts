import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEntryRow, makeTimeWorkspace, type TimeWorkspace } from './fixtures/catalog.ts';
import { addMember, createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * Planning (issue 26 item 2): assignments of people and placeholders (hours per day or a
 * total over working days), soft deletes, placeholders staffed by a person, the schedule's
 * planned hours against capacity, planned against tracked per project, the home page's
 * plan; bad input (negative hours, more than 24 a day) with nothing written; who may plan
 * which project; another workspace's ids.
 */

let ctx: TestContext;
let w: TimeWorkspace;
let foreign: TimeWorkspace;
const s: Record<'owner' | 'admin' | 'manager' | 'member', Caller> = {} as never;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeTimeWorkspace(ctx.db);
  foreign = await makeTimeWorkspace(ctx.db, { name: 'Elsewhere' });
  for (const who of ['owner', 'admin', 'manager', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
});
afterAll(() => ctx.close());

const web = (caller: Caller, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object) });

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ error, error_description: expect.any(String), ...(field ? { field } : {}) });
}

async function liveAssignments() {
  const r = await ctx.db.selectFrom('planning_assignments').select(sql<number>`count(*)::int`.as('n')).where('company_id', '=', w.companyId).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
  return r.n;
}

const cellOf = async (caller: Caller, rowKey: { user_id?: string; id?: string }, from = '2026-06-08', weeks = 2) => {
  const res = await web(caller, 'GET', `/web/api/schedule?from=${from}&weeks=${weeks}`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  const row = rowKey.user_id ? body.people.find((p: { user_id: string }) => p.user_id === rowKey.user_id) : body.placeholders.find((p: { id: string }) => p.id === rowKey.id);
  return { body, cells: row.cells as Array<{ planned_hours: number; capacity_hours: number }> };
};

describe('assignments', () => {
  it('plans hours per day and a total over working days; the schedule adds them up against capacity', async () => {
    await ctx.db.updateTable('memberships').set({ expected_weekly_hours: '40' }).where('company_id', '=', w.companyId).where('user_id', '=', w.other.userId).execute();
    const a = await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, user_id: w.other.userId, starts_on: '2026-06-08', ends_on: '2026-06-12', hours_per_day: 6 });
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json()).toMatchObject({ user_id: w.other.userId, placeholder_id: null, hours_per_day: 6, total_hours: null, project: { id: w.project } });
    const b = await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.managed, user_id: w.other.userId, starts_on: '2026-06-08', ends_on: '2026-06-19', total_hours: 30 });
    expect(b.statusCode, b.body).toBe(201);
    const { body, cells } = await cellOf(s.admin, { user_id: w.other.userId });
    expect(body.weeks).toEqual(['2026-06-08', '2026-06-15']);
    // Week 1: 5 × 6 + 15 (half of 30) = 45 against 40: over-allocated. Week 2: 15.
    expect(cells).toEqual([
      { planned_hours: 45, capacity_hours: 40 },
      { planned_hours: 15, capacity_hours: 40 },
    ]);
    // A holiday takes its day out of the capacity and out of the plan: the total spreads over
    // the nine other working days (3.33 a day), so the holiday week is not over-allocated.
    await ctx.db.insertInto('planning_time_off').values({ company_id: w.companyId, id: crypto.randomUUID(), user_id: null, kind: 'public_holiday', starts_on: '2026-06-19', ends_on: '2026-06-19', name: 'Test' }).execute();
    expect((await cellOf(s.admin, { user_id: w.other.userId })).cells).toEqual([
      { planned_hours: 46.67, capacity_hours: 40 },
      { planned_hours: 13.33, capacity_hours: 32 },
    ]);
    // Moved a week later (drag): 6 hours on each of its four working days; then resized (shorter range).
    const moved = await web(s.admin, 'PATCH', `/web/api/planning_assignments/${a.json().id}`, { starts_on: '2026-06-15', ends_on: '2026-06-19' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await cellOf(s.admin, { user_id: w.other.userId })).cells.map((c) => c.planned_hours)).toEqual([16.67, 37.33]);
    const resized = await web(s.admin, 'PATCH', `/web/api/planning_assignments/${a.json().id}`, { ends_on: '2026-06-16' });
    expect(resized.json()).toMatchObject({ starts_on: '2026-06-15', ends_on: '2026-06-16' });
    // Switching to a total clears hours_per_day.
    expect((await web(s.admin, 'PATCH', `/web/api/planning_assignments/${a.json().id}`, { total_hours: 10 })).json()).toMatchObject({ hours_per_day: null, total_hours: 10 });
  });

  it('counts the days before a first working pattern as Monday to Friday, as capacity does', async () => {
    const person = w.contractor.userId;
    await ctx.db.updateTable('memberships').set({ expected_weekly_hours: '40' }).where('company_id', '=', w.companyId).where('user_id', '=', person).execute();
    const plan = await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, user_id: person, starts_on: '2026-07-06', ends_on: '2026-07-10', hours_per_day: 4 });
    expect(plan.statusCode, plan.body).toBe(201);
    // A pattern from next year (Tuesday to Friday) changes nothing before it starts.
    const pattern = await web(s.admin, 'POST', '/web/api/working_patterns', { user_id: person, effective_from: '2027-01-04', monday: 0, tuesday: 8, wednesday: 8, thursday: 8, friday: 8 });
    expect(pattern.statusCode, pattern.body).toBe(201);
    expect((await cellOf(s.admin, { user_id: person }, '2026-07-06', 1)).cells).toEqual([{ planned_hours: 20, capacity_hours: 40 }]);
    const total = await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, user_id: person, starts_on: '2026-07-13', ends_on: '2026-07-17', total_hours: 10 });
    expect(total.statusCode, total.body).toBe(201);
    expect((await cellOf(s.admin, { user_id: person }, '2026-07-13', 1)).cells).toEqual([{ planned_hours: 10, capacity_hours: 40 }]);
    // From the pattern on, Monday is off: a plan of Monday alone plans nothing and is refused (a word the web app translates).
    const monday = await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, user_id: person, starts_on: '2027-01-04', ends_on: '2027-01-04', hours_per_day: 4 });
    expectError(monday, 400, 'invalid_request', 'ends_on');
    expect(monday.json().refusal).toBe('no_working_day');
    const crammed = await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, user_id: person, starts_on: '2027-01-05', ends_on: '2027-01-05', total_hours: 25 });
    expect(crammed.json()).toMatchObject({ field: 'total_hours', refusal: 'more_than_a_day', working_days: 1 });
  });

  it('puts no hours on whole days off, wherever plans are counted; a part-day off stays a working day', async () => {
    const person = (await addMember(ctx.db, w.companyId, { role: 'member', firstName: 'Vera' })).userId;
    await ctx.db.updateTable('memberships').set({ expected_weekly_hours: '40' }).where('company_id', '=', w.companyId).where('user_id', '=', person).execute();
    // Vacation Monday to Wednesday of the week of 2026-08-03 (recorded before the plan), two hours off on Thursday.
    const vacation = await web(s.admin, 'POST', '/web/api/time_off', { user_id: person, kind: 'vacation', starts_on: '2026-08-03', ends_on: '2026-08-05' });
    expect(vacation.statusCode, vacation.body).toBe(201);
    expect((await web(s.admin, 'POST', '/web/api/time_off', { user_id: person, kind: 'other', starts_on: '2026-08-06', ends_on: '2026-08-06', hours: 2 })).statusCode).toBe(201);
    // A plan on those three days alone plans nothing: refused, and nothing written.
    const before = await liveAssignments();
    const onVacation = await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, user_id: person, starts_on: '2026-08-03', ends_on: '2026-08-05', hours_per_day: 8 });
    expectError(onVacation, 400, 'invalid_request', 'ends_on');
    expect(onVacation.json().refusal).toBe('no_working_day');
    expect(await liveAssignments()).toBe(before);
    // 8 a day over the week: Thursday and Friday only. 30 in total over two weeks: over their seven working days.
    expect((await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, user_id: person, starts_on: '2026-08-03', ends_on: '2026-08-07', hours_per_day: 8 })).statusCode).toBe(201);
    expect((await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.managed, user_id: person, starts_on: '2026-08-03', ends_on: '2026-08-14', total_hours: 28 })).statusCode).toBe(201);
    // Week 1: 16 + 2 × 4 = 24 against 40 − 24 − 2 = 14; week 2: 5 × 4 = 20 against 40.
    expect((await cellOf(s.admin, { user_id: person }, '2026-08-03')).cells).toEqual([
      { planned_hours: 24, capacity_hours: 14 },
      { planned_hours: 20, capacity_hours: 40 },
    ]);
    // The schedule's second week alone still reads the first week's vacation to spread the total.
    expect((await cellOf(s.admin, { user_id: person }, '2026-08-10', 1)).cells).toEqual([{ planned_hours: 20, capacity_hours: 40 }]);
    // Planned vs tracked counts the same hours.
    const report = (await web(s.admin, 'GET', '/web/api/reports/planned_vs_tracked?from=2026-08-10&to=2026-08-16')).json();
    expect(report.projects.find((r: { project: { id: string } }) => r.project.id === w.managed)).toMatchObject({ planned_hours: 20 });
    // Time off recorded after the plan moves its hours too: Friday of week 2 off, the total spreads over six days.
    expect((await web(s.admin, 'POST', '/web/api/time_off', { user_id: person, kind: 'sick', starts_on: '2026-08-14', ends_on: '2026-08-14' })).statusCode).toBe(201);
    expect((await cellOf(s.admin, { user_id: person }, '2026-08-03')).cells).toEqual([
      { planned_hours: 25.33, capacity_hours: 14 },
      { planned_hours: 18.67, capacity_hours: 32 },
    ]);
  });

  it('refuses a placeholder without a name and weeks past 9999-12-31 with a 400, not the database’s 500', async () => {
    expectError(await web(s.admin, 'POST', '/web/api/planning_placeholders', { name: '   ' }), 400, 'invalid_request', 'name');
    const ph = (await web(s.admin, 'POST', '/web/api/planning_placeholders', { name: 'Writer' })).json();
    expectError(await web(s.admin, 'PATCH', `/web/api/planning_placeholders/${ph.id}`, { name: ' ' }), 400, 'invalid_request', 'name');
    expect((await web(s.admin, 'GET', '/web/api/planning_placeholders')).json().placeholders.find((p: { id: string }) => p.id === ph.id).name).toBe('Writer');
    expectError(await web(s.admin, 'GET', '/web/api/schedule?from=9999-12-20&weeks=12'), 400, 'invalid_request', 'from');
    expect((await web(s.admin, 'GET', '/web/api/schedule?from=9999-10-01&weeks=12')).statusCode).toBe(200);
  });

  it('soft-deletes: hidden from the planner, kept for the backup', async () => {
    const a = await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, user_id: w.member.userId, starts_on: '2026-07-06', ends_on: '2026-07-10', hours_per_day: 2 });
    const before = await liveAssignments();
    expect((await web(s.admin, 'DELETE', `/web/api/planning_assignments/${a.json().id}`)).statusCode).toBe(204);
    expect(await liveAssignments()).toBe(before - 1);
    const { body } = await cellOf(s.admin, { user_id: w.member.userId }, '2026-07-06', 1);
    expect(body.assignments.map((x: { id: string }) => x.id)).not.toContain(a.json().id);
    expectError(await web(s.admin, 'PATCH', `/web/api/planning_assignments/${a.json().id}`, { hours_per_day: 3 }), 404, 'not_found');
    const backup = (await request(ctx.app, w.owner, { method: 'GET', url: '/api/v2/backup/planning_assignments?per_page=500' })).json();
    expect(backup.records.find((r: { id: string }) => r.id === a.json().id)).toMatchObject({ deleted_at: expect.any(String), hours_per_day: '2.00' });
  });

  it('refuses bad plans with a 400 naming the field, and writes nothing', async () => {
    const before = await liveAssignments();
    const base = { project_id: w.project, user_id: w.member.userId, starts_on: '2026-08-03', ends_on: '2026-08-07' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, hours_per_day: -1 }, 'hours_per_day'],
      [{ ...base, hours_per_day: 25 }, 'hours_per_day'],
      [{ ...base, total_hours: 200 }, 'total_hours'],
      [{ ...base, total_hours: -5 }, 'total_hours'],
      [{ ...base, hours_per_day: 4, total_hours: 10 }, 'hours_per_day'],
      [{ ...base }, 'hours_per_day'],
      [{ ...base, ends_on: '2026-08-01', hours_per_day: 4 }, 'ends_on'],
      [{ ...base, starts_on: '2026-08-08', ends_on: '2026-08-09', total_hours: 4 }, 'ends_on'],
      [{ ...base, starts_on: '2026-08-08', ends_on: '2026-08-09', hours_per_day: 4 }, 'ends_on'],
      [{ ...base, hours_per_day: 0.001 }, 'hours_per_day'],
      [{ ...base, total_hours: 0.004 }, 'total_hours'],
      [{ ...base, placeholder_id: null, user_id: null, hours_per_day: 4 }, 'user_id'],
      [{ ...base, hours_per_day: '4' }, 'hours_per_day'],
      [{ ...base, hours_per_day: 4, colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const res = await web(s.admin, 'POST', '/web/api/planning_assignments', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field ?? res.json().error_description, JSON.stringify(body)).toContain(field);
    }
    expect(await liveAssignments()).toBe(before);
  });

  it('lets managers plan the projects they manage, and members only read their own plan', async () => {
    const managed = await web(s.manager, 'POST', '/web/api/planning_assignments', { project_id: w.managed, user_id: w.member.userId, starts_on: '2026-09-07', ends_on: '2026-09-11', hours_per_day: 3 });
    expect(managed.statusCode, managed.body).toBe(201);
    expectError(await web(s.manager, 'POST', '/web/api/planning_assignments', { project_id: w.project, user_id: w.member.userId, starts_on: '2026-09-07', ends_on: '2026-09-11', hours_per_day: 3 }), 403, 'forbidden');
    expectError(await web(s.member, 'POST', '/web/api/planning_assignments', { project_id: w.project, user_id: w.member.userId, starts_on: '2026-09-07', ends_on: '2026-09-11', hours_per_day: 3 }), 403, 'forbidden');
    expectError(await web(s.member, 'GET', '/web/api/schedule?from=2026-09-07'), 403, 'forbidden');
    const schedule = (await web(s.manager, 'GET', '/web/api/schedule?from=2026-09-07&weeks=1')).json();
    expect(schedule.assignments.find((x: { id: string }) => x.id === managed.json().id)).toMatchObject({ may_change: true });
    // What the planner's form offers a manager: the projects they plan, not the one they only work on.
    expect(schedule.plannable_project_ids).toContain(w.managed);
    expect(schedule.plannable_project_ids).not.toContain(w.project);
    expect((await web(s.admin, 'GET', '/web/api/schedule?from=2026-09-07&weeks=1')).json().plannable_project_ids).toBeNull();
  });

  it("gives 404 for another workspace's projects, people and assignments", async () => {
    const before = await liveAssignments();
    expectError(await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: foreign.project, user_id: w.member.userId, starts_on: '2026-08-03', ends_on: '2026-08-07', hours_per_day: 1 }), 404, 'not_found');
    expectError(await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, user_id: foreign.member.userId, starts_on: '2026-08-03', ends_on: '2026-08-07', hours_per_day: 1 }), 404, 'not_found');
    const theirs = await web(await sessionFor(ctx.db, foreign.owner, ctx.clock.now()), 'POST', '/web/api/planning_assignments', { project_id: foreign.project, user_id: foreign.member.userId, starts_on: '2026-08-03', ends_on: '2026-08-07', hours_per_day: 1 });
    expect(theirs.statusCode).toBe(201);
    expectError(await web(s.admin, 'PATCH', `/web/api/planning_assignments/${theirs.json().id}`, { hours_per_day: 2 }), 404, 'not_found');
    expectError(await web(s.admin, 'DELETE', `/web/api/planning_assignments/${theirs.json().id}`), 404, 'not_found');
    expect(await liveAssignments()).toBe(before);
  });
});

describe('placeholders', () => {
  it('plans a placeholder, then staffs it with a person: its assignments move to them', async () => {
    const ph = await web(s.admin, 'POST', '/web/api/planning_placeholders', { name: 'Senior designer', weekly_hours: 32 });
    expect(ph.statusCode, ph.body).toBe(201);
    const a = await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, placeholder_id: ph.json().id, starts_on: '2026-10-05', ends_on: '2026-10-09', hours_per_day: 4 });
    expect(a.statusCode, a.body).toBe(201);
    expect((await cellOf(s.admin, { id: ph.json().id }, '2026-10-05', 1)).cells).toEqual([{ planned_hours: 20, capacity_hours: 32 }]);
    const replaced = await web(s.admin, 'POST', `/web/api/planning_placeholders/${ph.json().id}/replace`, { user_id: w.contractor.userId });
    expect(replaced.json()).toEqual({ moved: 1 });
    const { body } = await cellOf(s.admin, { user_id: w.contractor.userId }, '2026-10-05', 1);
    expect(body.placeholders.map((p: { id: string }) => p.id)).not.toContain(ph.json().id);
    expect(body.assignments.find((x: { id: string }) => x.id === a.json().id)).toMatchObject({ user_id: w.contractor.userId, placeholder_id: null });
    expect((await web(s.admin, 'GET', '/web/api/planning_placeholders')).json().placeholders.find((p: { id: string }) => p.id === ph.json().id)).toMatchObject({ is_active: false });
  });
});

describe('people who left, agents and archived placeholders', () => {
  it('takes no new plans for them; plans made before stay rows of the planner (no capacity) until cleared', async () => {
    const leaver = await addMember(ctx.db, w.companyId, { role: 'member', firstName: 'Leo', lastName: 'Leaver' });
    const agent = await addMember(ctx.db, w.companyId, { role: 'member', userType: 'agent', firstName: 'Bot' });
    const plan = await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, user_id: leaver.userId, starts_on: '2026-09-07', ends_on: '2026-09-11', hours_per_day: 5 });
    expect(plan.statusCode, plan.body).toBe(201);
    await ctx.db.updateTable('memberships').set({ is_active: false }).where('company_id', '=', w.companyId).where('user_id', '=', leaver.userId).execute();
    const base = { project_id: w.project, starts_on: '2026-09-14', ends_on: '2026-09-18', hours_per_day: 4 };
    const refused = await web(s.admin, 'POST', '/web/api/planning_assignments', { ...base, user_id: leaver.userId });
    expectError(refused, 400, 'invalid_request', 'user_id');
    expect(refused.json().refusal).toBe('not_plannable');
    expectError(await web(s.admin, 'POST', '/web/api/planning_assignments', { ...base, user_id: agent.userId }), 400, 'invalid_request', 'user_id');
    // The leaver's plan: a row marked inactive, with no capacity, which the report's 25 hours match.
    const { body, cells } = await cellOf(s.admin, { user_id: leaver.userId }, '2026-09-07', 1);
    expect(body.people.find((p: { user_id: string }) => p.user_id === leaver.userId)).toMatchObject({ is_active: false });
    expect(cells).toEqual([{ planned_hours: 25, capacity_hours: 0 }]);
    expect(body.assignments.map((a: { id: string }) => a.id)).toContain(plan.json().id);
    // Not a row in weeks without their plans.
    expect((await web(s.admin, 'GET', '/web/api/schedule?from=2026-10-05&weeks=1')).json().people.map((p: { user_id: string }) => p.user_id)).not.toContain(leaver.userId);
    // It can be shortened and deleted, not given to them anew.
    expect((await web(s.admin, 'PATCH', `/web/api/planning_assignments/${plan.json().id}`, { ends_on: '2026-09-08' })).statusCode).toBe(200);
    expectError(await web(s.admin, 'PATCH', `/web/api/planning_assignments/${plan.json().id}`, { user_id: agent.userId }), 400, 'invalid_request', 'user_id');
    expect((await web(s.admin, 'DELETE', `/web/api/planning_assignments/${plan.json().id}`)).statusCode).toBe(204);
  });

  it('an archived placeholder takes no new plans; only who plans all its projects may archive it', async () => {
    const ph = (await web(s.admin, 'POST', '/web/api/planning_placeholders', { name: 'Junior dev' })).json();
    const plan = await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, placeholder_id: ph.id, starts_on: '2026-09-21', ends_on: '2026-09-25', hours_per_day: 6 });
    expect(plan.statusCode, plan.body).toBe(201);
    // The manager does not plan that project: archiving would hide the administrator's plan.
    expectError(await web(s.manager, 'PATCH', `/web/api/planning_placeholders/${ph.id}`, { is_active: false }), 403, 'forbidden');
    expect((await web(s.admin, 'PATCH', `/web/api/planning_placeholders/${ph.id}`, { is_active: false })).statusCode).toBe(200);
    expectError(
      await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, placeholder_id: ph.id, starts_on: '2026-09-28', ends_on: '2026-10-02', hours_per_day: 6 }),
      400,
      'invalid_request',
      'placeholder_id',
    );
    const { body, cells } = await cellOf(s.admin, { id: ph.id }, '2026-09-21', 1);
    expect(body.placeholders.find((p: { id: string }) => p.id === ph.id)).toMatchObject({ is_active: false });
    expect(cells).toEqual([{ planned_hours: 30, capacity_hours: 40 }]);
  });
});

describe('planned against tracked, and the home page', () => {
  it('shows per project the planned hours beside the tracked ones', async () => {
    await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, user_id: w.member.userId, starts_on: '2026-11-02', ends_on: '2026-11-06', hours_per_day: 2 });
    await insertEntryRow(ctx.db, w.companyId, { userId: w.member.userId, projectId: w.project, taskId: w.task, spentDate: '2026-11-03', seconds: 3 * 3600 });
    const res = await web(s.admin, 'GET', '/web/api/reports/planned_vs_tracked?from=2026-11-02&to=2026-11-08');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().projects.find((r: { project: { id: string } }) => r.project.id === w.project)).toMatchObject({ planned_hours: 10, tracked_hours: 3, difference_hours: -7 });
    expectError(await web(s.member, 'GET', '/web/api/reports/planned_vs_tracked?from=2026-11-02&to=2026-11-08'), 403, 'forbidden');
    // The manager sees the projects they manage only.
    const mine = (await web(s.manager, 'GET', '/web/api/reports/planned_vs_tracked?from=2026-11-02&to=2026-11-08')).json().projects;
    expect(mine.map((r: { project: { id: string } }) => r.project.id)).not.toContain(w.project);
    // Tracked hours are rounded per entry by the workspace's rule, as in every report: 6 minutes rounded up to 15.
    await ctx.db.updateTable('companies').set({ rounding: 'up', rounding_minutes: 15 }).where('id', '=', w.companyId).execute();
    await insertEntryRow(ctx.db, w.companyId, { userId: w.member.userId, projectId: w.project, taskId: w.task, spentDate: '2026-11-04', seconds: 360 });
    const rounded = (await web(s.admin, 'GET', '/web/api/reports/planned_vs_tracked?from=2026-11-02&to=2026-11-08')).json();
    expect(rounded.projects.find((r: { project: { id: string } }) => r.project.id === w.project)).toMatchObject({ planned_hours: 10, tracked_hours: 3.25, difference_hours: -6.75 });
    await ctx.db.updateTable('companies').set({ rounding: 'none' }).where('id', '=', w.companyId).execute();
  });

  it("shows a member this week's plan on the home page", async () => {
    const today = new Date(ctx.clock.now());
    const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    const sunday = new Date(Date.parse(monday) + 6 * 86_400_000).toISOString().slice(0, 10);
    await web(s.admin, 'POST', '/web/api/planning_assignments', { project_id: w.project, user_id: w.member.userId, starts_on: monday, ends_on: sunday, hours_per_day: 5 });
    const home = (await web(s.member, 'GET', '/web/api/home')).json();
    // The weekend is no working day: nothing planned on it.
    expect(home.plan.find((x: { project: { id: string } }) => x.project.id === w.project)?.planned_hours).toBe(25);
  });
});

describe("the workspace's weeks (week_start)", () => {
  /** A workspace whose weeks start on `weekStart`, with its administrator's and a member's sessions. */
  async function workspaceStarting(weekStart: 'sunday' | 'saturday') {
    const ws = await makeTimeWorkspace(ctx.db, { name: `Weeks from ${weekStart}` });
    await ctx.db.updateTable('companies').set({ week_start: weekStart }).where('id', '=', ws.companyId).execute();
    return { ws, admin: await sessionFor(ctx.db, ws.admin, ctx.clock.now()), member: await sessionFor(ctx.db, ws.member, ctx.clock.now()) };
  }
  const scheduleIn = async (caller: Caller, from: string, weeks: number) => {
    const res = await web(caller, 'GET', `/web/api/schedule?from=${from}&weeks=${weeks}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const cellsOf = (body: { people: Array<{ user_id: string; cells: unknown }> }, userId: string) => body.people.find((p) => p.user_id === userId)!.cells;

  it('a Sunday-start workspace: columns run Sunday to Saturday, a mid-week from snaps to its Sunday, plans and patterns counted per such week', async () => {
    const { ws, admin } = await workspaceStarting('sunday');
    const person = ws.other.userId;
    // Sunday 4 hours and Monday to Thursday 8 (36 a week); from Sunday 14 June Monday to Friday 8 (40).
    const week = { sunday: 0, monday: 8, tuesday: 8, wednesday: 8, thursday: 8, friday: 8, saturday: 0 };
    for (const [effective_from, days] of [['2026-01-04', { ...week, sunday: 4, friday: 0 }], ['2026-06-14', week]] as const) {
      const pattern = await web(admin, 'POST', '/web/api/working_patterns', { user_id: person, effective_from, ...days });
      expect(pattern.statusCode, pattern.body).toBe(201);
    }
    // 2 a working day from Sunday 7 to Saturday 13 June: Sunday and Monday to Thursday, all in the first column.
    // 9 in total from Thursday 11 to Tuesday 16: Thursday, Monday and Tuesday (Sunday 14 is off by then), 3 each.
    for (const plan of [
      { starts_on: '2026-06-07', ends_on: '2026-06-13', hours_per_day: 2 },
      { starts_on: '2026-06-11', ends_on: '2026-06-16', total_hours: 9 },
    ]) {
      const res = await web(admin, 'POST', '/web/api/planning_assignments', { project_id: ws.project, user_id: person, ...plan });
      expect(res.statusCode, res.body).toBe(201);
    }
    const body = await scheduleIn(admin, '2026-06-10', 2); // a Wednesday
    expect(body.weeks).toEqual(['2026-06-07', '2026-06-14']);
    expect(cellsOf(body, person)).toEqual([
      { planned_hours: 13, capacity_hours: 36 },
      { planned_hours: 6, capacity_hours: 40 },
    ]);
    // A Saturday asks for the same week; the next Sunday for the next one.
    expect((await scheduleIn(admin, '2026-06-13', 1)).weeks).toEqual(['2026-06-07']);
    expect((await scheduleIn(admin, '2026-06-14', 1)).weeks).toEqual(['2026-06-14']);
    // A placeholder's weekly hours are each column's capacity.
    const ph = (await web(admin, 'POST', '/web/api/planning_placeholders', { name: 'Tester', weekly_hours: 20 })).json();
    expect((await scheduleIn(admin, '2026-06-10', 2)).placeholders.find((p: { id: string }) => p.id === ph.id).cells).toEqual([
      { planned_hours: 0, capacity_hours: 20 },
      { planned_hours: 0, capacity_hours: 20 },
    ]);
    // The week holding 0001-01-01 starts in year 0, which no date holds: a 400, not the database's 500.
    expectError(await web(admin, 'GET', '/web/api/schedule?from=0001-01-01&weeks=1'), 400, 'invalid_request', 'from');
    expect((await web(admin, 'GET', '/web/api/schedule?from=0001-01-07&weeks=1')).statusCode).toBe(200);
  });

  it('a Saturday-start workspace: columns run Saturday to Friday; the home page plans the same week as the planner', async () => {
    const { ws, admin, member } = await workspaceStarting('saturday');
    const person = ws.member.userId;
    // Saturday and Monday to Friday, 8 hours each: 48 in every Saturday-to-Friday week.
    const pattern = await web(admin, 'POST', '/web/api/working_patterns', {
      user_id: person,
      effective_from: '2026-01-03',
      saturday: 8, sunday: 0, monday: 8, tuesday: 8, wednesday: 8, thursday: 8, friday: 8,
    });
    expect(pattern.statusCode, pattern.body).toBe(201);
    // Time off on Saturday 13 June: the second column's capacity, not the first's (a Monday column would hold it with 8 to 12 June).
    expect((await web(admin, 'POST', '/web/api/time_off', { user_id: person, kind: 'vacation', starts_on: '2026-06-13', ends_on: '2026-06-13' })).statusCode).toBe(201);
    // 1 a working day from Friday 12 to Monday 15 June: Friday in the first column, Monday in the second (Saturday is off, Sunday no working day).
    expect((await web(admin, 'POST', '/web/api/planning_assignments', { project_id: ws.project, user_id: person, starts_on: '2026-06-12', ends_on: '2026-06-15', hours_per_day: 1 })).statusCode).toBe(201);
    const body = await scheduleIn(admin, '2026-06-10', 2); // a Wednesday: its week began on Saturday 6 June
    expect(body.weeks).toEqual(['2026-06-06', '2026-06-13']);
    expect(cellsOf(body, person)).toEqual([
      { planned_hours: 1, capacity_hours: 48 },
      { planned_hours: 1, capacity_hours: 40 },
    ]);

    // This week: 2 hours a working day from the Friday before the week to its Saturday, which the home page and the planner both count once (the Saturday).
    const today = ctx.clock.now().toISOString().slice(0, 10);
    const saturday = new Date(Date.parse(today) - ((new Date(today).getUTCDay() + 1) % 7) * 86_400_000).toISOString().slice(0, 10);
    const friday = new Date(Date.parse(saturday) - 86_400_000).toISOString().slice(0, 10);
    expect((await web(admin, 'POST', '/web/api/planning_assignments', { project_id: ws.managed, user_id: person, starts_on: friday, ends_on: saturday, hours_per_day: 2 })).statusCode).toBe(201);
    const home = (await web(member, 'GET', '/web/api/home')).json();
    expect(home.week.from).toBe(saturday);
    expect(home.plan.find((x: { project: { id: string } }) => x.project.id === ws.managed)?.planned_hours).toBe(2);
    // The planner's column of today (asked for by today, as its "This week" does): the same 2 hours (Monday columns would add the Friday).
    const thisWeek = await scheduleIn(admin, today, 1);
    expect(thisWeek.weeks).toEqual([saturday]);
    expect(cellsOf(thisWeek, person)).toMatchObject([{ planned_hours: 2 }]);
  });
});
