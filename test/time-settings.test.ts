import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../src/db/tenant.ts';
import { loadTimeSettings, withTimeSettings } from '../src/modules/tracking/week/index.ts';
import { createWorkspaceWithOwner, openTestDatabase } from './helpers.ts';

/**
 * withTimeSettings reads the workspace's time settings in the transaction's first statement
 * (as JSON, with BEGIN): the same values, of the same JavaScript types, as loadTimeSettings
 * reads in a query of its own, which the presenters, week bounds and rounding rely on.
 */
describe('the time settings read with the transaction\'s first statement', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let companyId: string;
  let otherId: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    ({ company: { id: companyId } } = await createWorkspaceWithOwner(database.db, 'Zeitwerk'));
    ({ company: { id: otherId } } = await createWorkspaceWithOwner(database.db, 'Other'));
    await database.db
      .updateTable('companies')
      .set({ timezone: 'Pacific/Chatham', week_start: 'saturday', rounding: 'up', rounding_minutes: 6, allow_past_timer_starts: true })
      .where('id', '=', companyId)
      .execute();
  });
  afterAll(() => database.close());

  it('are loadTimeSettings\' values, for settings changed from the defaults and for the defaults', async () => {
    for (const id of [companyId, otherId]) {
      const alone = await withTenant(database.db, id, (trx) => loadTimeSettings(trx, id));
      const withBegin = await withTimeSettings(database.db, id, async (_trx, settings) => settings);
      expect(withBegin).toStrictEqual(alone);
    }
    expect(await withTimeSettings(database.db, companyId, async (_trx, settings) => settings)).toStrictEqual({
      timezone: 'Pacific/Chatham',
      week_start: 'saturday',
      rounding: 'up',
      rounding_minutes: 6,
      allow_past_timer_starts: true,
    });
  });

  it('are the workspace\'s of the transaction, which the rest of it sees alone', async () => {
    const seen = await withTimeSettings(database.db, otherId, async (trx, settings) => ({
      settings,
      visible: await trx.selectFrom('companies').select('id').execute(),
    }));
    expect(seen.settings.timezone).not.toBe('Pacific/Chatham');
    expect(seen.visible.map((c) => c.id)).toEqual([otherId]);
  });
});
