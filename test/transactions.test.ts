import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { withTenant } from '../src/db/tenant.ts';
import { newId } from '../src/ids.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { createTestContext, openTestDatabase, onPostgres, type TestContext } from './helpers.ts';
import { makeTimeWorkspace, postEntry, setNow, type TimeWorkspace } from './fixtures/catalog.ts';
import { roundTrips as sent } from './fixtures/round-trips.ts';

/**
 * Transactions on PostgreSQL: the pool holds Kysely's BEGIN back and sends it with
 * the transaction's first statement when that has no parameters (one round trip
 * less per tenant transaction). These tests pin what must not change with it:
 * statements still run in one transaction, failures still roll back, and the
 * round trips saved are really saved.
 */

describe.runIf(onPostgres)('transactions on PostgreSQL (begin sent with the first statement)', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let companyId: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    companyId = (await createWorkspace(database.db, { name: 'Round Trips' })).id;
  });
  afterAll(() => database.close());

  it('a tenant transaction sends begin with its settings, then the statements, then commit', async () => {
    const texts = await sent(() =>
      withTenant(database.db, companyId, async (trx) => {
        const { rows } = await sql<{ company: string; role: string }>`select current_setting('app.company_id') as company, current_user as role`.execute(trx);
        expect(rows[0]).toEqual({ company: companyId, role: 'sheaf_app' });
      }),
    );
    expect(texts).toHaveLength(3);
    expect(texts[0]).toMatch(/^begin;\s*select set_config\('role', 'sheaf_app', true\), set_config\('app\.company_id', '[0-9a-f-]{36}', true\)$/);
    expect(texts[2]).toBe('commit');
  });

  it('the settings are the transaction’s alone: gone after commit', async () => {
    await withTenant(database.db, companyId, async () => {});
    const { rows } = await sql<{ company: string | null }>`select current_setting('app.company_id', true) as company`.execute(database.db);
    expect(rows[0].company ?? '').toBe('');
  });

  it('a prelude rides in the first statement and fn receives its row', async () => {
    const texts = await sent(() =>
      withTenant(
        database.db,
        companyId,
        async (_trx, first) => {
          expect(first.answer).toBe(42);
        },
        { answer: sql<number>`${sql.lit(42)}::int` },
      ),
    );
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/, 42::int as "answer"$/);
  });

  it('a failure after the first statement rolls everything back', async () => {
    const name = `rolled back ${Date.now()}`;
    await expect(
      withTenant(database.db, companyId, async (trx) => {
        await trx.updateTable('companies').set({ name }).where('id', '=', companyId).execute();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const row = await database.db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirstOrThrow();
    expect(row.name).not.toBe(name);
  });

  it('a plain transaction whose first statement has parameters still gets its own begin', async () => {
    const name = `rolled back ${Date.now()}`;
    const texts = await sent(() =>
      database.db
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('companies').set({ name }).where('id', '=', companyId).execute();
          throw new Error('boom');
        })
        .catch(() => {}),
    );
    expect(texts[0]).toBe('begin');
    expect(texts.at(-1)).toBe('rollback');
    const row = await database.db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirstOrThrow();
    expect(row.name).not.toBe(name);
  });

  it('a transaction that ran nothing sends nothing', async () => {
    expect(await sent(() => database.db.transaction().execute(async () => {}))).toEqual([]);
  });

  it('a failing first statement leaves the connection usable (no transaction left open)', async () => {
    await expect(
      database.db.transaction().execute((trx) => sql`select 1/0`.execute(trx)),
    ).rejects.toThrow(/division by zero/);
    // Every pooled connection answers outside a transaction afterwards.
    const checks = await Promise.all(
      Array.from({ length: 25 }, () => sql<{ now: Date; stmt: Date }>`select now() as now, statement_timestamp() as stmt`.execute(database.db)),
    );
    for (const { rows } of checks) expect(rows[0].now.getTime()).toBe(rows[0].stmt.getTime());
  });
});

describe.runIf(onPostgres)('a completed time entry on PostgreSQL', () => {
  let ctx: TestContext;
  let w: TimeWorkspace;

  beforeAll(async () => {
    ctx = await createTestContext();
    setNow(ctx.clock, '2026-06-10T10:00:00.000Z');
    w = await makeTimeWorkspace(ctx.db);
  });
  afterAll(() => ctx.close());

  const body = (extra: Record<string, unknown> = {}) => ({ project_id: w.project, task_id: w.task, spent_date: '2026-06-09', hours: 1, ...extra });

  it('takes two round trips: authentication, then the settings with the person lock and the create statement in one message', async () => {
    const statuses: number[] = [];
    const first = await sent(async () => {
      statuses.push((await postEntry(ctx.app, w.member, body())).statusCode);
    });
    const second = await sent(async () => {
      statuses.push((await postEntry(ctx.app, w.member, body({ hours: 2 }))).statusCode);
    });
    expect(statuses).toEqual([201, 201]);
    for (const texts of [first, second]) {
      expect(texts).toHaveLength(2);
      // No begin or commit: the message is one implicit transaction.
      expect(texts[1]).not.toMatch(/^begin|commit/);
      expect(texts[1]).toMatch(/select set_config\('role', 'sheaf_app', true\)[^;]*pg_try_advisory_xact_lock_shared[^;]*;\s*execute s_[0-9a-f]+\('/);
    }
    // Prepared once per connection (the pool may hand the second request another one).
    const prepares = [first[1], second[1]].filter((t) => t.startsWith('prepare s_')).length;
    expect(prepares).toBeGreaterThanOrEqual(1);
  });

  it('a create statement that fails leaves nothing and no transaction open', async () => {
    // Every check is the guard's, so the statement itself is made to fail: an id that is taken.
    const before = await ctx.db.selectFrom('time_entries').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const { runCreateStatement, createFlags } = await import('../src/modules/tracking/time/create-statement.ts');
    const existing = (await postEntry(ctx.app, w.member, body())).json().id as string;
    const principal = { kind: 'integration', role: 'member', userId: w.member.userId, companyId: w.companyId, permissions: [] } as never;
    const values = {
      company_id: w.companyId,
      caller_id: w.member.userId,
      person_id: w.member.userId,
      project_id: w.project,
      task_id: w.task,
      monday_start: '2026-06-08',
      monday_end: '2026-06-14',
      sunday_start: '2026-06-07',
      sunday_end: '2026-06-13',
      saturday_start: '2026-06-06',
      saturday_end: '2026-06-12',
      entry_id: existing,
      spent_date: '2026-06-09',
      duration_seconds: 3600,
      hours_entered: '1',
      started_time: null,
      ended_time: null,
      notes: "it's a \\ backslash",
      billable: null,
      source: 'api',
      metadata: null,
      external_reference: null,
      now: new Date(),
      zone: null,
      input_ok: true,
    };
    await expect(runCreateStatement(ctx.db, w.member.userId, values, createFlags(principal, undefined, w.member.userId))).rejects.toMatchObject({ code: '23505' });
    const after = await ctx.db.selectFrom('time_entries').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n) + 1);
    // The connections are usable and outside any transaction: the next create works and commits.
    const again = await runCreateStatement(ctx.db, w.member.userId, { ...values, entry_id: newId() }, createFlags(principal, undefined, w.member.userId));
    expect(again.entry?.notes).toBe("it's a \\ backslash");
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = 'sheaf:' || current_schema() and state like 'idle in transaction%'`.execute(ctx.db);
    expect(rows[0].n).toBe(0);
  });
});
