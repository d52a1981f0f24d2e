import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, type TestContext } from './helpers.ts';
import { assignTask, assignUser, insertClient, insertProject, insertTask } from './fixtures/catalog.ts';

/**
 * Migration 0040 corrects the rates the old code wrote at creation (from the
 * creation day, or a project's earlier start) so they apply from the start, as
 * the services now write them (issue 13 item 2), and re-reads the stored rate
 * of the unbilled entries they now price. The test shapes rows as the old code
 * wrote them, runs the migration's SQL again (it only moves rows still dated,
 * so it is safe to repeat) and checks what moved and what did not.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const MIGRATION = readFileSync(new URL('../src/db/migrations/0040_rates_from_the_start.sql', import.meta.url), 'utf8');
const AT = new Date('2026-03-10T09:00:00Z');
const later = (days: number, base = AT) => new Date(base.getTime() + days * 86_400_000);

describe('0040_rates_from_the_start', () => {
  it('moves rates given at creation to the start, keeps later and explicit ones, and re-reads unbilled entries', async () => {
    const { company, owner } = await createWorkspaceWithOwner(ctx.db, 'Old Rates');
    const c = company.id;
    const member = await addMember(ctx.db, c, { role: 'member' });
    const client = await insertClient(ctx.db, c);
    const task = await insertTask(ctx.db, c);

    const project = async (options: { billBy?: 'project' | 'tasks' | 'people'; startsOn?: string } = {}) => {
      const id = await insertProject(ctx.db, c, client, { billBy: options.billBy ?? 'project' });
      await sql`update projects set created_at = ${AT}, starts_on = ${options.startsOn ?? null}::date where id = ${id}`.execute(ctx.db);
      await assignTask(ctx.db, c, id, task);
      await sql`update project_task_assignments set created_at = ${AT} where project_id = ${id}`.execute(ctx.db);
      return id;
    };
    const rate = async (scope: { projectId?: string; taskId?: string; userId?: string }, from: string, value: string, createdAt: Date) => {
      const id = newId();
      await ctx.db
        .insertInto('rates')
        .values({ company_id: c, id, kind: 'billable', project_id: scope.projectId ?? null, task_id: scope.taskId ?? null, user_id: scope.userId ?? null, effective_from: from, hourly_rate: value, created_at: createdAt })
        .execute();
      return id;
    };
    const entry = async (projectId: string, date: string, options: { billed?: boolean; userId?: string } = {}) => {
      const id = newId();
      await ctx.db
        .insertInto('time_entries')
        .values({ company_id: c, id, user_id: options.userId ?? owner.userId, project_id: projectId, task_id: task, spent_date: date, duration_seconds: 3600, billable: true, source: 'api', is_billed: options.billed ?? false, billable_rate: null })
        .execute();
      return id;
    };

    // Created with a rate (from its creation day), changed later; backfilled work has no stored rate.
    const created = await project();
    const first = await rate({ projectId: created }, '2026-03-10', '100', later(0.0001));
    const change = await rate({ projectId: created }, '2026-04-01', '120', later(20));
    const backfilled = await entry(created, '2026-02-01');
    const billed = await entry(created, '2026-02-02', { billed: true });
    // Created with a rate from its earlier start date.
    const started = await project({ startsOn: '2026-01-01' });
    const fromStart = await rate({ projectId: started }, '2026-01-01', '90', later(0.0001));
    // A first rate given ten days after creation: a change, effective-dated.
    const late = await project();
    const lateRate = await rate({ projectId: late }, '2026-03-20', '80', later(10));
    const lateEntry = await entry(late, '2026-03-01');
    // Created with an explicit effective date (not the creation day): kept.
    const explicit = await project();
    const explicitRate = await rate({ projectId: explicit }, '2026-05-01', '70', later(0.0001));
    // A task assignment made 20 days later with its rate (bill_by tasks).
    const byTask = await project({ billBy: 'tasks' });
    await sql`update project_task_assignments set created_at = ${later(20)} where project_id = ${byTask}`.execute(ctx.db);
    const taskRate = await rate({ projectId: byTask, taskId: task }, '2026-03-30', '60', later(20.0001));
    const taskEntry = await entry(byTask, '2026-03-15');
    // A person assigned with a rate (bill_by people), and a person's default rate (never moved).
    const byPerson = await project({ billBy: 'people' });
    await assignUser(ctx.db, c, byPerson, member.userId);
    await sql`update project_user_assignments set created_at = ${later(5)} where project_id = ${byPerson}`.execute(ctx.db);
    const personRate = await rate({ projectId: byPerson, userId: member.userId }, '2026-03-15', '55', later(5.0001));
    const defaultRate = await rate({ userId: member.userId }, '2026-03-10', '40', later(0.0001));
    const personEntry = await entry(byPerson, '2026-01-05', { userId: member.userId });
    // A person assigned 5 days after a project that starts earlier, with a rate dated
    // from the project's start: the old code never chose that date for a later
    // assignment (only for rates written with the project), so it was explicit: kept.
    const startedByPerson = await project({ billBy: 'people', startsOn: '2026-01-01' });
    await assignUser(ctx.db, c, startedByPerson, member.userId);
    await sql`update project_user_assignments set created_at = ${later(5)} where project_id = ${startedByPerson}`.execute(ctx.db);
    const explicitPersonRate = await rate({ projectId: startedByPerson, userId: member.userId }, '2026-01-01', '50', later(5.0001));
    const untouched = await entry(created, '2026-04-02', { billed: true });
    await sql`update time_entries set updated_at = ${AT} where company_id = ${c}`.execute(ctx.db);

    for (let run = 0; run < 2; run++) await sql.raw(MIGRATION).execute(ctx.db);

    const rows = await ctx.db.selectFrom('rates').select(['id', 'effective_from']).where('company_id', '=', c).execute();
    const from = Object.fromEntries(rows.map((r) => [r.id, r.effective_from]));
    expect(from[first]).toBe('-infinity');
    expect(from[fromStart]).toBe('-infinity');
    expect(from[taskRate]).toBe('-infinity');
    expect(from[personRate]).toBe('-infinity');
    expect(from[change]).toBe('2026-04-01');
    expect(from[lateRate]).toBe('2026-03-20');
    expect(from[explicitRate]).toBe('2026-05-01');
    expect(from[defaultRate]).toBe('2026-03-10');
    expect(from[explicitPersonRate]).toBe('2026-01-01');

    const stored = async (id: string) =>
      (await ctx.db.selectFrom('time_entries').select('billable_rate').where('id', '=', id).executeTakeFirstOrThrow()).billable_rate;
    expect(await stored(backfilled)).toBe('100.00');
    expect(await stored(billed)).toBeNull(); // invoiced as it was
    expect(await stored(lateEntry)).toBeNull(); // the late first rate does not reach back
    expect(await stored(taskEntry)).toBe('60.00');
    expect(await stored(personEntry)).toBe('55.00');
    // a re-read rate is a change of the entry's body: updated_since must find it
    const touched = async (id: string) =>
      (await ctx.db.selectFrom('time_entries').select('updated_at').where('id', '=', id).executeTakeFirstOrThrow()).updated_at;
    expect((await touched(backfilled)).getTime()).toBeGreaterThan(AT.getTime());
    expect(await touched(untouched)).toEqual(AT);
  });
});
