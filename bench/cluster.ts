/**
 * `npm run bench:cluster`: two Sheaf nodes against one, through HAProxy, in the same run
 * (issue 27 item 5). The layout is `npm run cluster`'s (scripts/cluster-processes.ts): real
 * `sheaf serve` processes on one PostgreSQL schema, Redis for the rate limit, HAProxy from
 * Debian's package on deploy/haproxy.cfg. Two proxies run side by side: one balancing over
 * both nodes, one whose two servers are the same node (one node behind the same proxy, so the
 * proxy's hop is in both figures). Measured with autocannon, rounds alternating between them:
 *
 * - `GET /api/v2/users/me` (the owner's full-access key);
 * - `POST /api/v2/time_entries`: a completed entry for a random person/project/task of the
 *   seeded workspace (bench/seed-time-entries.ts, 20,000 entries by default), on a weekday of
 *   the open weeks, as the owner naming the person.
 *
 * For each: requests per second with two nodes and with one, their ratio, and the CPU per
 * request of the node processes (/proc/PID/stat of both `sheaf serve` processes, utime + stime),
 * of their PostgreSQL backends (found by the pools' application_name) and of HAProxy. Every
 * response must be a 200 (201 for creates): anything else makes the run invalid (exit 1).
 * The machine's CPUs bound what a second node can add: the load generator, PostgreSQL, Redis
 * and HAProxy share them, so the ratio is reported with the CPU count and load average.
 *
 * Options (flag, or environment variable):
 *   --duration    BENCH_DURATION     seconds per measured run          (default 5)
 *   --warmup      BENCH_WARMUP       seconds of warm-up per layout      (default 2)
 *   --rounds      BENCH_ROUNDS       measured runs per layout and path  (default 2)
 *   --connections BENCH_CONNECTIONS  concurrent HTTP connections        (default 32)
 *   --pool        BENCH_POOL_SIZE    each node's PostgreSQL pool        (default 10)
 *   --entries     BENCH_ENTRIES      time entries seeded                (default 20000)
 *   --out         BENCH_OUT          JSON results          (default .bench/cluster.json)
 * DATABASE_URL selects PostgreSQL (default postgres://root@127.0.0.1:5432/test; the seed needs
 * a superuser); the run works in its own schema (sheaf_bench_<random>), dropped at the end, on
 * failure and on Ctrl-C. REDIS_URL (default redis://127.0.0.1:6379).
 *
 *   npm run bench:cluster
 *   npm run bench:cluster -- --duration 10 --rounds 3
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type CannonRequest, type Options as CannonOptions, type Result } from 'autocannon';
import { Redis } from 'ioredis';
import pg from 'pg';
import { operatorPrincipal } from '../src/access/operator.ts';
import { connectionOptions, openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { pgTypes } from '../src/db/type-parsers.ts';
import { createKey } from '../src/modules/people/credentials/service.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { findHaproxy, freePort, ROOT, startNode, startProxy, type Proxy, type SheafNode } from '../scripts/cluster-processes.ts';
import { DatabaseCpu, benchSchema, dropSchemaOrSay, loadAverage, machineCpuMicros, median, numberOption, postgresUrl, processCpuMicros, table, wayOut } from './harness.ts';
import { benchCommand, formatNumber, recordPerformance } from './performance.ts';
import { seedTimeEntries, type Combo } from './seed-time-entries.ts';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)];
const HOURS = Array.from({ length: 32 }, (_, i) => (i + 1) / 4);

type Layout = 'one node' | 'two nodes';
type PathKey = 'users-me' | 'time-entries-create';

interface Run {
  path: PathKey;
  layout: Layout;
  reqPerSec: number;
  requests: number;
  p50: number;
  p99: number;
  nodeMicrosPerReq: number;
  pgMicrosPerReq: number | null;
  haproxyMicrosPerReq: number;
  machineBusyPercent: number | null;
  loadAverage: number;
}

function readOptions() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      pool: { type: 'string' },
      entries: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log('usage: npm run bench:cluster -- [--duration s] [--warmup s] [--rounds n] [--connections n] [--pool n] [--entries n] [--out file]');
    process.exit(0);
  }
  return {
    duration: numberOption('duration', values.duration, 'BENCH_DURATION', 5, false, 1),
    warmup: numberOption('warmup', values.warmup, 'BENCH_WARMUP', 2, false, 0),
    rounds: numberOption('rounds', values.rounds, 'BENCH_ROUNDS', 2, true, 1),
    connections: numberOption('connections', values.connections, 'BENCH_CONNECTIONS', 32, true, 1),
    pool: numberOption('pool', values.pool, 'BENCH_POOL_SIZE', 10, true, 1),
    entries: numberOption('entries', values.entries, 'BENCH_ENTRIES', 20_000, true, 1000),
    out: resolve(values.out ?? process.env.BENCH_OUT ?? resolve(ROOT, '.bench/cluster.json')),
  };
}

/** The owner and its key in a new workspace, in the run's schema (migrated here, once). */
async function prepareWorkspace(databaseUrl: string, schema: string) {
  const database = await openDatabase({ databaseUrl, schema, poolSize: 2 });
  try {
    await migrate(database.db);
    const company = await createWorkspace(database.db, { name: 'Cluster Bench' });
    const owner = await createMember(database.db, operatorPrincipal(company.id), { email: `owner.${schema}@bench.example`, first_name: 'Olive', last_name: 'Owner', role: 'owner' });
    const { secret } = await createKey(database.db, operatorPrincipal(company.id), { userId: owner.user_id, kind: 'integration' });
    return { companyId: company.id, headers: { authorization: `Bearer ${secret}`, 'service-account-id': company.id } };
  } finally {
    await database.close();
  }
}

async function main() {
  const options = readOptions();
  const haproxy = findHaproxy();
  if (!haproxy) {
    console.error('bench:cluster: haproxy is not installed (apt-get install -y haproxy)');
    process.exit(1);
  }
  const databaseUrl = postgresUrl();
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const { schema } = benchSchema();
  const redisPrefix = `sheaf:bench:${schema}:`;
  const nodes: SheafNode[] = [];
  const proxies: Proxy[] = [];
  let monitor: pg.Client | undefined;
  let running: ReturnType<typeof autocannon> | undefined;

  const exit = wayOut(`stopping the load, the nodes and the proxies, and dropping schema ${schema}`, async () => {
    running?.stop();
    for (const p of proxies) await p.stop().catch(() => {});
    await Promise.all(nodes.map((n) => n.stop().catch(() => {})));
    await monitor?.end().catch(() => {});
    await dropSchemaOrSay(databaseUrl, schema);
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis
      .connect()
      .then(async () => {
        const keys = await redis.keys(`${redisPrefix}*`);
        if (keys.length) await redis.del(...keys);
      })
      .catch(() => {});
    redis.disconnect();
  });

  const cpus = os.availableParallelism();
  console.log(
    `cluster benchmark: ${options.entries.toLocaleString('en')} entries seeded; ${options.connections} connections, pool ${options.pool} per node, ` +
      `${options.warmup}s warm-up + ${options.rounds}×${options.duration}s per layout and path`,
  );
  console.log(`PostgreSQL ${databaseUrl.replace(/\/\/[^@/]*@/, '//…@')}, schema ${schema}; Redis ${redisUrl}; ${cpus} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), loadavg ${loadAverage().raw}`);

  try {
    const ws = await prepareWorkspace(databaseUrl, schema);
    const seeder = new pg.Client({ connectionString: databaseUrl, options: connectionOptions(schema), types: pgTypes, application_name: `${schema}-seed` });
    await seeder.connect();
    const seed = await seedTimeEntries(seeder, ws.companyId, { entries: options.entries, users: 50, projects: 40, years: 1 }, (line) => console.log(`seed: ${line}`)).finally(() =>
      seeder.end(),
    );
    const openDates: string[] = [];
    const openFrom = Date.parse(`${seed.openFrom}T00:00:00Z`);
    for (let w = 0; w < seed.openWeeks; w++) for (let d = 0; d < 5; d++) openDates.push(iso(openFrom + (w * 7 + d) * DAY));

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      DATABASE_POOL_SIZE: String(options.pool),
      REDIS_URL: redisUrl,
      RATE_LIMIT_REDIS_PREFIX: redisPrefix,
      RATE_LIMIT_MAX: '1000000000',
      TRUST_PROXY: 'loopback',
      WEB_DIST: 'off',
      LOG_LEVEL: 'silent',
    };
    for (const name of ['node1', 'node2']) nodes.push(await startNode(name, { env }));
    const one = await startProxy({ haproxy, port: await freePort(), nodes: [nodes[0].address, nodes[0].address] });
    proxies.push(one);
    const two = await startProxy({ haproxy, port: await freePort(), nodes: nodes.map((n) => n.address) });
    proxies.push(two);
    const urlOf: Record<Layout, string> = { 'one node': one.url, 'two nodes': two.url };
    console.log(`nodes: ${nodes.map((n) => `${n.name} pid ${n.pid} ${n.url}`).join(', ')}; proxies: one node ${one.url}, two nodes ${two.url}\n`);

    monitor = new pg.Client({ connectionString: databaseUrl, application_name: `${schema}-monitor` });
    await monitor.connect();
    const dbCpu = new DatabaseCpu(monitor, schema);

    const postHeaders = { ...ws.headers, 'content-type': 'application/json' };
    const createBody = (combos: readonly Combo[]) => {
      const c = pick(combos);
      return JSON.stringify({ user_id: c.user_id, project_id: c.project_id, task_id: c.task_id, spent_date: pick(openDates), hours: pick(HOURS), source: 'api' });
    };
    const load: Record<PathKey, { label: string; path: string; ok: string; options: Partial<CannonOptions> }> = {
      'users-me': { label: 'GET /api/v2/users/me', path: '/api/v2/users/me', ok: '200', options: { headers: ws.headers } },
      'time-entries-create': {
        label: 'POST /api/v2/time_entries',
        path: '/api/v2/time_entries',
        ok: '201',
        options: {
          requests: [{ method: 'POST', path: '/api/v2/time_entries', headers: postHeaders, setupRequest: (r: CannonRequest) => ({ ...r, body: createBody(seed.combos) }) }],
        },
      },
    };
    // A probe of each before any load: a wrong body is a clear error, not a run of 400s.
    const probe = await fetch(`${two.url}/api/v2/time_entries`, { method: 'POST', headers: postHeaders, body: createBody(seed.combos) });
    if (probe.status !== 201) throw new Error(`a create answered ${probe.status}: ${await probe.text()}`);

    const pids = nodes.map((n) => n.pid);
    const cpuOf = (list: number[]) => list.reduce((sum, pid) => sum + (processCpuMicros(pid) ?? 0), 0);
    const measure = async (path: PathKey, layout: Layout, seconds: number): Promise<Run> => {
      const spec = load[path];
      const nodeBefore = cpuOf(pids);
      const proxyBefore = cpuOf(proxies.map((p) => p.child.pid!));
      await dbCpu.sample();
      const machineBefore = machineCpuMicros();
      running = autocannon({ url: `${urlOf[layout]}${spec.path}`, connections: options.connections, duration: seconds, pipelining: 1, timeout: 10, ...spec.options });
      const result: Result = await running;
      running = undefined;
      const machineAfter = machineCpuMicros();
      const dbMicros = await dbCpu.sample();
      const nodeMicros = cpuOf(pids) - nodeBefore;
      const proxyMicros = cpuOf(proxies.map((p) => p.child.pid!)) - proxyBefore;
      const codes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
      const requests = Object.values(codes).reduce((a, b) => a + b, 0);
      if (result.errors || result.timeouts || Object.keys(codes).some((c) => c !== spec.ok)) {
        throw new Error(`${spec.label} through ${layout}: statuses ${JSON.stringify(codes)}, ${result.errors} errors, ${result.timeouts} timeouts`);
      }
      return {
        path,
        layout,
        reqPerSec: requests / result.duration,
        requests,
        p50: result.latency.p50,
        p99: result.latency.p99,
        nodeMicrosPerReq: nodeMicros / requests,
        pgMicrosPerReq: dbMicros === null ? null : dbMicros / requests,
        haproxyMicrosPerReq: proxyMicros / requests,
        machineBusyPercent: machineBefore && machineAfter ? ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * 100 : null,
        loadAverage: loadAverage().oneMinute,
      };
    };

    const runs: Run[] = [];
    for (const path of ['users-me', 'time-entries-create'] as const) {
      if (options.warmup > 0) for (const layout of ['one node', 'two nodes'] as const) await measure(path, layout, options.warmup);
      for (let r = 0; r < options.rounds; r++) {
        // Alternating order, so drift of the machine falls on both alike.
        const order: Layout[] = r % 2 === 0 ? ['one node', 'two nodes'] : ['two nodes', 'one node'];
        for (const layout of order) {
          const run = await measure(path, layout, options.duration);
          runs.push(run);
          console.log(
            `${load[path].label.padEnd(27)} ${layout.padEnd(9)} ${formatNumber(run.reqPerSec).padStart(6)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  ` +
              `node ${formatNumber(run.nodeMicrosPerReq)} µs/req  pg ${run.pgMicrosPerReq === null ? `n/a (${dbCpu.unreadable})` : `${formatNumber(run.pgMicrosPerReq)} µs/req`}  ` +
              `haproxy ${formatNumber(run.haproxyMicrosPerReq)} µs/req  machine ${run.machineBusyPercent?.toFixed(0) ?? '?'} % busy  loadavg ${run.loadAverage.toFixed(1)}`,
          );
        }
      }
    }

    const summary = (['users-me', 'time-entries-create'] as const).map((path) => {
      const of = (layout: Layout) => runs.filter((r) => r.path === path && r.layout === layout);
      const m = (layout: Layout, f: (r: Run) => number | null) => {
        const xs = of(layout)
          .map(f)
          .filter((x): x is number => x !== null);
        return xs.length ? median(xs) : null;
      };
      return {
        path,
        label: load[path].label,
        oneReqPerSec: m('one node', (r) => r.reqPerSec)!,
        twoReqPerSec: m('two nodes', (r) => r.reqPerSec)!,
        ratio: m('two nodes', (r) => r.reqPerSec)! / m('one node', (r) => r.reqPerSec)!,
        oneNodeMicros: m('one node', (r) => r.nodeMicrosPerReq)!,
        twoNodeMicros: m('two nodes', (r) => r.nodeMicrosPerReq)!,
        onePgMicros: m('one node', (r) => r.pgMicrosPerReq),
        twoPgMicros: m('two nodes', (r) => r.pgMicrosPerReq),
        haproxyMicros: m('two nodes', (r) => r.haproxyMicrosPerReq)!,
      };
    });
    const f0 = (x: number | null) => (x === null ? 'n/a' : formatNumber(x));
    console.log(
      `\n${table([
        ['path', '1 node req/s', '2 nodes req/s', 'ratio', 'node µs/req 1 | 2', 'pg µs/req 1 | 2', 'haproxy µs/req'],
        ...summary.map((s) => [
          s.label,
          f0(s.oneReqPerSec),
          f0(s.twoReqPerSec),
          s.ratio.toFixed(2),
          `${f0(s.oneNodeMicros)} | ${f0(s.twoNodeMicros)}`,
          `${f0(s.onePgMicros)} | ${f0(s.twoPgMicros)}`,
          f0(s.haproxyMicros),
        ]),
      ])}\n`,
    );
    console.log(`${cpus} CPUs shared by the nodes, PostgreSQL, Redis, HAProxy and the load generator; loadavg ${loadAverage().raw}`);

    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, `${JSON.stringify({ date: new Date().toISOString(), cpus, options, summary, runs }, null, 2)}\n`);
    console.log(`results: ${relative(process.cwd(), options.out)}`);
    recordPerformance(
      summary.map((s) => ({
        key: `cluster-${s.path}`,
        path: `${s.label}, 2 nodes behind HAProxy`,
        figure: `${formatNumber(s.twoReqPerSec)} req/s`,
        baseline: `1 node behind the same proxy: ${formatNumber(s.oneReqPerSec)} req/s`,
        ratio: s.ratio.toFixed(2),
        cpu: `node ${f0(s.twoNodeMicros)} µs + pg ${f0(s.twoPgMicros)} µs + haproxy ${f0(s.haproxyMicros)} µs (1 node: node ${f0(s.oneNodeMicros)} µs + pg ${f0(s.onePgMicros)} µs)`,
        aim: `reported (issue 27); ${cpus} CPUs shared with PostgreSQL and the load generator bound it`,
        met: true,
        command: benchCommand('bench:cluster'),
      })),
    );
  } finally {
    await exit.cleanup();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
