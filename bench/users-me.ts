/**
 * `npm run bench`: authenticated `GET /api/v2/users/me` throughput on PostgreSQL,
 * as a ratio to a bare Fastify route running one primary-key SELECT on the same
 * database pool, measured in the same run. Aim (issue 24): ratio >= 0.8, and CPU per
 * response (server process + its PostgreSQL backends) within 1.25× of the baseline's.
 *
 * This process is the driver and load generator (autocannon). The servers run in a
 * forked child (bench/servers.ts), so the load generator never shares their event
 * loop. Both targets are measured identically: a warm-up of each, then rounds in
 * alternating order (baseline, sheaf | sheaf, baseline | ...) so slow drift of the
 * machine (other processes, Postgres autovacuum) falls on both alike.
 *
 * Every response must be a 200; any other status, socket error or timeout makes
 * the measurement invalid (exit 1). A missed target is reported, not failed: the
 * exit status is 0 whether or not the ratio reaches the target.
 *
 * A third target runs in the same rotation: a bare route that does Sheaf's own
 * authentication of the request (authenticate(): the key query and its rules) and answers
 * the principal, with none of the app's hooks, rate limit or presenting (bench/servers.ts,
 * `/baseline/authenticated`). It shows how much of the gap is the per-request reading of the
 * credential, membership and person that the rules require, and how much the rest of the app.
 *
 * The figure is the throughput ratio (all 200s over all measured seconds, sheaf over
 * baseline). To explain it, each run also records the CPU time per response of the
 * server process ("node µs/req") and of the PostgreSQL backends serving the pool
 * ("pg µs/req", read from /proc, found by the pool's application_name; n/a, with
 * the reason, for a remote database), the server's event-loop utilisation, and the CPU that processes outside
 * the benchmark took ("other"). On a shared machine the throughput ratio swings with
 * the neighbours' load; the CPU-cost ratio (baseline node+pg µs over sheaf node+pg µs)
 * hardly does, and is printed beside it as a cross-check.
 *
 * Options (flag, or environment variable):
 *   --duration  BENCH_DURATION     seconds per measured run            (default 5)
 *   --warmup    BENCH_WARMUP       seconds of warm-up per target       (default 3)
 *   --rounds    BENCH_ROUNDS       measured runs per target            (default 5)
 *   --connections BENCH_CONNECTIONS concurrent HTTP connections         (default 16)
 *   --pool      BENCH_POOL_SIZE    PostgreSQL pool size (shared)        (default 10)
 *   --members   BENCH_MEMBERS      people in the workspace besides its owner, every fifth
 *                                  with a key (default 0: the README's row is a workspace of one)
 *   --target    BENCH_TARGET       ratio to pass                        (default 0.8)
 *   --cpu-target BENCH_CPU_TARGET  CPU per response at most this × the baseline's (default 1.25)
 *   --out       BENCH_OUT          JSON results file       (default .bench/users-me.json)
 *   --profile                      write a V8 CPU profile of the server process to .bench/profiles/
 * DATABASE_URL selects PostgreSQL (default postgres://root@127.0.0.1:5432/test); the
 * run works in its own schema (sheaf_bench_<random>), dropped at the end, on failure
 * and on Ctrl-C.
 *
 *   npm run bench
 *   npm run bench -- --duration 10 --rounds 4 --connections 32
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { ReadyMessage } from './protocol.ts';
import { benchCommand, formatNumber, recordPerformance } from './performance.ts';
import { DatabaseCpu, ROOT, ServerProcess, benchSchema, dropSchemaOrSay, forkServer, machineInfo, measureLoad, median, numberOption, postgresUrl, stopLoad, table, wayOut } from './harness.ts';


type Target = 'baseline' | 'authenticated' | 'sheaf';

interface Options {
  duration: number;
  warmup: number;
  rounds: number;
  connections: number;
  pool: number;
  members: number;
  target: number;
  cpuTarget: number;
  out: string;
  profile: boolean;
}

interface Run {
  target: Target;
  phase: 'warmup' | 'measure';
  round: number;
  url: string;
  seconds: number;
  requests: number;
  rps: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  statusCodes: Record<string, number>;
  non200: number;
  errors: number;
  timeouts: number;
  /** Server process CPU (user + system) as a share of one core, and per response. */
  serverCpuPercent: number;
  serverCpuMicrosPerRequest: number;
  /** Server event-loop utilisation during the run, 0..1 (1 = the loop never idled). */
  serverEventLoopUtilization: number;
  /** This process (autocannon) as a share of one core. */
  loadgenCpuPercent: number;
  /**
   * CPU of the PostgreSQL backends serving the pool, as a share of one core and per
   * response; null when they cannot be read (database on another host).
   */
  dbCpuPercent: number | null;
  dbCpuMicrosPerRequest: number | null;
  /** Whole machine: busy share of all CPUs, and the part no process of this benchmark used. */
  machineBusyPercent: number | null;
  otherCpuPercent: number | null;
}

// ---------------------------------------------------------------------------- options

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      pool: { type: 'string' },
      members: { type: 'string' },
      target: { type: 'string' },
      'cpu-target': { type: 'string' },
      out: { type: 'string' },
      profile: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(
      'usage: npm run bench -- [--duration s] [--warmup s] [--rounds n] [--connections n] [--pool n] [--members n] [--target ratio] [--cpu-target multiple] [--out file] [--profile]',
    );
    process.exit(0);
  }
  const env = process.env;
  return {
    duration: numberOption('duration', values.duration, 'BENCH_DURATION', 5, false, 1),
    warmup: numberOption('warmup', values.warmup, 'BENCH_WARMUP', 3, false, 0),
    rounds: numberOption('rounds', values.rounds, 'BENCH_ROUNDS', 5, true, 1),
    connections: numberOption('connections', values.connections, 'BENCH_CONNECTIONS', 16, true, 1),
    pool: numberOption('pool', values.pool, 'BENCH_POOL_SIZE', 10, true, 1),
    members: numberOption('members', values.members, 'BENCH_MEMBERS', 0, true, 0),
    target: numberOption('target', values.target, 'BENCH_TARGET', 0.8, false, 0),
    cpuTarget: numberOption('cpu-target', values['cpu-target'], 'BENCH_CPU_TARGET', 1.25, false, 1),
    out: resolve(ROOT, values.out ?? env.BENCH_OUT ?? '.bench/users-me.json'),
    profile: values.profile ?? false,
  };
}

// ---------------------------------------------------------------------------- measuring

async function measure(
  server: ServerProcess,
  dbCpu: DatabaseCpu,
  target: Target,
  url: string,
  headers: Record<string, string>,
  seconds: number,
  options: Options,
  phase: Run['phase'],
  round: number,
): Promise<Run> {
  const m = await measureLoad(server, dbCpu, { url, headers, connections: options.connections, duration: seconds });
  const { result, requests } = m;
  const ok = m.statusCodes['200'] ?? 0;
  return {
    target,
    phase,
    round,
    url,
    seconds: result.duration,
    requests,
    rps: ok / result.duration,
    latencyMs: {
      mean: result.latency.mean,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    statusCodes: m.statusCodes,
    non200: requests - ok,
    errors: result.errors,
    timeouts: result.timeouts,
    serverCpuPercent: (m.serverCpuMicros / 1000 / m.serverWallMs) * 100,
    serverCpuMicrosPerRequest: requests ? m.serverCpuMicros / requests : 0,
    serverEventLoopUtilization: m.serverEventLoopUtilization,
    loadgenCpuPercent: (m.loadgenMicros / m.wallMicros) * 100,
    dbCpuPercent: m.dbMicros === null ? null : (m.dbMicros / m.wallMicros) * 100,
    dbCpuMicrosPerRequest: m.dbMicros === null || !requests ? null : m.dbMicros / requests,
    machineBusyPercent: m.machineBusyPercent,
    // In "cores": everything busy on the machine minus this benchmark's three parts.
    otherCpuPercent: m.otherCpuPercent,
  };
}

/** One request by hand before the load: the key works, a missing key is refused, the baseline finds the row. */
async function sanityCheck(ready: ReadyMessage) {
  const me = await fetch(`${ready.sheafUrl}/api/v2/users/me`, { headers: ready.headers });
  const body = (await me.json()) as { company?: { id?: string }; roles?: string[] };
  if (me.status !== 200 || body.company?.id !== ready.companyId || !body.roles?.includes('owner')) {
    throw new Error(`GET /api/v2/users/me answered ${me.status} ${JSON.stringify(body)}`);
  }
  const anonymous = await fetch(`${ready.sheafUrl}/api/v2/users/me`);
  await anonymous.arrayBuffer();
  if (anonymous.status !== 401) throw new Error(`GET /api/v2/users/me without a key answered ${anonymous.status}, not 401`);
  const base = await fetch(baselineUrl(ready));
  const row = (await base.json()) as { id?: string };
  if (base.status !== 200 || row.id !== ready.companyId) throw new Error(`baseline answered ${base.status} ${JSON.stringify(row)}`);
  const auth = await fetch(authenticatedUrl(ready), { headers: ready.headers });
  const principal = (await auth.json()) as { companyId?: string; role?: string };
  if (auth.status !== 200 || principal.companyId !== ready.companyId || principal.role !== 'owner') {
    throw new Error(`the bare authenticated route answered ${auth.status} ${JSON.stringify(principal)}`);
  }
}

const baselineUrl = (ready: ReadyMessage) => `${ready.baselineUrl}/baseline/companies/${ready.companyId}`;
const sheafUrl = (ready: ReadyMessage) => `${ready.sheafUrl}/api/v2/users/me`;
const authenticatedUrl = (ready: ReadyMessage) => `${ready.baselineUrl}/baseline/authenticated`;

// ---------------------------------------------------------------------------- reporting


function summarize(runs: Run[], target: Target) {
  const mine = runs.filter((r) => r.phase === 'measure' && r.target === target);
  const ok = mine.reduce((a, r) => a + (r.statusCodes['200'] ?? 0), 0);
  const seconds = mine.reduce((a, r) => a + r.seconds, 0);
  return {
    rps: ok / seconds,
    rpsPerRun: mine.map((r) => r.rps),
    p50Ms: median(mine.map((r) => r.latencyMs.p50)),
    p99Ms: median(mine.map((r) => r.latencyMs.p99)),
    worstP99Ms: Math.max(...mine.map((r) => r.latencyMs.p99)),
    serverCpuMicrosPerRequest: median(mine.map((r) => r.serverCpuMicrosPerRequest)),
    serverEventLoopUtilization: median(mine.map((r) => r.serverEventLoopUtilization)),
    dbCpuMicrosPerRequest: mine.every((r) => r.dbCpuMicrosPerRequest !== null)
      ? median(mine.map((r) => r.dbCpuMicrosPerRequest!))
      : null,
    requests: mine.reduce((a, r) => a + r.requests, 0),
  };
}

const f0 = (x: number) => x.toFixed(0);
const f2 = (x: number) => x.toFixed(2);

// ---------------------------------------------------------------------------- main

async function main() {
  const options = readOptions();
  const databaseUrl = postgresUrl();
  const { schema, applicationName } = benchSchema();
  let server: ServerProcess | undefined;
  let monitor: pg.Client | undefined;
  const exit = wayOut(`stopping the load, the servers, and dropping schema ${schema}`, async () => {
    stopLoad();
    await server?.stop();
    await monitor?.end().catch(() => {});
    await dropSchemaOrSay(databaseUrl, schema);
  });

  const machine = { ...machineInfo(), loadAverage1m: os.loadavg()[0] };
  const pgTarget = databaseUrl.replace(/\/\/[^@/]*@/, '//…@');
  const measured = options.rounds * 2 * options.duration + 2 * options.warmup;
  console.log(
    `users/me benchmark: ${options.connections} connections, pool ${options.pool}, ${options.members + 1} people in the workspace, ` +
      `${options.warmup}s warm-up + ${options.rounds}×${options.duration}s per target (~${Math.round(measured)}s of load)`,
  );
  console.log(`PostgreSQL ${pgTarget}, schema ${schema}; ${machine.nproc} CPUs (${machine.cpu}), load ${f2(machine.loadAverage1m)}`);

  try {
    server = forkServer({ databaseUrl, schema, pool: options.pool, applicationName, profile: options.profile, members: options.members });
    const ready = await server.ready(120_000);
    await sanityCheck(ready);
    monitor = new pg.Client({ connectionString: databaseUrl, application_name: `${applicationName}-monitor` });
    await monitor.connect();
    const dbCpu = new DatabaseCpu(monitor, schema);
    const urls: Record<Target, string> = { baseline: baselineUrl(ready), authenticated: authenticatedUrl(ready), sheaf: sheafUrl(ready) };
    const headers: Record<Target, Record<string, string>> = { baseline: {}, authenticated: ready.headers, sheaf: ready.headers };
    console.log(`PostgreSQL ${ready.postgresVersion}; sheaf ${urls.sheaf}; baseline ${urls.baseline}\n`);

    const runs: Run[] = [];
    const step = async (target: Target, phase: Run['phase'], round: number, seconds: number) => {
      if (exit.interrupted) throw new Error('interrupted');
      process.stdout.write(`${phase === 'warmup' ? 'warm-up' : `round ${round}`} ${target} (${seconds}s) … `);
      const run = await measure(server!, dbCpu, target, urls[target], headers[target], seconds, options, phase, round);
      runs.push(run);
      console.log(
        `${f0(run.rps)} req/s, p50 ${f2(run.latencyMs.p50)} ms, p99 ${f2(run.latencyMs.p99)} ms` +
          (run.non200 || run.errors || run.timeouts ? `  !! ${run.non200} non-200, ${run.errors} errors, ${run.timeouts} timeouts` : ''),
      );
    };
    if (options.warmup > 0) {
      await step('baseline', 'warmup', 0, options.warmup);
      await step('authenticated', 'warmup', 0, options.warmup);
      await step('sheaf', 'warmup', 0, options.warmup);
    }
    for (let round = 1; round <= options.rounds; round++) {
      const order: Target[] = round % 2 ? ['baseline', 'authenticated', 'sheaf'] : ['sheaf', 'authenticated', 'baseline'];
      for (const target of order) await step(target, 'measure', round, options.duration);
    }

    // ------------------------------------------------------------------ verdict
    const baseline = summarize(runs, 'baseline');
    const sheaf = summarize(runs, 'sheaf');
    const authenticated = summarize(runs, 'authenticated');
    const ratio = sheaf.rps / baseline.rps;
    const authenticatedRatio = authenticated.rps / baseline.rps;
    const sheafToAuthenticated = sheaf.rps / authenticated.rps;
    // What each response costs the machine (server process + PostgreSQL backends). On a
    // CPU-bound machine throughput follows it, and it hardly moves when other processes
    // compete for the CPUs, so it corroborates (never replaces) the throughput ratio.
    const cpuCost = (t: ReturnType<typeof summarize>) =>
      t.dbCpuMicrosPerRequest === null ? null : t.serverCpuMicrosPerRequest + t.dbCpuMicrosPerRequest;
    const baselineCost = cpuCost(baseline);
    const sheafCost = cpuCost(sheaf);
    const cpuCostRatio = baselineCost !== null && sheafCost !== null ? baselineCost / sheafCost : null;
    const roundRatios = Array.from({ length: options.rounds }, (_, i) => {
      const of = (t: Target) => runs.find((r) => r.phase === 'measure' && r.round === i + 1 && r.target === t)!.rps;
      return of('sheaf') / of('baseline');
    });
    const bad = runs.filter((r) => r.non200 || r.errors || r.timeouts || r.requests === 0);
    const valid = bad.length === 0;
    // CPU per response against the baseline's: server process and PostgreSQL backends, or the
    // server process alone where the backends cannot be read.
    const cpuMultiple =
      baselineCost !== null && sheafCost !== null ? sheafCost / baselineCost : sheaf.serverCpuMicrosPerRequest / baseline.serverCpuMicrosPerRequest;
    const cpuOk = cpuMultiple <= options.cpuTarget;
    const pass = valid && ratio >= options.target && cpuOk;

    const opt = (x: number | null, digits = 0) => (x === null ? 'n/a' : x.toFixed(digits));
    console.log('\nmeasured runs (CPU in % of one core; "other" = machine CPU used by processes outside this benchmark)');
    console.log(
      table([
        ['run', 'req/s', 'p50 ms', 'p99 ms', 'non-200', 'errors', 'node µs/req', 'pg µs/req', 'node CPU', 'node ELU', 'pg CPU', 'autocannon', 'other'],
        ...runs
          .filter((r) => r.phase === 'measure')
          .map((r) => [
            `${r.round} ${r.target}`,
            f0(r.rps),
            f2(r.latencyMs.p50),
            f2(r.latencyMs.p99),
            String(r.non200),
            String(r.errors + r.timeouts),
            f0(r.serverCpuMicrosPerRequest),
            opt(r.dbCpuMicrosPerRequest),
            `${f0(r.serverCpuPercent)}%`,
            f2(r.serverEventLoopUtilization),
            `${opt(r.dbCpuPercent)}%`,
            `${f0(r.loadgenCpuPercent)}%`,
            `${opt(r.otherCpuPercent)}%`,
          ]),
      ]),
    );
    console.log('\nsummary (req/s: all 200s over all measured seconds; latency and CPU: median of the runs)');
    const summaryRow = (name: string, t: ReturnType<typeof summarize>) => [
      name,
      f0(t.rps),
      f2(t.p50Ms),
      f2(t.p99Ms),
      f0(t.serverCpuMicrosPerRequest),
      opt(t.dbCpuMicrosPerRequest),
      String(t.requests),
    ];
    console.log(
      table([
        ['target', 'req/s', 'p50 ms', 'p99 ms', 'node µs/req', 'pg µs/req', 'requests'],
        summaryRow('baseline (bare Fastify, 1 PK select)', baseline),
        summaryRow('bare route, Sheaf\'s authentication alone', authenticated),
        summaryRow('sheaf GET /api/v2/users/me', sheaf),
      ]),
    );
    const spread = `per round ${roundRatios.map(f2).join(', ')} (min ${f2(Math.min(...roundRatios))}, max ${f2(Math.max(...roundRatios))})`;
    console.log(`\nratio sheaf/baseline: ${ratio.toFixed(3)}   ${spread}`);
    console.log(
      `bare route with Sheaf's authentication alone: ${f0(authenticated.rps)} req/s, ${authenticatedRatio.toFixed(3)} of the baseline; ` +
        `users/me ${sheafToAuthenticated.toFixed(3)} of it`,
    );
    if (dbCpu.unreadable) console.log(`pg µs/req n/a: ${dbCpu.unreadable}`);
    if (cpuCostRatio !== null) {
      console.log(
        `CPU per response, node + pg: baseline ${f0(baselineCost!)} µs, sheaf ${f0(sheafCost!)} µs; ` +
          `CPU-cost ratio ${cpuCostRatio.toFixed(3)} (throughput ratio to expect on an otherwise idle CPU-bound machine)`,
      );
    }
    const busy = runs.filter((r) => r.phase === 'measure' && r.otherCpuPercent !== null && r.otherCpuPercent > 25);
    if (busy.length) {
      console.log(
        `note: other processes used more than a quarter of a core in ${busy.length} of ${runs.filter((r) => r.phase === 'measure').length} runs ` +
          `(load average ${f2(os.loadavg()[0])} on ${machine.nproc} CPUs); expect spread between rounds`,
      );
    }
    if (!valid) {
      console.log(
        `VERDICT: INVALID — ${bad.length} run(s) saw non-200 responses, socket errors or timeouts: ` +
          bad.map((r) => `${r.target} ${JSON.stringify(r.statusCodes)} errors ${r.errors} timeouts ${r.timeouts}`).join('; '),
      );
    } else {
      const ratioOk = ratio >= options.target;
      console.log(
        `VERDICT: ${pass ? 'PASS' : 'MISS'} — ratio ${ratio.toFixed(3)} ${ratioOk ? '>=' : '<'} target ${options.target}; ` +
          `CPU per response ${cpuMultiple.toFixed(2)}× the baseline's (${baselineCost !== null && sheafCost !== null ? 'node + pg' : 'node only'}) ` +
          `${cpuOk ? '<=' : '>'} ${options.cpuTarget}×`,
      );
    }

    const report = {
      benchmark: 'users-me',
      date: new Date().toISOString(),
      description:
        'Authenticated GET /api/v2/users/me (full-access key) on PostgreSQL vs a bare Fastify route running one primary-key SELECT on the same Kysely pool, same process, same run',
      machine,
      postgres: { url: pgTarget, version: ready.postgresVersion, schema },
      options: { ...options, out: relative(ROOT, options.out) },
      summary: {
        baseline,
        sheaf,
        ratio,
        roundRatios,
        authenticated,
        authenticatedRatio,
        cpuMicrosPerRequest: { baseline: baselineCost, sheaf: sheafCost },
        cpuCostRatio,
        cpuMultiple,
        cpuTarget: options.cpuTarget,
        target: options.target,
        valid,
        pass,
        verdict: !valid ? 'invalid' : pass ? 'pass' : 'miss',
      },
      runs,
    };
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, JSON.stringify(report, null, 2) + '\n');
    console.log(`results: ${relative(process.cwd(), options.out) || options.out}`);
    if (valid) {
      const cpu = (micros: number | null, server: number) => `${formatNumber(micros ?? server)} µs${micros === null ? ' (server only)' : ''}`;
      recordPerformance([
        {
          // A larger workspace is a row of its own: the README's first row is a workspace of one.
          key: options.members ? 'users-me-members' : 'users-me',
          path: `GET /api/v2/users/me (full-access key${options.members ? `; a workspace of ${formatNumber(options.members + 1)} people` : ''})`,
          figure: `${formatNumber(sheaf.rps)} req/s`,
          baseline: `bare Fastify route, one primary-key SELECT: ${formatNumber(baseline.rps)} req/s; a bare route with Sheaf's authentication alone: ${formatNumber(authenticated.rps)} req/s (${authenticatedRatio.toFixed(2)} of it, users/me ${sheafToAuthenticated.toFixed(2)} of this)`,
          ratio: ratio.toFixed(2),
          cpu: `${cpu(sheafCost, sheaf.serverCpuMicrosPerRequest)} node + pg (baseline ${cpu(baselineCost, baseline.serverCpuMicrosPerRequest)}): ${cpuMultiple.toFixed(2)}×`,
          aim: `ratio ≥ ${options.target}, CPU ≤ ${options.cpuTarget}×`,
          met: pass,
          command: benchCommand('bench'),
        },
      ]);
    }
    await exit.cleanup();
    if (options.profile) console.log(`server CPU profile: ${relative(process.cwd(), join(ROOT, '.bench/profiles'))}/`);
    process.exit(valid ? 0 : 1);
  } catch (err) {
    await exit.fail(err);
  }
}

await main();
