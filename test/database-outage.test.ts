import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/db/unavailable.ts';
import { DATABASE_URL, createTestContext, createWorkspaceWithOwner, onPostgres, request, type Caller, type TestContext } from './helpers.ts';

describe('isDatabaseUnavailable', () => {
  it('tells a lost or refused database connection from a fault of the request', () => {
    for (const err of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
    ]) {
      expect(isDatabaseUnavailable(err), err.message).toBe(true);
    }
    for (const err of [
      Object.assign(new Error('duplicate key value'), { code: '23505' }),
      Object.assign(new Error('invalid input syntax'), { code: '22P02' }),
      new Error('something else'),
      null,
      'ECONNREFUSED',
    ]) {
      expect(isDatabaseUnavailable(err), String(err)).toBe(false);
    }
  });
});

/**
 * A real PostgreSQL connection of the app's pool killed with pg_terminate_backend
 * (as a restart, a failover, a proxy or an idle timeout would): the process must
 * not go down (an unhandled 'error' event from the pool), and the next request is
 * served on a new connection.
 */
describe.runIf(onPostgres)('a pooled connection dropped by the server (PostgreSQL)', () => {
  let ctx: TestContext;
  let owner: Caller;
  beforeAll(async () => {
    ctx = await createTestContext();
    ({ owner } = await createWorkspaceWithOwner(ctx.db, 'Outage Co'));
  });
  afterAll(() => ctx.close());

  it('pg_terminate_backend on idle pooled connections: no crash, the next requests are served', async () => {
    // Several idle connections in the pool.
    await Promise.all(Array.from({ length: 4 }, () => request(ctx.app, owner, { method: 'GET', url: '/api/v2/users/me' })));
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(ctx.db);
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    try {
      const killed = await admin.query('select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1) t', [
        `sheaf:${rows[0].schema}`,
      ]);
      expect(killed.rows[0].n).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // Let the pool see the terminations (the 'error' events arrive on the idle sockets).
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 6; i++) {
      const res = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users/me' });
      expect([200, 503], res.body).toContain(res.statusCode);
      if (res.statusCode === 503) expect(res.json().error).toBe('service_unavailable');
    }
    const after = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users/me' });
    expect(after.statusCode, after.body).toBe(200);
  });
});
