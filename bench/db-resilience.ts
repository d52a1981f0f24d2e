/**
 * `npm run bench:resilience`: the figures of README's "Resilience figures", on
 * PostgreSQL with the default database bounds (or DATABASE_*_TIMEOUT_MS from the
 * environment). The app runs in this process (requests injected, no HTTP) on a
 * pool that reaches PostgreSQL through a TCP proxy the script can take down or
 * stall (test/stalling-proxy.ts). Measured:
 *
 * - recovery after the pool's connections are killed (pg_terminate_backend), and
 *   after the database was unreachable (every connection reset) and is back: the
 *   time from the kill or the return to the first successful request, requests
 *   sent back to back, and how many failed before it;
 * - how long a request waits before its 503 under a row lock, a table lock, a full
 *   pool and a stalled network, and /healthz and /livez meanwhile.
 *
 * DATABASE_URL selects PostgreSQL (default postgres://root@127.0.0.1:5432/test);
 * the run works in its own schema, dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, poolApplicationName } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createWorkspaceWithOwner, request } from '../test/helpers.ts';
import { StallingProxy } from '../test/stalling-proxy.ts';
import { postgresUrl, schemaWayOut } from './harness.ts';

const url = new URL(postgresUrl());
const schema = `sheaf_resilience_${randomBytes(4).toString('hex')}`;
const bounds = Object.fromEntries(Object.entries(process.env).filter(([name]) => /^DATABASE_\w+_TIMEOUT_MS$/.test(name)));
const config = loadConfig({ ...bounds, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000000' }, { dataDir: null, databaseSchema: schema });
const t = config.databaseTimeouts;

const proxy = new StallingProxy({ host: url.hostname, port: Number(url.port || 5432) });
const proxied = new URL(url);
proxied.host = `127.0.0.1:${await proxy.listen()}`;
const admin = new pg.Client({ connectionString: url.toString() });
await admin.connect();
const database = await openDatabase({ databaseUrl: proxied.toString(), schema, poolSize: config.databasePoolSize, timeouts: t });
const exit = schemaWayOut(url.toString(), schema, {
  stop: () => proxy.resume(),
  close: async () => (await database.close(), await admin.end(), await proxy.close()),
});
const rows: Array<{ figure: string; ms: number; detail: string }> = [];
const record = (figure: string, ms: number, detail = '') => {
  rows.push({ figure, ms: Math.round(ms), detail });
  console.log(`${figure.padEnd(58)} ${String(Math.round(ms)).padStart(7)} ms  ${detail}`);
};

try {
  await migrate(database.db);
  const app = await buildApp({ config, db: database.db });
  const { owner } = await createWorkspaceWithOwner(database.db, 'Resilience Co');
  const me = () => request(app, owner, { method: 'GET', url: '/api/v2/users/me' });
  const timed = async <T>(call: () => Promise<T>) => {
    const started = performance.now();
    const res = await call();
    return { res, ms: performance.now() - started };
  };
  /** Requests back to back until one is a 200: the time since `since` and the failures before it. */
  const firstSuccess = async (since: number) => {
    let failures = 0;
    for (;;) {
      const res = await me();
      if (res.statusCode === 200) return { ms: performance.now() - since, failures };
      if (res.statusCode !== 503) throw new Error(`unexpected ${res.statusCode}: ${res.body}`);
      failures++;
    }
  };
  const warm = () => Promise.all(Array.from({ length: config.databasePoolSize }, me));
  console.log(`bounds: ${JSON.stringify(t)}, pool ${config.databasePoolSize}`);

  for (let i = 1; i <= 5; i++) {
    await warm();
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [poolApplicationName(schema)]);
    const r = await firstSuccess(performance.now());
    record(`recovery after pg_terminate_backend of the pool (#${i})`, r.ms, `${r.failures} request(s) answered 503 before`);
  }

  for (let i = 1; i <= 5; i++) {
    await warm();
    proxy.goDown();
    // Clients keep asking during a 1 s outage.
    const outage = performance.now() + 1000;
    let slowest = 0;
    let answered = 0;
    while (performance.now() < outage) {
      const down = await timed(me);
      if (down.res.statusCode !== 503) throw new Error(`unexpected ${down.res.statusCode} during the outage`);
      slowest = Math.max(slowest, down.ms);
      answered++;
    }
    record(`slowest 503 during a 1 s outage (#${i})`, slowest, `${answered} requests, all 503`);
    proxy.resume();
    const r = await firstSuccess(performance.now());
    record(`recovery after the database is reachable again (#${i})`, r.ms, `${r.failures} request(s) answered 503 before`);
  }

  const created = await request(app, owner, { method: 'POST', url: '/api/v2/clients', payload: { name: 'Locked' } });
  const id = created.json().id;
  const other = new pg.Client({ connectionString: url.toString(), options: `-c search_path=${schema}` });
  await other.connect();
  try {
    for (let i = 1; i <= 3; i++) {
      await other.query('begin');
      await other.query('select 1 from clients where id = $1 for update', [id]);
      const w = await timed(() => request(app, owner, { method: 'PATCH', url: `/api/v2/clients/${id}`, payload: { name: 'Changed' } }));
      record(`PATCH under a row lock held by another session (#${i})`, w.ms, `${w.res.statusCode} ${w.res.json().error}`);
      await other.query('rollback');
    }
    await other.query('begin');
    await other.query('lock table clients in access exclusive mode');
    const w = await timed(() => request(app, owner, { method: 'GET', url: '/api/v2/clients' }));
    record('GET /clients under an ACCESS EXCLUSIVE table lock', w.ms, `${w.res.statusCode} ${w.res.json().error}`);
    const h = await timed(() => app.inject({ method: 'GET', url: '/healthz' }));
    record('/healthz meanwhile', h.ms, String(h.res.statusCode));
    await other.query('rollback');
  } finally {
    await other.end();
  }

  {
    let free!: () => void;
    const freed = new Promise<void>((resolve) => (free = resolve));
    let taken = 0;
    let allTaken!: () => void;
    const all = new Promise<void>((resolve) => (allTaken = resolve));
    const holders = Array.from({ length: config.databasePoolSize }, () =>
      database.db.connection().execute(async (conn) => {
        await sql`select 1`.execute(conn);
        if (++taken === config.databasePoolSize) allTaken();
        await freed;
      }),
    );
    await all;
    const w = await timed(me);
    record('request with every pooled connection busy', w.ms, `${w.res.statusCode} ${w.res.json().error}`);
    const h = await timed(() => app.inject({ method: 'GET', url: '/healthz' }));
    record('/healthz meanwhile', h.ms, String(h.res.statusCode));
    const l = await timed(() => app.inject({ method: 'GET', url: '/livez' }));
    record('/livez meanwhile', l.ms, String(l.res.statusCode));
    free();
    await Promise.all(holders);
  }

  {
    // One pooled connection: the first request meets it stalled, the next ones open new connections.
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [poolApplicationName(schema)]);
    await firstSuccess(performance.now());
    proxy.stall();
    const w = await timed(me);
    record('request on a pooled connection, network stalled', w.ms, `${w.res.statusCode} ${w.res.json().error}`);
    const n = await timed(me);
    record('request on a new connection, network stalled', n.ms, `${n.res.statusCode} ${n.res.json().error}`);
    const h = await timed(() => app.inject({ method: 'GET', url: '/healthz' }));
    record('/healthz with the network stalled', h.ms, String(h.res.statusCode));
    const l = await timed(() => app.inject({ method: 'GET', url: '/livez' }));
    record('/livez meanwhile', l.ms, String(l.res.statusCode));
    proxy.resume();
    const r = await firstSuccess(performance.now());
    record('recovery after the network resumes', r.ms, `${r.failures} request(s) answered 503 before`);
  }
  await app.close();
} finally {
  await exit.cleanup();
}
