import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../src/db/tenant.ts';
import { loadTimeSettings, withTimeSettings } from '../src/modules/tracking/week/index.ts';
import { createTestContext, createWorkspaceWithOwner, openTestDatabase, request, type TestContext } from './helpers.ts';
import { makeTimeWorkspace, postEntry, setNow, type TimeWorkspace } from './fixtures/catalog.ts';

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

/**
 * Through the API: the routes that read the settings with BEGIN present entries by them, on their
 * own transaction and inside an Idempotency-Key's shared one (where the settings ride with the
 * savepoint).
 */
describe('the time entry routes with the settings read with BEGIN', () => {
  let ctx: TestContext;
  let w: TimeWorkspace;

  beforeAll(async () => {
    ctx = await createTestContext();
    setNow(ctx.clock, '2026-06-10T10:00:00.000Z');
    w = await makeTimeWorkspace(ctx.db);
    await ctx.db.updateTable('companies').set({ rounding: 'up', rounding_minutes: 30 }).where('id', '=', w.companyId).execute();
  });
  afterAll(() => ctx.close());

  it('round by the workspace\'s rule in a list, a read and an update, with and without an Idempotency-Key', async () => {
    const created = await postEntry(ctx.app, w.member, { project_id: w.project, task_id: w.task, spent_date: '2026-06-08', hours: 0.2 });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const list = await request(ctx.app, w.member, { method: 'GET', url: '/api/v2/time_entries?from=2026-06-08&to=2026-06-08' });
    expect(list.json().time_entries.map((e: { id: string; rounded_hours: number }) => [e.id, e.rounded_hours])).toEqual([[id, 0.5]]);
    const read = await request(ctx.app, w.member, { method: 'GET', url: `/api/v2/time_entries/${id}` });
    expect(read.json()).toMatchObject({ hours: 0.2, rounded_hours: 0.5 });

    const headers = { 'idempotency-key': 'settings-with-begin-1' };
    const patched = await request(ctx.app, w.member, { method: 'PATCH', url: `/api/v2/time_entries/${id}`, payload: { hours: 0.7 }, headers });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ hours: 0.7, rounded_hours: 1 });
    const replayed = await request(ctx.app, w.member, { method: 'PATCH', url: `/api/v2/time_entries/${id}`, payload: { hours: 0.7 }, headers });
    expect(replayed.body).toBe(patched.body);
    const plain = await request(ctx.app, w.member, { method: 'PATCH', url: `/api/v2/time_entries/${id}`, payload: { hours: 1.2 } });
    expect(plain.json()).toMatchObject({ hours: 1.2, rounded_hours: 1.5 });
  });
});
