import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { withTenant } from '../src/db/tenant.ts';
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

  it('takes five round trips: authentication, begin with the settings and the person lock, the context, the insert, commit', async () => {
    let status = 0;
    const texts = await sent(async () => {
      status = (await postEntry(ctx.app, w.member, body())).statusCode;
    });
    expect(status).toBe(201);
    expect(texts).toHaveLength(5);
    expect(texts[1]).toMatch(/^begin;[\s\S]*pg_try_advisory_xact_lock_shared/);
    expect(texts[3]).toMatch(/^insert into "time_entries"/);
    expect(texts[4]).toBe('commit');
  });
});
