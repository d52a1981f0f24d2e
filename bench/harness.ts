/**
 * What the benchmarks share: the forked server process (bench/servers.ts) and
 * its messages, CPU accounting from /proc (the server, its PostgreSQL backends,
 * the machine), one run of load with that accounting, what the machine is and its
 * load average, a text table, option parsing, and the run's schema with the way out
 * that drops it (at the end, after a failure, or on Ctrl-C).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import autocannon, { type Instance, type Options as CannonOptions, type Result } from 'autocannon';
import pg from 'pg';
import type { DriverMessage, ReadyMessage, ServerMessage, Statement, UsageMessage } from './protocol.ts';
import { poolApplicationName } from '../src/db/database.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The PostgreSQL a benchmark uses when DATABASE_URL is unset or empty: the development machine's. */
export const DEFAULT_DATABASE_URL = 'postgres://root@127.0.0.1:5432/test';
export const postgresUrl = () => process.env.DATABASE_URL || DEFAULT_DATABASE_URL;

// ---------------------------------------------------------------------------- server process

export class ServerProcess {
  private seq = 0;
  private readonly waiting = new Map<number, (m: UsageMessage) => void>();
  readonly exited: Promise<void>;

  constructor(readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.on('message', (m: ServerMessage) => {
      if (m.type === 'usage') {
        this.waiting.get(m.seq)?.(m);
        this.waiting.delete(m.seq);
      }
    });
  }

  get alive() {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  ready(timeoutMs: number): Promise<ReadyMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server process not ready after ${timeoutMs} ms`)), timeoutMs);
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`server process exited (${code}) before it was ready`));
      };
      this.child.once('exit', onExit);
      this.child.on('message', (m: ServerMessage) => {
        if (m.type === 'ready') {
          clearTimeout(timer);
          this.child.off('exit', onExit);
          resolve(m);
        } else if (m.type === 'failed') {
          clearTimeout(timer);
          this.child.off('exit', onExit);
          reject(new Error(`server process failed:\n${m.message}`));
        }
      });
    });
  }

  usage(): Promise<UsageMessage> {
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('server process did not report its usage')), 5000);
      this.waiting.set(seq, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      this.send({ type: 'usage', seq });
    });
  }

  /** Sets what the baseline's GET /baseline/statements runs; resolves once the server has it. */
  async listStatements(companyId: string, statements: Statement[]): Promise<void> {
    this.send({ type: 'statements', companyId, statements });
    await this.usage(); // messages arrive in order: the answer comes after the statements were set
  }

  send(message: DriverMessage) {
    if (this.child.connected) this.child.send(message);
  }

  async stop() {
    if (!this.alive) return;
    this.send({ type: 'stop' });
    const killed = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(killed);
  }
}

// ---------------------------------------------------------------------------- CPU accounting

const CLOCK_TICK_MICROS = 10_000; // Linux USER_HZ is 100 on every mainstream kernel

/** utime + stime of a process in microseconds, or null when /proc does not show it. */
export function processCpuMicros(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MICROS;
  } catch {
    return null;
  }
}

/** All CPUs together: busy and total microseconds since boot, or null off Linux. */
export function machineCpuMicros(): { busy: number; total: number } | null {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = ticks.map(Number);
    const total = user + nice + system + idle + iowait + irq + softirq + steal;
    return { busy: (total - idle - iowait) * CLOCK_TICK_MICROS, total: total * CLOCK_TICK_MICROS };
  } catch {
    return null;
  }
}

/**
 * CPU of the PostgreSQL backends of the benchmark's pool, found by the
 * application_name the app's pool connects with (poolApplicationName: `sheaf:<schema>`;
 * the app sets it itself, so PGAPPNAME does not name them). Backends that closed
 * between two samples are lost (the pool keeps them open under load).
 */
export class DatabaseCpu {
  private last = new Map<number, number>();
  private readonly applicationName: string;
  /** Why the last sample was null, for the report ("n/a" alone once hid a wrong name for a day). */
  unreadable: string | null = null;

  constructor(
    private readonly client: pg.Client,
    schema: string,
  ) {
    this.applicationName = poolApplicationName(schema);
  }

  /** CPU microseconds the pool's backends used since the previous call, or null if unreadable. */
  async sample(): Promise<number | null> {
    const { rows } = await this.client.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [
      this.applicationName,
    ]);
    const now = new Map<number, number>();
    let delta = 0;
    for (const { pid } of rows) {
      const micros = processCpuMicros(pid);
      if (micros === null) {
        this.unreadable = `/proc/${pid}/stat of a backend cannot be read (PostgreSQL on another host?)`;
        return null;
      }
      now.set(pid, micros);
      delta += micros - (this.last.get(pid) ?? 0);
    }
    const first = this.last.size === 0;
    this.last = now;
    if (first && rows.length === 0) {
      this.unreadable = `no backend named ${this.applicationName} in pg_stat_activity`;
      return null;
    }
    this.unreadable = null;
    return delta;
  }
}

/** What the machine is, recorded with a benchmark's figures. */
export function machineInfo() {
  return {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}

/** /proc/loadavg as it reads (1, 5 and 15 minutes, runnable/total, last pid), or os.loadavg() elsewhere. */
export function loadAverage(): { oneMinute: number; raw: string } {
  try {
    const raw = readFileSync('/proc/loadavg', 'utf8').trim();
    return { oneMinute: Number(raw.split(' ')[0]), raw };
  } catch {
    const [one, five, fifteen] = os.loadavg();
    return { oneMinute: one, raw: `${one.toFixed(2)} ${five.toFixed(2)} ${fifteen.toFixed(2)}` };
  }
}

/** The 1, 5 and 15 minutes' load averages, as printed beside a figure. */
export const loadAverages = () => loadAverage().raw.split(' ').slice(0, 3).join(' ');

/** Seconds since `t0` (a performance.now()), as a progress line prints them. */
export const secondsSince = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

export function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r, n) => {
      const line = r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
      return n === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line;
    })
    .join('\n');
}

/**
 * Runs `fn` on `client` inside a transaction shaped as the app's tenant transactions are
 * (role sheaf_app, app.company_id set for the transaction), then commits: how the benchmarks
 * send a route's own SQL straight through pg as its baseline.
 */
export async function inTenantTransaction<T>(client: pg.ClientBase, companyId: string, fn: () => Promise<T>): Promise<T> {
  await client.query('begin');
  await client.query(`select set_config('role', 'sheaf_app', true), set_config('app.company_id', $1, true)`, [companyId]);
  try {
    return await fn();
  } finally {
    await client.query('commit');
  }
}

/**
 * Drops a run's schema. After Ctrl-C the run's own connections may still be inside a
 * transaction that holds locks there (a seed or a measured query cut short): the connections
 * holding locks in the schema, which is the run's alone, are ended first (waiting up to 5 s for
 * each), and the drop then waits 10 s at the most for any lock rather than hanging the exit.
 */
export async function dropSchema(databaseUrl: string, schema: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `select pg_terminate_backend(pid, 5000) from (
         select distinct l.pid from pg_locks l
         join pg_class c on c.oid = l.relation join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = $1 and l.pid <> pg_backend_pid()) lockers`,
      [schema],
    );
    await client.query(`set lock_timeout = '10s'`);
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

/** A server benchmark's throw-away schema (bench/servers.ts runs the app in it): its name and its connections' name. */
export function benchSchema() {
  const schema = `sheaf_bench_${randomBytes(6).toString('hex')}`;
  return { schema, applicationName: schema.replaceAll('_', '-') };
}

/** Drops the run's schema; a failure is said, with what to do, rather than thrown over the run's own outcome. */
export async function dropSchemaOrSay(databaseUrl: string, schema: string) {
  try {
    await dropSchema(databaseUrl, schema);
  } catch (err) {
    console.error(`could not drop schema ${schema} (${(err as Error).message}); if it was created, drop it by hand`);
  }
}

/**
 * A benchmark's way out. `cleanup` runs once: at the end, after a failure, or on SIGINT or
 * SIGTERM, after which the process exits 130 (`signalNote` says what is being stopped). The
 * measuring loops ask `interrupted` between runs; `fail` ends the run with exit code 1, or
 * 130 when the failure came from an interruption.
 */
export function wayOut(signalNote: string, cleanup: (interrupted: boolean) => Promise<void>) {
  let interrupted = false;
  let cleaning: Promise<void> | undefined;
  const clean = () => (cleaning ??= cleanup(interrupted));
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: ${signalNote}`);
    // The cleanup may end this process's own connections (dropSchema): their errors are
    // expected now, and must not end the process before the cleanup has.
    process.on('uncaughtException', (err) => console.error(`on the way out: ${err.message}`));
    void clean().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    cleanup: clean,
    get interrupted() {
      return interrupted;
    },
    async fail(err: unknown): Promise<never> {
      if (!interrupted) console.error(`\nbenchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      await clean();
      return process.exit(interrupted ? 130 : 1);
    },
  };
}

/**
 * The way out of a benchmark that works in a schema of its own: `stop` ends what it started
 * (servers, measuring processes), `close` closes its pools, then the schema is dropped, or kept
 * with `keep`. After Ctrl-C the pools are left to the exit: one of their connections may still
 * be checked out, which closing the pool would wait for.
 */
export function schemaWayOut(
  databaseUrl: string,
  schema: string,
  { stop, close, keep = false }: { stop?: () => unknown; close?: () => Promise<unknown>; keep?: boolean } = {},
) {
  return wayOut(keep ? `stopping; keeping schema ${schema}` : `stopping and dropping schema ${schema}`, async (interrupted) => {
    await stop?.();
    if (!interrupted) await close?.();
    if (keep) console.log(`kept schema ${schema}`);
    else await dropSchemaOrSay(databaseUrl, schema);
  });
}

/**
 * Forks bench/servers.ts (the app and the bare baseline on one pool) in the
 * run's schema. The app's pool names its connections after the schema
 * (poolApplicationName), which is how DatabaseCpu finds its backends; PGAPPNAME
 * names only connections opened outside that pool. `profile` writes V8 CPU
 * profiles to .bench/profiles; `members` adds that many people to the workspace.
 */
export function forkServer(options: { databaseUrl: string; schema: string; pool: number; applicationName: string; profile: boolean; members?: number }): ServerProcess {
  // BENCH_NODE_FLAGS: extra node flags for the server process (say, --cpu-prof-interval=200 or heap sizes to try).
  const extra = process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
  const profile = options.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(ROOT, '.bench/profiles')}`] : [];
  const execArgv = [...extra, ...profile];
  return new ServerProcess(
    fork(join(ROOT, 'bin/run-ts.js'), [join(ROOT, 'bench/servers.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: options.databaseUrl,
        BENCH_SCHEMA: options.schema,
        BENCH_POOL_SIZE: String(options.pool),
        BENCH_MEMBERS: String(options.members ?? 0),
        PGAPPNAME: options.applicationName,
      },
      execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
}

// ---------------------------------------------------------------------------- options and statistics

/**
 * A numeric option from its flag or, failing that, its environment variable; the
 * fallback when both are absent. Anything not a finite number of at least `min`
 * (and whole, when `integer`) is an error naming both spellings.
 */
export function numberOption(name: string, flag: string | undefined, envName: string, fallback: number, integer: boolean, min: number): number {
  const raw = flag ?? process.env[envName];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name} (${envName}) must be ${integer ? 'an integer' : 'a number'} of at least ${min}, not ${raw}`);
  }
  return value;
}

/**
 * A whole-number option: `--name`, else BENCH_NAME (`--tasks-per-project` is
 * BENCH_TASKS_PER_PROJECT), else the fallback; anything but a whole number of at least `min`
 * is an error naming both (numberOption).
 */
export const countOption = (args: Record<string, unknown>, name: string, fallback: number, min = 1) =>
  numberOption(name, args[name] as string | undefined, `BENCH_${name.toUpperCase().replaceAll('-', '_')}`, fallback, true, min);

/**
 * A pause before each timed request or SQL run of the list benches, so that what the one before
 * left running (the server's garbage collection after a megabyte answer, its log line) does not
 * share the two cores with the next one. Without it the raw SQL's median moved between 9 and
 * 30 ms from run to run on one seed (bench:time-entries, 2026-12-04).
 */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 25));

/**
 * Runs each of `steps` once per round, each after a settle, for `rounds` rounds; every round
 * starts one step further along, so drift of the machine falls on all of them alike.
 */
export async function inRotation(rounds: number, steps: (() => Promise<unknown>)[]): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    for (let k = 0; k < steps.length; k++) {
      await settle();
      await steps[(i + k) % steps.length]();
    }
  }
}

/** The median (the mean of the middle two for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

// ---------------------------------------------------------------------------- one run of load

let running: Instance | undefined;

/** Stops the run of load in progress, if any (on Ctrl-C). */
export function stopLoad() {
  running?.stop();
}

/** What one run of load did and cost. */
export interface LoadMeasurement {
  result: Result;
  /** Responses by status code. */
  statusCodes: Record<string, number>;
  requests: number;
  serverCpuMicros: number;
  /** Wall time on the server's clock over the run. */
  serverWallMs: number;
  serverEventLoopUtilization: number;
  /** CPU of this (load-generating) process. */
  loadgenMicros: number;
  wallMicros: number;
  /** CPU of the server's PostgreSQL backends; null where /proc cannot tell. */
  dbMicros: number | null;
  machineBusyPercent: number | null;
  /** CPU of processes outside the benchmark, in % of one core: all that was busy less the server, load generator and database. */
  otherCpuPercent: number | null;
}

/**
 * Runs autocannon against the server with the CPU of the server process, its
 * PostgreSQL backends, this process and the machine sampled around it.
 */
export async function measureLoad(server: ServerProcess, dbCpu: DatabaseCpu, cannon: CannonOptions): Promise<LoadMeasurement> {
  const before = await server.usage();
  await dbCpu.sample();
  const machineBefore = machineCpuMicros();
  const loadgenBefore = process.cpuUsage();
  const wallBefore = performance.now();
  running = autocannon({ pipelining: 1, timeout: 10, ...cannon });
  const result: Result = await running;
  running = undefined;
  const loadgen = process.cpuUsage(loadgenBefore);
  const wallMicros = (performance.now() - wallBefore) * 1000;
  const machineAfter = machineCpuMicros();
  const after = await server.usage();
  const dbMicros = await dbCpu.sample();

  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = count;
  const serverCpuMicros = after.cpuMicros - before.cpuMicros;
  const active = after.eluActive - before.eluActive;
  const idle = after.eluIdle - before.eluIdle;
  const loadgenMicros = loadgen.user + loadgen.system;
  const machine =
    machineBefore && machineAfter ? { busy: machineAfter.busy - machineBefore.busy, total: machineAfter.total - machineBefore.total } : null;
  const cores = os.availableParallelism();
  return {
    result,
    statusCodes,
    requests: Object.values(statusCodes).reduce((a, b) => a + b, 0),
    serverCpuMicros,
    serverWallMs: after.now - before.now,
    serverEventLoopUtilization: active + idle > 0 ? active / (active + idle) : 0,
    loadgenMicros,
    wallMicros,
    dbMicros,
    machineBusyPercent: machine ? (machine.busy / machine.total) * 100 : null,
    otherCpuPercent: machine
      ? Math.max(0, ((machine.busy / machine.total) * cores * wallMicros - serverCpuMicros - loadgenMicros - (dbMicros ?? 0)) / wallMicros) * 100
      : null,
  };
}
