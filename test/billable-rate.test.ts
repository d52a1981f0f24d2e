import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../src/db/tenant.ts';
import { billableRateSql } from '../src/modules/tracking/time/queries.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, type TestContext } from './helpers.ts';
import { insertClient, insertProject, insertRate, insertTask } from './fixtures/catalog.ts';

/**
 * The time entries price an insert with billableRateSql, the SQL function
 * billable_rate() written out so PostgreSQL can plan it once (docs/decisions.md,
 * "Time entries at scale"); reports and invoices call the function. The two must
 * agree for every bill_by, scope and date, or a report would price work
 * differently from the rate stored on its entry.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('billableRateSql', () => {
  it('agrees with billable_rate() for every bill_by, scope, date and billable flag', async () => {
    const { company } = await createWorkspaceWithOwner(ctx.db, 'Rates');
    const c = company.id;
    const people = [(await addMember(ctx.db, c, { role: 'member' })).userId, (await addMember(ctx.db, c, { role: 'member' })).userId];
    const client = await insertClient(ctx.db, c);
    const tasks = [await insertTask(ctx.db, c), await insertTask(ctx.db, c)];
    const projects = [
      await insertProject(ctx.db, c, client, { billBy: 'project' }),
      await insertProject(ctx.db, c, client, { billBy: 'tasks' }),
      await insertProject(ctx.db, c, client, { billBy: 'people' }),
      await insertProject(ctx.db, c, client, { billBy: 'none' }),
      await insertProject(ctx.db, c, client, { isBillable: false }),
    ];
    for (const [i, projectId] of projects.entries()) {
      await insertRate(ctx.db, c, { projectId }, '2026-01-01', `${100 + i}`);
      await insertRate(ctx.db, c, { projectId }, '2026-03-01', `${110 + i}`);
      await insertRate(ctx.db, c, { projectId, taskId: tasks[0] }, '2026-02-01', `${120 + i}.5`);
      await insertRate(ctx.db, c, { projectId, userId: people[0] }, '2026-02-15', `${130 + i}.25`);
    }
    await insertRate(ctx.db, c, { userId: people[0] }, '2026-01-10', '90');
    await insertRate(ctx.db, c, { userId: people[1] }, '2026-02-20', '95');

    const dates = ['2025-12-31', '2026-01-01', '2026-01-15', '2026-02-01', '2026-02-16', '2026-02-20', '2026-03-01', '2026-09-01'];
    let compared = 0;
    let priced = 0;
    await withTenant(ctx.db, c, async (trx) => {
      for (const projectId of projects) {
        for (const taskId of tasks) {
          for (const userId of people) {
            for (const date of dates) {
              for (const billable of [true, false]) {
                const work = { billable, projectId, taskId, userId, date };
                const { rows } = await sql<{ inline: string | null; fn: string | null }>`
                  select ${billableRateSql(c, work)} as inline,
                         case when ${billable} then billable_rate(${c}::uuid, ${projectId}::uuid, ${taskId}::uuid, ${userId}::uuid, ${date}::date) end as fn`.execute(trx);
                expect(rows[0].inline, JSON.stringify(work)).toBe(rows[0].fn);
                compared++;
                if (rows[0].fn !== null) priced++;
              }
            }
          }
        }
      }
    });
    expect(compared).toBe(5 * 2 * 2 * 8 * 2);
    expect(priced).toBeGreaterThan(50);
  });
});
