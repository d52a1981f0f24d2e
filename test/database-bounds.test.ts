import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { Mutex } from '../src/db/mutex.ts';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from '../src/db/timeouts.ts';
import type { DB } from '../src/db/types.ts';
import { unavailableError } from '../src/db/unavailable.ts';
import { StallingProxy } from './stalling-proxy.ts';
import { DATABASE_URL, createTestContext, createWorkspaceWithOwner, onPostgres, openBoundedDatabase, request, type Caller, type TestContext } from './helpers.ts';

/**
 * Bounded waits for the database (issue 14 item 2): a held lock, a statement
 * over its limit, an exhausted pool or a stalled network is a 503 in the error
 * shape within its bound, never a request that hangs; /livez answers without the
 * database and /healthz within its own bound; the service answers again once the
 * cause is gone.
 */

interface BoundedApp {
  app: FastifyInstance;
  db: Kysely<DB>;
  close(): Promise<void>;
}

const timeouts = (t: Partial<DatabaseTimeouts>): DatabaseTimeouts => ({ ...DEFAULT_DATABASE_TIMEOUTS, ...t });

type Response = Awaited<ReturnType<typeof request>>;

function expectUnavailable(res: Response, about: RegExp) {
  expect(res.statusCode, res.body).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['error', 'error_description', 'message']);
  expect(body.error).toBe('service_unavailable');
  expect(body.message).toMatch(about);
  expect(body.error_description).toBe(body.message);
}

/** Polls `check` until it holds (not a timed wait: it ends as soon as the condition does). */
async function until(check: () => Promise<boolean>, what: string, deadlineMs = 10_000) {
  const deadline = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const schemaOf = async (db: Kysely<DB>) => (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema;

/** How the pool's connections of the test's schema are named in pg_stat_activity. */
const applicationName = async (db: Kysely<DB>) => `sheaf:${await schemaOf(db)}`;

/** A second PostgreSQL session, in the test's schema, for holding locks. */
async function otherSession(db: Kysely<DB>): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path=${await schemaOf(db)}` });
  await client.connect();
  return client;
}

describe('database errors in the error shape', () => {
  it('a lock, a statement limit, an idle-transaction kill and a stalled answer are 503; other errors are not', () => {
    const cases: Array<[unknown, RegExp]> = [
      [Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' }), /lock/],
      [Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }), /longer than the database allows/],
      [Object.assign(new Error('terminating connection due to idle-in-transaction timeout'), { code: '25P03' }), /cannot be reached/],
      [new Error('Query read timeout'), /cannot be reached/],
      [new Error('Connection terminated due to connection timeout'), /cannot be reached/],
      [new Error('timeout exceeded when trying to connect (the embedded database is busy)'), /cannot be reached/],
    ];
    for (const [err, message] of cases) {
      const mapped = unavailableError(err);
      expect(mapped?.statusCode, String(err)).toBe(503);
      expect(mapped?.body()).toMatchObject({ error: 'service_unavailable', message: expect.stringMatching(message) });
    }
    for (const err of [Object.assign(new Error('deadlock detected'), { code: '40P01' }), Object.assign(new Error('duplicate key'), { code: '23505' }), new Error('Query failed')]) {
      expect(unavailableError(err), String(err)).toBeNull();
    }
  });
});

describe('the bounds in the configuration', () => {
  it('defaults, overrides from the environment, 0 to turn one off, and refusal of nonsense', () => {
    expect(loadConfig({}).databaseTimeouts).toEqual({ connectMs: 5000, statementMs: 30000, lockMs: 5000, idleInTransactionMs: 60000, longStatementMs: 120000 });
    const env = {
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
      DATABASE_LOCK_TIMEOUT_MS: '250',
      DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '9000',
      DATABASE_LONG_STATEMENT_TIMEOUT_MS: '600000',
    };
    expect(loadConfig(env).databaseTimeouts).toEqual({ connectMs: 1000, statementMs: 0, lockMs: 250, idleInTransactionMs: 9000, longStatementMs: 600000 });
    expect(() => loadConfig({ DATABASE_LOCK_TIMEOUT_MS: '-1' })).toThrow(/DATABASE_LOCK_TIMEOUT_MS/);
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '5s' })).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS/);
  });
});

describe('Mutex with a bounded wait (the embedded database)', () => {
  it('a waiter past its bound gives up, and its turn passes on to the next waiter', async () => {
    const mutex = new Mutex();
    const releaseFirst = await mutex.lock();
    const impatient = mutex.lock(20, () => new Error('gave up'));
    const patient = mutex.lock();
    await expect(impatient).rejects.toThrow('gave up');
    releaseFirst();
    const releasePatient = await patient;
    releasePatient();
    (await mutex.lock(20))();
  });
});

/**
 * All of the database's connections busy (PGlite's one, or a pool of one): a
 * request waits for one at most connectMs, /healthz answers 503 within its bound,
 * /livez answers at once, and the next request after the connection is freed
 * succeeds. Both databases.
 */
describe('no free database connection', () => {
  const bounds = timeouts({ connectMs: 300 });
  let ctx: TestContext;
  let owner: Caller;
  beforeAll(async () => {
    ctx = await createTestContext({ config: { databaseTimeouts: bounds }, database: { poolSize: 1, timeouts: bounds } });
    ({ owner } = await createWorkspaceWithOwner(ctx.db, 'Busy Co'));
  });
  afterAll(() => ctx.close());

  it('503 within the bound for requests and /healthz, 200 for /livez; served again once a connection is free', async () => {
    let free!: () => void;
    let held!: () => void;
    const holding = ctx.db.connection().execute(async () => {
      held();
      await new Promise<void>((resolve) => (free = resolve));
    });
    await new Promise<void>((resolve) => (held = resolve));
    try {
      const me = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users/me' });
      expectUnavailable(me, /cannot be reached/);

      const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toEqual({ status: 'unavailable' });

      const live = await ctx.app.inject({ method: 'GET', url: '/livez' });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
    } finally {
      free();
      await holding;
    }
    expect((await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users/me' })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

/**
 * PostgreSQL: the scenarios share one schema and workspace (and a second session
 * for holding locks); each runs an app on a pool of its own, with its own bounds.
 */
describe.runIf(onPostgres)('PostgreSQL', () => {
  let base: TestContext;
  let owner: Caller;
  let other: pg.Client;
  beforeAll(async () => {
    base = await createTestContext();
    ({ owner } = await createWorkspaceWithOwner(base.db, 'Bounded Co'));
    other = await otherSession(base.db);
  });
  afterEach(() => other.query('rollback'));
  afterAll(async () => {
    await other.end();
    await base.close();
  });

  /** The app on a pool of its own in the shared schema, with these bounds and `warm` connections open. */
  async function boundedApp(bounds: DatabaseTimeouts, options: { poolSize?: number; databaseUrl?: string; warm?: number } = {}): Promise<BoundedApp> {
    const database = await openBoundedDatabase(
      { databaseUrl: options.databaseUrl ?? DATABASE_URL, schema: await schemaOf(base.db), poolSize: options.poolSize ?? 10, timeouts: bounds },
      options.warm,
    );
    const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000' }, { dataDir: null, databaseTimeouts: bounds });
    const app = await buildApp({ config, db: database.db });
    return {
      app,
      db: database.db,
      close: async () => {
        await app.close();
        await database.close();
      },
    };
  }

  describe('locks held by another session', () => {
    const bounds = timeouts({ lockMs: 300 });
    let ctx: BoundedApp;
    beforeAll(async () => {
      ctx = await boundedApp(bounds);
    });
    afterAll(() => ctx.close());

    it('a row lock: the update is 503 within the lock bound, nothing changes, and it succeeds once the lock is gone', async () => {
      const created = await request(ctx.app, owner, { method: 'POST', url: '/api/v2/clients', payload: { name: 'Before' } });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id;
      await other.query('begin');
      await other.query('select id from clients where id = $1 for update', [id]);

      const patched = await request(ctx.app, owner, { method: 'PATCH', url: `/api/v2/clients/${id}`, payload: { name: 'After' } });
      expectUnavailable(patched, /holds a lock/);
      // Reads do not wait for a row lock.
      expect((await request(ctx.app, owner, { method: 'GET', url: `/api/v2/clients/${id}` })).json().name).toBe('Before');

      await other.query('rollback');
      const retried = await request(ctx.app, owner, { method: 'PATCH', url: `/api/v2/clients/${id}`, payload: { name: 'After' } });
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retried.json().name).toBe('After');
    });

    it('a table lock: requests that need the table are 503 within the bound, others and /healthz are served', async () => {
      await other.query('begin');
      await other.query('lock table clients in access exclusive mode');

      const listed = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/clients' });
      expectUnavailable(listed, /holds a lock/);
      expect((await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users/me' })).statusCode).toBe(200);
      expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

      await other.query('rollback');
      expect((await request(ctx.app, owner, { method: 'GET', url: '/api/v2/clients' })).statusCode).toBe(200);
    });
  });

  describe('the statement limit', () => {
    // No lock bound: the wait for the lock is what runs into the statement limit.
    const bounds = timeouts({ statementMs: 300, lockMs: 0, connectMs: 300, longStatementMs: 20_000 });
    let ctx: BoundedApp;
    beforeAll(async () => {
      ctx = await boundedApp(bounds, { warm: 3 }); // the report, the backup page and the list at once
    });
    afterAll(() => ctx.close());

    it('an ordinary request over the limit is 503 within it; a report and a backup page, under the longer limit, complete', async () => {
      await other.query('begin');
      await other.query('lock table time_entries, clients in access exclusive mode');
      try {
        const report = request(ctx.app, owner, { method: 'GET', url: '/api/v2/reports/time/team?from=2024-01-01&to=2024-01-31' });
        const backup = request(ctx.app, owner, { method: 'GET', url: '/api/v2/backup/clients' });
        const list = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/time_entries' });
        expectUnavailable(list, /longer than the database allows/);
        // Both have waited longer than the ordinary limit plus connectMs, the client's backstop of
        // ordinary statements: theirs follows their own limit.
        const backstop = bounds.statementMs + bounds.connectMs;
        await until(async () => {
          const { rows } = await other.query<{ n: number }>(
            `select count(*)::int as n from pg_locks l join pg_stat_activity a using (pid)
              where not l.granted and a.application_name = $1 and a.query_start < clock_timestamp() - $2 * interval '1 millisecond'`,
            [await applicationName(ctx.db), backstop + 200],
          );
          return rows[0].n === 2;
        }, 'the report and the backup page wait for the lock');
        await other.query('commit');
        for (const res of [await report, await backup]) expect(res.statusCode, res.body).toBe(200);
      } finally {
        await other.query('rollback');
      }
    });

    it('a transaction left idle is ended by the server after its bound; the pool serves on', async () => {
      const bounded = await openDatabase({ databaseUrl: DATABASE_URL, schema: await schemaOf(ctx.db), poolSize: 1, timeouts: timeouts({ idleInTransactionMs: 200 }) });
      try {
        const err = await bounded.db
          .transaction()
          .execute(async (trx) => {
            const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
            await until(async () => (await other.query('select 1 from pg_stat_activity where pid = $1', [rows[0].pid])).rowCount === 0, 'the server ends the idle transaction', 3_000);
            await sql`select 1`.execute(trx);
          })
          .catch((e: unknown) => e);
        expect(unavailableError(err)?.statusCode).toBe(503);
        expect((await sql<{ one: number }>`select 1 as one`.execute(bounded.db)).rows).toEqual([{ one: 1 }]);
      } finally {
        await bounded.close();
      }
    });

    it('migrations wait for another process\'s migrations beyond the lock and statement limits', async () => {
      const bounded = await openDatabase({ databaseUrl: DATABASE_URL, schema: await schemaOf(ctx.db), poolSize: 2, timeouts: timeouts({ statementMs: 200, lockMs: 100 }) });
      let settled = false;
      try {
        await other.query('select pg_advisory_lock(7372101)');
        const migrating = migrate(bounded.db).finally(() => (settled = true));
        migrating.catch(() => {});
        await until(async () => {
          const waiting = await other.query(
            `select 1 from pg_locks l join pg_stat_activity a using (pid)
              where l.locktype = 'advisory' and l.objid = 7372101 and not l.granted and a.application_name = $1`,
            [await applicationName(ctx.db)],
          );
          return waiting.rowCount === 1;
        }, 'the migration waits for the advisory lock');
        // A statement of the same pool, started later under the same limit, is cancelled by it first.
        await expect(sql`select pg_sleep(5)`.execute(bounded.db)).rejects.toMatchObject({ code: '57014' });
        expect(settled).toBe(false);
        await other.query('select pg_advisory_unlock(7372101)');
        expect(await migrating).toEqual([]);
      } finally {
        await other.query('select pg_advisory_unlock_all()');
        await bounded.close();
      }
    });
  });

  describe('a stalled network between the server and PostgreSQL', () => {
    const bounds = timeouts({ connectMs: 400, statementMs: 2_500 });
    let proxy: StallingProxy;
    let ctx: BoundedApp;
    beforeAll(async () => {
      const url = new URL(DATABASE_URL!);
      proxy = new StallingProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.host = `127.0.0.1:${await proxy.listen()}`;
      ctx = await boundedApp(bounds, { databaseUrl: url.toString(), poolSize: 3, warm: 3 });
    });
    afterAll(async () => {
      proxy.resume();
      await ctx.close();
      await proxy.close();
    });

    it('requests and /healthz are 503 within their bounds, /livez is 200, and the first request after the network resumes succeeds', async () => {
      const me = () => request(ctx.app, owner, { method: 'GET', url: '/api/v2/users/me' });
      // Three pooled connections, all idle.
      expect((await Promise.all([me(), me(), me()])).map((r) => r.statusCode)).toEqual([200, 200, 200]);
      expect(proxy.connections).toBe(3);
      proxy.stall();

      // One pooled connection each. /healthz gets no answer: 503 at its own bound (connectMs), not the
      // statement's, so it settles before the others, which get no answer within the statement limit
      // plus connectMs. In a transaction, the rollback after the stalled statement fails at once
      // instead of waiting as long again.
      const settled: string[] = [];
      const noted = <T>(what: string, pending: Promise<T>) => pending.finally(() => settled.push(what));
      const [health, pooled, transaction] = await Promise.all([
        noted('healthz', ctx.app.inject({ method: 'GET', url: '/healthz' })),
        noted('request', me()),
        noted('transaction', ctx.db.transaction().execute((trx) => sql`select 1`.execute(trx)).catch((err: unknown) => err)),
      ]);
      expect(health.statusCode).toBe(503);
      expect(settled[0]).toBe('healthz');
      expect((await ctx.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
      expectUnavailable(pooled, /cannot be reached/);
      expect(unavailableError(transaction)?.statusCode).toBe(503);
      // The stalled connections are dropped, not handed out again.
      await until(async () => proxy.connections === 0, 'the stalled connections are closed', 3_000);
      // A new connection: no answer to the startup within connectMs.
      const fresh = await me();
      expectUnavailable(fresh, /cannot be reached/);

      proxy.resume();
      const back = await me();
      expect(back.statusCode, back.body).toBe(200);
      expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    });
  });
});
