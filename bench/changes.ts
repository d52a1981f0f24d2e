/**
 * The change feed's read benchmark (issue 26): N changes seeded in one workspace
 * (in transactions of 10,000, so they span many transaction ids), then read from
 * the start to the end, page by page (per_page 2000), through
 * `GET /api/v2/changes` as the owner, and alternately through the route's own
 * keyset statement sent with pg (the same columns, parsed into rows, no JSON, no
 * HTTP). Reports changes/s of each, their ratio, and the RSS of the server and
 * of this client at each quarter of the API read (the client's must stay flat:
 * pages are read and dropped).
 *
 *   npm run bench:changes                       (1,000,000 changes, 2 rounds)
 *   npm run bench:changes -- --changes 200000 --rounds 1
 *
 * DATABASE_URL selects PostgreSQL (default postgres://root@127.0.0.1:5432/test);
 * the run works in its own schema, dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { forkServer, loadAverage, median, numberOption, postgresUrl, schemaWayOut } from './harness.ts';
import { benchCommand, formatNumber, recordPerformance } from './performance.ts';

const { values } = parseArgs({ options: { changes: { type: 'string' }, rounds: { type: 'string' } }, strict: true });
const CHANGES = numberOption('changes', values.changes, 'BENCH_CHANGES', 1_000_000, true, 10_000);
const ROUNDS = numberOption('rounds', values.rounds, 'BENCH_ROUNDS', 2, true, 1);
const PAGE = 2000;
const BATCH = 10_000;
/** The issue's aim: at least this many changes per second through the API, memory flat. */
const AIM = 20_000;
const FLAT_MIB = 16;

const databaseUrl = postgresUrl();
const schema = `sheaf_bench_${randomBytes(6).toString('hex')}`;
const mib = (bytes: number) => bytes / 1024 / 1024;
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

const server = forkServer({ databaseUrl, schema, pool: 4, applicationName: schema.replaceAll('_', '-'), profile: false });
const db = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
const exit = schemaWayOut(databaseUrl, schema, { stop: () => server.stop(), close: () => db.end().catch(() => {}) });
try {
  const ready = await server.ready(120_000);
  await db.connect();
  console.log(`change feed benchmark: ${formatNumber(CHANGES)} changes, ${ROUNDS} round(s); loadavg ${loadAverage().raw}`);

  // Seed: batches of 10,000 changes, one transaction each (their own xid), of every type. The
  // feed shows a client's or a project's change while the record exists: 100 of each do.
  let t0 = performance.now();
  await db.query(
    `insert into clients (company_id, id, name) select $1, gen_random_uuid(), 'Client ' || i from generate_series(1, 100) i`,
    [ready.companyId],
  );
  await db.query(
    `insert into projects (company_id, id, client_id, name)
     select $1, gen_random_uuid(), c.id, 'Project ' || c.name from clients c where c.company_id = $1`,
    [ready.companyId],
  );
  for (let done = 0; done < CHANGES; done += BATCH) {
    await db.query(
      `with cl as (select array_agg(id) as ids from clients where company_id = $1),
            pr as (select array_agg(id) as ids from projects where company_id = $1)
       insert into changes (company_id, record_type, record_id, action, user_id, project_id)
       select $1, t.type,
              case t.type when 'clients' then cl.ids[1 + i % 100] when 'projects' then pr.ids[1 + i % 100] else gen_random_uuid() end,
              (array['created','updated','deleted'])[1 + i % 3], gen_random_uuid(), pr.ids[1 + i % 100]
       from generate_series(1, $2::int) i, cl, pr,
            lateral (select (array['time_entries','expenses','clients','projects','tasks','invoices','users'])[1 + i % 7] as type) t`,
      [ready.companyId, Math.min(BATCH, CHANGES - done)],
    );
  }
  await db.query('vacuum analyze changes');
  // The workspace's own changes from its creation (the owner joining) come on top.
  const total = Number((await db.query(`select count(*)::int as n from changes where company_id = $1`, [ready.companyId])).rows[0].n);
  // The feed shows a change once every older transaction has ended (its horizon); another
  // session's open transaction on this server holds the last batches back until it ends.
  for (let waited = 0; ; waited += 1) {
    const { rows } = await db.query(`select count(*)::int as n from changes where company_id = $1 and xid < pg_snapshot_xmin(pg_current_snapshot())`, [
      ready.companyId,
    ]);
    if (rows[0].n === total) break;
    if (waited === 120) throw new Error(`after 2 minutes, ${total - rows[0].n} changes are still behind an open transaction of another session`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  /** The whole feed through the API; RSS of both processes at each quarter. */
  async function readApi() {
    let cursor: string | undefined;
    let read = 0;
    const rss: Array<{ server: number; client: number }> = [];
    const start = performance.now();
    for (;;) {
      const url = `${ready.sheafUrl}/api/v2/changes?per_page=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await fetch(url, { headers: ready.headers });
      if (res.status !== 200) throw new Error(`GET /api/v2/changes answered ${res.status}: ${await res.text()}`);
      const body = (await res.json()) as { changes: unknown[]; next_cursor: string; has_more: boolean };
      const before = read;
      read += body.changes.length;
      if (Math.floor((before * 4) / total) !== Math.floor((read * 4) / total) || rss.length === 0) {
        rss.push({ server: rssOf(server.child.pid!), client: process.memoryUsage().rss });
      }
      cursor = body.next_cursor;
      if (!body.has_more) break;
    }
    const ms = performance.now() - start;
    if (read !== total) throw new Error(`the API read ${read} changes, not ${total}`);
    return { ms, rss };
  }

  /** The whole feed through the route's keyset statement, with pg. */
  async function readSql() {
    let after = ['0', '0'];
    let read = 0;
    const start = performance.now();
    for (;;) {
      const { rows } = await db.query(
        // Qualified in ORDER BY: the bare names would sort by the text aliases.
        `select c.xid::text as xid, c.seq::text as seq, c.record_type, c.record_id, c.action, c.changed_at from changes c
         where c.company_id = $1 and (c.xid, c.seq) > ($2::xid8, $3::bigint) and c.xid < pg_snapshot_xmin(pg_current_snapshot())
         order by c.xid, c.seq limit ${PAGE}`,
        [ready.companyId, ...after],
      );
      read += rows.length;
      if (rows.length < PAGE) break;
      after = [rows.at(-1).xid, rows.at(-1).seq];
    }
    const ms = performance.now() - start;
    if (read !== total) throw new Error(`the SQL read ${read} changes, not ${total}`);
    return { ms };
  }

  const api: number[] = [];
  const raw: number[] = [];
  let rss: Array<{ server: number; client: number }> = [];
  await readSql(); // warm the buffers
  for (let round = 1; round <= ROUNDS; round++) {
    for (const which of round % 2 ? ['api', 'sql'] : ['sql', 'api']) {
      t0 = performance.now();
      if (which === 'api') {
        const r = await readApi();
        api.push(r.ms);
        rss = r.rss;
      } else raw.push((await readSql()).ms);
      console.log(`round ${round} ${which}: ${((performance.now() - t0) / 1000).toFixed(2)} s (loadavg ${loadAverage().oneMinute})`);
    }
  }
  const apiRate = total / (median(api) / 1000);
  const sqlRate = total / (median(raw) / 1000);
  const growth = (k: 'server' | 'client') => mib(rss[rss.length - 1][k] - rss[1][k]);
  // Flat: the reading client keeps no more memory at the end than after its first quarter (pages
  // are read and dropped). The server's RSS is shown too; it rises and falls with V8's collections.
  const flat = rss.length > 1 && growth('client') <= FLAT_MIB;
  const rssText = (k: 'server' | 'client') => rss.map((r) => mib(r[k]).toFixed(0)).join(' → ');
  console.log(`\nAPI ${formatNumber(apiRate)} changes/s, SQL ${formatNumber(sqlRate)} changes/s: ratio ${(apiRate / sqlRate).toFixed(2)}`);
  console.log(`RSS MiB at the quarters: server ${rssText('server')}; client ${rssText('client')} — ${flat ? 'flat' : 'GROWS'}`);
  recordPerformance([
    {
      key: 'change-feed-read',
      path: `GET /api/v2/changes, the whole feed of ${formatNumber(CHANGES)} changes, per_page ${PAGE}`,
      figure: `${formatNumber(apiRate)} changes/s; RSS server ${rssText('server')} MiB, client ${rssText('client')} MiB`,
      baseline: `the route's keyset statement through pg: ${formatNumber(sqlRate)} changes/s`,
      ratio: (apiRate / sqlRate).toFixed(2),
      cpu: 'n/a',
      aim: `≥ ${formatNumber(AIM)} changes/s, client RSS growth ≤ ${FLAT_MIB} MiB after the first quarter`,
      met: apiRate >= AIM && flat,
      command: benchCommand('bench:changes'),
    },
  ]);
} finally {
  await exit.cleanup();
}
