/**
 * `npm run bench:time-entries-export`: GET /api/v2/time_entries/export?format=csv of
 * 1,000,000 entries (issue 27 item 4: at least 50,000 rows/s, flat memory), on
 * PostgreSQL (DATABASE_URL, default postgres://root@127.0.0.1:5432/test) and on PGlite,
 * against a baseline measured in the same run: the reports' streamed entry export
 * (GET /web/api/reports/time/export?format=csv&rows=entries, bench/report-export.ts's
 * measurement) over the same rows.
 *
 * One workspace is seeded set-based (one INSERT … SELECT over generate_series,
 * foreign-key triggers skipped: the rows are consistent by construction): --users people,
 * --projects projects on 20 clients billed by project at a rate, and --entries entries
 * spread over the last 365 days. Each download then runs in a fresh server process (the
 * real app, buildApp, listening on a port; PGlite in that process) and this process
 * downloads the file as the owner's browser session, counting its bytes and lines as
 * they arrive, and samples the server process's RSS (/proc/<pid>/status) every 20 ms:
 * its value at the start, its peak, and at each tenth of the rows, so the table shows
 * whether memory grows with the rows (it must not: the export holds one batch).
 *
 * Options (flag or environment): --entries BENCH_ENTRIES (1000000), --users
 * BENCH_USERS (400), --projects BENCH_PROJECTS (300), --databases BENCH_DATABASES
 * (postgres,pglite), --keep; BENCH_NODE_FLAGS (node flags of the server processes).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { operatorPrincipal } from '../src/access/operator.ts';
import { buildApp } from '../src/app.ts';
import { createSession, SESSION_COOKIE } from '../src/auth/sessions.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import type { DB } from '../src/db/types.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { countOption, dropSchemaOrSay, postgresUrl, table, wayOut } from './harness.ts';
import { benchCommand, formatNumber, recordPerformance, type PerformanceRow } from './performance.ts';

const { values: args } = parseArgs({
  options: { entries: { type: 'string' }, users: { type: 'string' }, projects: { type: 'string' }, databases: { type: 'string' }, keep: { type: 'boolean' } },
  strict: true,
});
const ENTRIES = countOption(args, 'entries', 1_000_000);
const USERS = countOption(args, 'users', 400);
const PROJECTS = countOption(args, 'projects', 300);
const DATABASES = String(args.databases ?? process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',');
const databaseUrl = postgresUrl();
const AIM_ROWS_PER_SECOND = 50_000;

const MiB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Where the server process finds the seeded data. */
interface Target {
  kind: 'postgres' | 'pglite';
  schema?: string;
  dataDir?: string;
}
interface Job {
  target: Target;
  companyId: string;
  ownerId: string;
}
interface Download {
  name: string;
  path: string;
  /** The same download over one day: the warm-up (code loaded and compiled). */
  warmUp: string;
}

/** The people, clients, projects (one rate each) and ENTRIES entries over the last 365 days, in one transaction. */
async function seed(db: Kysely<DB>, companyId: string, tag: string) {
  const t0 = performance.now();
  const first = iso(Date.now() - 364 * DAY);
  await db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await sql`insert into users (id, email, first_name, last_name)
      select gen_random_uuid(), 'person' || g || '.' || ${tag} || '@bench.example', 'Person' || g, 'Bench' from generate_series(1, ${USERS}::int) g`.execute(trx);
    await sql`insert into memberships (company_id, user_id, role)
      select ${companyId}, id, 'member' from users where email like 'person%.' || ${tag} || '@bench.example'`.execute(trx);
    await sql`insert into clients (company_id, id, name, currency)
      select ${companyId}, gen_random_uuid(), 'Client ' || g, case when g % 4 = 0 then 'EUR' end from generate_series(1, 20) g`.execute(trx);
    await sql`insert into tasks (company_id, id, name) values (${companyId}, gen_random_uuid(), 'Development')`.execute(trx);
    await sql`insert into projects (company_id, id, client_id, name, is_billable, bill_by)
      select ${companyId}, gen_random_uuid(), cl.id, 'Project ' || lpad(g::text, 4, '0'), true, 'project'
        from generate_series(1, ${PROJECTS}::int) g
        join (select id, row_number() over (order by name) - 1 as n from clients where company_id = ${companyId}) cl on cl.n = g % 20`.execute(trx);
    await sql`insert into project_task_assignments (company_id, project_id, task_id, billable)
      select ${companyId}, p.id, t.id, true from projects p cross join tasks t where p.company_id = ${companyId} and t.company_id = ${companyId}`.execute(trx);
    // Entries carry the stored historical rate, as creates write it (80..150 by project).
    await sql`insert into time_entries (company_id, id, user_id, project_id, task_id, spent_date, duration_seconds, notes,
        billable, billable_rate, source, approval_status, created_at, updated_at)
      select ${companyId}, gen_random_uuid(), u.id, p.id, t.id, ${first}::date + (g % 365), 900 * (1 + g % 16),
             'Ticket ' || (g % 5000) || ': implementation, review', true, 80 + (p.n % 8) * 10, 'web', 'unsubmitted',
             ${first}::date + (g % 365) + time '18:00' + (g % 1000) * interval '1 millisecond', ${first}::date + (g % 365) + time '18:00'
        from generate_series(1, ${ENTRIES}::int) g
        join (select id, row_number() over (order by id) - 1 as n from users where email like 'person%.' || ${tag} || '@bench.example') u on u.n = g % ${USERS}::int
        join (select id, row_number() over (order by id) - 1 as n from projects where company_id = ${companyId}) p on p.n = (g / 7) % ${PROJECTS}::int
        cross join (select id from tasks where company_id = ${companyId}) t`.execute(trx);
  });
  await sql`analyze`.execute(db);
  return { first, last: iso(Date.now()), seconds: (performance.now() - t0) / 1000 };
}

/** The server process: the app on the seeded data, listening; it answers with its port and pid. */
async function server(job: Job) {
  v8.setFlagsFromString('--expose-gc');
  const { target } = job;
  const database = await openDatabase(target.kind === 'postgres' ? { databaseUrl, schema: target.schema, poolSize: 4 } : { dataDir: target.dataDir });
  const config = loadConfig(
    { LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000000', ...(target.kind === 'postgres' ? { DATABASE_URL: databaseUrl } : {}) },
    { dataDir: target.kind === 'pglite' ? target.dataDir! : null, databaseSchema: target.schema, databasePoolSize: 4 },
  );
  const app = await buildApp({ config, db: database.db });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const { token } = await createSession(database.db, { userId: job.ownerId, companyId: job.companyId, now: new Date() });
  process.send!({ port: typeof address === 'object' && address ? address.port : 0, cookie: `${SESSION_COOKIE}=${token}` });
  // 'heap': the live heap (heapUsed after a full collection), what the server holds rather than what V8 has not yet collected.
  const gc = runInNewContext('gc') as () => void;
  process.on('message', async (m) => {
    if (m === 'heap') {
      gc();
      process.send!({ heap: process.memoryUsage().heapUsed });
      return;
    }
    await app.close();
    await database.close();
    process.exit(0);
  });
}

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

interface Sample {
  ms: number;
  rows: number;
  bytes: number;
  rssStart: number;
  rssPeak: number;
  /** RSS when each tenth of the rows had arrived. */
  rssByTenth: number[];
  heapStart: number;
  /** The live heap (after a forced collection) when each tenth of the rows had arrived. */
  heapByTenth: number[];
}

/** What Ctrl-C stops and removes: the server process measured now, the database it serves. */
let running: ChildProcess | undefined;
let removeDatabase: (() => Promise<void>) | undefined;

/** One download in a fresh server process: a warm-up of one day, then the whole file, sampled. */
async function measure(job: Job, download: Download, expectedRows: number): Promise<Sample> {
  const child = (running = fork(fileURLToPath(new URL('../bin/run-ts.js', import.meta.url)), [fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_JOB: JSON.stringify(job) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // BENCH_NODE_FLAGS: node flags for the server process (say, --cpu-prof --cpu-prof-dir=.bench/profiles).
    execArgv: [...process.execArgv, ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [])],
  }));
  const { port, cookie } = await new Promise<{ port: number; cookie: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; cookie: string }));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`, { headers: { cookie } });
  const warm = await get(download.warmUp);
  if (!warm.ok) throw new Error(`${download.name} answered ${warm.status}: ${await warm.text()}`);
  await warm.arrayBuffer();
  const pid = child.pid!;
  const rssStart = rssOf(pid);
  let rssPeak = rssStart;
  const timer = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(pid))), 20);
  const rssByTenth: number[] = [];
  const heapByTenth: number[] = [];
  const liveHeap = () =>
    new Promise<number>((resolve) => {
      child.once('message', (m) => resolve((m as { heap: number }).heap));
      child.send('heap');
    });
  const heapStart = await liveHeap();
  const t0 = performance.now();
  const res = await get(download.path);
  if (!res.ok) throw new Error(`${download.name} answered ${res.status}: ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (let i = value.indexOf(10); i !== -1; i = value.indexOf(10, i + 1)) {
      lines++;
      if (lines % Math.ceil(expectedRows / 10) === 0) {
        rssByTenth.push(rssOf(pid));
        heapByTenth.push(await liveHeap());
      }
    }
  }
  const ms = performance.now() - t0;
  clearInterval(timer);
  rssPeak = Math.max(rssPeak, rssOf(pid));
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
  // The header line is not a row (the CSV writer quotes no line breaks in these notes).
  return { ms, rows: lines - 1, bytes, rssStart, rssPeak, rssByTenth, heapStart, heapByTenth };
}

async function prepare(kind: 'postgres' | 'pglite'): Promise<{ target: Target; cleanUp: () => Promise<void> }> {
  if (kind === 'postgres') {
    const schema = `sheaf_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    return { target: { kind, schema }, cleanUp: () => (args.keep ? Promise.resolve(console.log(`kept schema ${schema}`)) : dropSchemaOrSay(databaseUrl, schema)) };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'sheaf-bench-export-'));
  return { target: { kind, dataDir }, cleanUp: async () => (args.keep ? console.log(`kept ${dataDir}`) : rmSync(dataDir, { recursive: true, force: true })) };
}

async function main() {
  const results: string[][] = [];
  const figures: PerformanceRow[] = [];
  // A download that did not give every row is a broken measurement: exit 1, record nothing.
  let broken = false;
  const memory: string[][] = [];
  // Each database is removed after its own measurements; the way out is for Ctrl-C in between.
  wayOut('stopping the server and removing the database', async () => {
    running?.kill();
    await removeDatabase?.();
  });
  for (const kind of DATABASES as Array<'postgres' | 'pglite'>) {
    const { target, cleanUp } = await prepare(kind);
    let removing: Promise<void> | undefined;
    removeDatabase = () => (removing ??= cleanUp());
    try {
      const database = await openDatabase(kind === 'postgres' ? { databaseUrl, schema: target.schema, poolSize: 2 } : { dataDir: target.dataDir });
      let job: Job;
      let period: { first: string; last: string };
      try {
        await migrate(database.db);
        const company = await createWorkspace(database.db, { name: 'Export Works' });
        const tag = randomBytes(4).toString('hex');
        const owner = await createMember(database.db, operatorPrincipal(company.id), { email: `owner.${tag}@bench.example`, first_name: 'Olive', last_name: 'Owner', role: 'owner' });
        const seeded = await seed(database.db, company.id, tag);
        console.log(`${kind}: seeded ${ENTRIES.toLocaleString('en')} entries of ${USERS} people, ${seeded.first}..${seeded.last}, in ${seeded.seconds.toFixed(1)} s`);
        job = { target, companyId: company.id, ownerId: owner.user_id };
        period = seeded;
      } finally {
        await database.close();
      }
      const report = (from: string, to: string) => `/web/api/reports/time/export?format=csv&rows=entries&group_by=project&from=${from}&to=${to}`;
      const downloads: Download[] = [
        { name: 'baseline: reports entry export csv', path: report(period.first, period.last), warmUp: report(period.last, period.last) },
        { name: 'time_entries/export csv', path: '/api/v2/time_entries/export?format=csv', warmUp: `/api/v2/time_entries/export?format=csv&from=${period.last}` },
      ];
      const samples: Sample[] = [];
      for (const download of downloads) {
        const sample = await measure(job, download, ENTRIES);
        samples.push(sample);
        const rate = sample.rows / (sample.ms / 1000);
        console.log(`${kind} ${download.name}: ${sample.rows.toLocaleString('en')} rows in ${(sample.ms / 1000).toFixed(1)} s, ${Math.round(rate).toLocaleString('en')} rows/s`);
        results.push([
          kind,
          download.name,
          sample.rows.toLocaleString('en'),
          `${(sample.ms / 1000).toFixed(1)} s`,
          Math.round(rate).toLocaleString('en'),
          MiB(sample.bytes),
          MiB(sample.rssStart),
          MiB(sample.rssPeak),
          MiB(sample.rssPeak - sample.rssStart),
          samples.length > 1 ? (sample.ms / samples[0].ms).toFixed(2) : '1.00',
        ]);
        memory.push([`${kind} ${download.name}: RSS`, ...sample.rssByTenth.map((b) => (b / 1024 / 1024).toFixed(0))]);
        memory.push([`${kind} ${download.name}: live heap (${MiB(sample.heapStart)} before)`, ...sample.heapByTenth.map((b) => (b / 1024 / 1024).toFixed(0))]);
        if (sample.rows !== ENTRIES) console.log(`  !! expected ${ENTRIES} rows, got ${sample.rows}`);
      }
      const [baseline, entries] = samples;
      if (samples.every((s) => s.rows === ENTRIES)) {
        const rate = (s: Sample) => s.rows / (s.ms / 1000);
        // Flat memory: the server's RSS at a tenth of the rows and at the end (the first batches grow the heap once).
        const rss = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
        const flat = `${rss(entries.rssByTenth[0])} → ${rss(entries.rssByTenth.at(-1)!)} MiB`;
        figures.push({
          key: `time-entries-export-${kind}`,
          path: `GET /api/v2/time_entries/export?format=csv, ${formatNumber(ENTRIES)} entries (${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'})`,
          figure: `${formatNumber(rate(entries))} rows/s; server RSS ${flat} from 10 % to 100 % of the rows`,
          baseline: `the reports' entry export over the same rows: ${formatNumber(rate(baseline))} rows/s`,
          ratio: (rate(entries) / rate(baseline)).toFixed(2),
          cpu: '—',
          aim: `≥ ${formatNumber(AIM_ROWS_PER_SECOND)} rows/s, memory flat`,
          met: rate(entries) >= AIM_ROWS_PER_SECOND,
          command: benchCommand('bench:time-entries-export'),
        });
      } else broken = true;
    } finally {
      await removeDatabase();
      removeDatabase = undefined;
    }
  }
  if (!broken) recordPerformance(figures);
  console.log(`\nload average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} on ${availableParallelism()} CPUs`);
  console.log(`${ENTRIES.toLocaleString('en')} entries; aim ≥ ${AIM_ROWS_PER_SECOND.toLocaleString('en')} rows/s with flat memory`);
  console.log(table([['database', 'download', 'rows', 'time', 'rows/s', 'size', 'RSS start', 'RSS peak', 'peak − start', 'time ÷ baseline'], ...results]));
  console.log('\nthe server process (MiB) at each tenth of the rows:');
  console.log(table([['download', ...Array.from({ length: 10 }, (_, i) => `${(i + 1) * 10} %`)], ...memory.map((r) => [...r, ...Array(11 - r.length).fill('')])]));
  if (broken) process.exitCode = 1;
}

if (process.env.BENCH_JOB) await server(JSON.parse(process.env.BENCH_JOB) as Job);
else await main();
