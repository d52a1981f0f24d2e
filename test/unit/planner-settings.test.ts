import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorPrincipal } from '../../src/access/operator.ts';
import type { Database } from '../../src/db/database.ts';
import { DEFAULT_DATABASE_TIMEOUTS } from '../../src/db/timeouts.ts';
import { readReport } from '../../src/modules/reports/reports/service.ts';
import { createWorkspace } from '../../src/provisioning.ts';
import { openTestDatabase } from '../helpers.ts';

/**
 * The planner's settings (docs/decisions.md, "Hot paths: the planner's page cost"): Sheaf's
 * connections price a random page read at 1.1, so a workspace of a few hundred people finds
 * the caller's key and membership by index; a report's transaction keeps PostgreSQL's 4, which
 * plans the reports' large joins faster, with JIT off and plans made for its own parameters.
 */
describe("the database planner's settings", () => {
  let database: Database;
  let companyId: string;
  const settings = sql<{ random_page_cost: string; jit: string; plan_cache_mode: string }>`
    select current_setting('random_page_cost') as random_page_cost, current_setting('jit') as jit,
      current_setting('plan_cache_mode') as plan_cache_mode`;

  beforeAll(async () => {
    database = await openTestDatabase();
    companyId = (await createWorkspace(database.db, { name: 'Planner' })).id;
  });
  afterAll(() => database.close());

  const report = (planned?: boolean) =>
    readReport({ db: database.db, timeouts: DEFAULT_DATABASE_TIMEOUTS, now: () => new Date() }, operatorPrincipal(companyId), async (trx) => (await settings.execute(trx)).rows[0], planned);

  it('price a random page read at 1.1 on every connection of the app', async () => {
    const rows = await Promise.all([1, 2, 3].map(async () => (await settings.execute(database.db)).rows[0]!.random_page_cost));
    expect(rows).toEqual(['1.1', '1.1', '1.1']);
  });

  it("give a report's transaction PostgreSQL's page cost, JIT off and plans for its own parameters", async () => {
    expect(await report()).toEqual({ random_page_cost: '4', jit: 'off', plan_cache_mode: 'force_custom_plan' });
  });

  it('give the page cost to a report planned as other statements are too, and end with its transaction', async () => {
    expect((await report(false))!.random_page_cost).toBe('4');
    expect((await settings.execute(database.db)).rows[0]!.random_page_cost).toBe('1.1');
  });
});
