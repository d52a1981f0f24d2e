/**
 * `npm run bench:report-export`: the streamed report downloads (issue 16 item 5) on
 * PostgreSQL, against a baseline measured in the same run.
 *
 * One workspace is seeded set-based (seedYear: one INSERT … SELECT over generate_series):
 * a year of a 200-person team, 4 entries per person and weekday (about 208,000). The real app (buildApp) then listens in this
 * process and, as the owner's browser session over HTTP, each measurement downloads
 * the whole period, reading the body as it arrives and keeping only its byte count:
 *
 *   baseline     GET /api/v2/time_entries?from&to&per_page=2000, page after page (the
 *                paged JSON API reading the same rows)
 *   export csv   GET /web/api/reports/time/export?format=csv&rows=entries&from&to
 *   export xlsx  GET /web/api/reports/time/export?format=xlsx&rows=entries&from&to
 *   team csv     GET /web/api/reports/team/export?format=csv&from&to (200 rows over the same entries)
 *
 * Memory is measured from a garbage-collected start, for the whole process (server and
 * client): the peak RSS (sampled every 5 ms) and the peak live heap (heapUsed after a
 * forced collection every 250 ms: what the download holds, not garbage V8 has not yet
 * collected). Each
 * measurement runs `--iterations` times, each in a fresh process (after a one-week warm-up
 * download); the table shows the median time, the largest growth, and the ratios to the
 * baseline.
 *
 * Options (flag or environment): --perDay BENCH_PER_DAY (4), --users BENCH_USERS (200),
 * --projects BENCH_PROJECTS (300), --iterations BENCH_ITERATIONS (3), --keep.
 * DATABASE_URL (default postgres://root@127.0.0.1:5432/test; the seed needs a
 * superuser). The schema (sheaf_bench_<random>) is dropped at the end.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { createSession, SESSION_COOKIE } from '../src/auth/sessions.ts';
import { loadConfig } from '../src/config.ts';
import { connectionOptions, openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { postgresUrl, schemaWayOut, table } from './harness.ts';
import { operatorPrincipal } from '../src/access/operator.ts';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const { values: args } = parseArgs({
  options: { perDay: { type: 'string' }, users: { type: 'string' }, projects: { type: 'string' }, iterations: { type: 'string' }, keep: { type: 'boolean' } },
  strict: true,
});
const opt = (name: 'perDay' | 'users' | 'projects' | 'iterations', env: string, fallback: number) => Number(args[name] ?? process.env[env] ?? fallback);
const PER_DAY = opt('perDay', 'BENCH_PER_DAY', 4);
const USERS = opt('users', 'BENCH_USERS', 200);
const PROJECTS = opt('projects', 'BENCH_PROJECTS', 300);
const ITERATIONS = opt('iterations', 'BENCH_ITERATIONS', 3);
const databaseUrl = postgresUrl();
const schema = `sheaf_bench_${randomBytes(4).toString('hex')}`;

const MiB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

interface Sample {
  ms: number;
  bytes: number;
  rssGrowth: number;
  heapGrowth: number;
}

/** Reads a response body as it arrives, keeping only its length. */
async function drain(res: Response): Promise<number> {
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  let bytes = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

async function measure(run: () => Promise<number>): Promise<Sample> {
  gc();
  const base = process.memoryUsage();
  let rss = base.rss;
  let heap = base.heapUsed;
  // RSS: its peak, sampled often. Heap: what is still alive, after a collection every 250 ms
  // (the peak of heapUsed alone measures how lazily V8 collects garbage, not what is held).
  const sampleRss = () => (rss = Math.max(rss, process.memoryUsage().rss));
  const sampleHeap = () => {
    gc();
    heap = Math.max(heap, process.memoryUsage().heapUsed);
  };
  const rssTimer = setInterval(sampleRss, 5);
  const heapTimer = setInterval(sampleHeap, 250);
  const t0 = performance.now();
  const bytes = await run();
  const ms = performance.now() - t0;
  clearInterval(rssTimer);
  clearInterval(heapTimer);
  sampleRss();
  return { ms, bytes, rssGrowth: rss - base.rss, heapGrowth: heap - base.heapUsed };
}

/**
 * A year of a team, set-based: USERS people, PROJECTS projects (billed by project, at a rate
 * that changes mid-year; clients in two currencies), one task, and PER_DAY entries per person
 * on each weekday of the last 365 days, in one INSERT … SELECT over generate_series (foreign-key
 * triggers skipped: the rows are consistent by construction; this needs a superuser).
 */
async function seedYear(c: pg.Client, companyId: string) {
  const t0 = performance.now();
  const lastDate = new Date().toISOString().slice(0, 10);
  const firstDate = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
  const middle = new Date(Date.now() - 182 * 86_400_000).toISOString().slice(0, 10);
  await c.query('begin');
  await c.query('set local session_replication_role = replica');
  await c.query(
    `insert into users (id, email, first_name, last_name)
     select gen_random_uuid(), 'person' || g || '.' || $1 || '@bench.example', 'Person' || g, 'Bench' from generate_series(1, ${USERS}) g`,
    [schema],
  );
  await c.query(
    `insert into memberships (company_id, user_id, role) select $1, id, 'member' from users where email like 'person%.' || $2 || '@bench.example'`,
    [companyId, schema],
  );
  await c.query(
    `insert into clients (company_id, id, name, currency)
     select $1, gen_random_uuid(), 'Client ' || g, case when g % 4 = 0 then 'EUR' end from generate_series(1, 20) g`,
    [companyId],
  );
  await c.query(`insert into tasks (company_id, id, name) values ($1, gen_random_uuid(), 'Development')`, [companyId]);
  await c.query(
    `insert into projects (company_id, id, client_id, name, is_billable, bill_by)
     select $1, gen_random_uuid(), cl.id, 'Project ' || lpad(g::text, 4, '0'), true, 'project'
       from generate_series(1, ${PROJECTS}) g
       join (select id, row_number() over (order by name) - 1 as n from clients where company_id = $1) cl on cl.n = g % 20`,
    [companyId],
  );
  await c.query(
    `insert into project_task_assignments (company_id, project_id, task_id, billable)
     select $1, p.id, t.id, true from projects p cross join tasks t where p.company_id = $1 and t.company_id = $1`,
    [companyId],
  );
  await c.query(
    `insert into rates (company_id, id, kind, project_id, effective_from, hourly_rate)
     select $1, gen_random_uuid(), 'billable', p.id, d.f, 80 + (abs(hashtext(p.id::text)) % 8) * 10 + d.k * 10
       from projects p cross join (values (0, $2::date), (1, $3::date)) d (k, f) where p.company_id = $1`,
    [companyId, firstDate, middle],
  );
  const inserted = await c.query(
    `insert into time_entries (company_id, id, user_id, project_id, task_id, spent_date, duration_seconds, hours_entered, notes,
       billable, source, approval_status, created_at, updated_at)
     select $1, gen_random_uuid(), u.id, p.id, t.id, d::date, 900 * (1 + (abs(hashtext(u.id::text || d::text || k)) % 16)), null,
            'Ticket ' || (abs(hashtext(u.id::text || k)) % 5000) || ': implementation', true, 'web', 'unsubmitted',
            d + time '18:00', d + time '18:00'
       from (select id, row_number() over (order by id) as n from users where email like 'person%.' || $4 || '@bench.example') u
       cross join generate_series($2::date, $3::date, interval '1 day') d
       cross join generate_series(1, ${PER_DAY}) k
       join (select id, row_number() over (order by id) - 1 as n from projects where company_id = $1) p on p.n = (u.n * 7 + k) % ${PROJECTS}
       cross join (select id from tasks where company_id = $1) t
      where extract(isodow from d) < 6`,
    [companyId, firstDate, lastDate, schema],
  );
  await c.query('commit');
  await c.query('analyze');
  return { entries: inserted.rowCount ?? 0, firstDate, lastDate, seconds: (performance.now() - t0) / 1000 };
}

interface Job {
  schema: string;
  companyId: string;
  ownerId: string;
  from: string;
  to: string;
  pages: number;
  kind: number;
}

const KINDS = [
  'baseline: paged JSON API (time_entries, per_page 2000)',
  'export csv (every entry)',
  'export xlsx (every entry)',
  'export team csv (200 people)',
];

/** The download of `kind` over from..to, as the owner's browser session; returns the bytes read. */
function download(base: string, headers: Record<string, string>, job: Job, from: string, to: string, pages: number) {
  const get = (path: string) => fetch(`${base}${path}`, { headers });
  const period = `from=${from}&to=${to}`;
  switch (job.kind) {
    case 0:
      return (async () => {
        let bytes = 0;
        for (let page = 1; page <= pages; page++) bytes += await drain(await get(`/api/v2/time_entries?${period}&per_page=2000&page=${page}`));
        return bytes;
      })();
    case 1:
      return get(`/web/api/reports/time/export?format=csv&rows=entries&group_by=project&${period}`).then(drain);
    case 2:
      return get(`/web/api/reports/time/export?format=xlsx&rows=entries&group_by=project&${period}`).then(drain);
    default:
      return get(`/web/api/reports/team/export?format=csv&${period}`).then(drain);
  }
}

/**
 * One measurement in a fresh process (so RSS growth is this download's, not an earlier
 * one's): the app on the seeded schema, a warm-up download of one week (code loaded and
 * compiled), a garbage collection, then the whole period, sampled.
 */
async function child(job: Job) {
  const database = await openDatabase({ databaseUrl, schema: job.schema, poolSize: 4 });
  const config = loadConfig(
    { LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000000', DATABASE_URL: databaseUrl },
    { dataDir: null, databaseSchema: job.schema, databasePoolSize: 4 },
  );
  const app = await buildApp({ config, db: database.db });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const { token } = await createSession(database.db, { userId: job.ownerId, companyId: job.companyId, now: new Date() });
  const headers = { cookie: `${SESSION_COOKIE}=${token}` };
  const weekEnd = new Date(Date.parse(job.from) + 6 * 86_400_000).toISOString().slice(0, 10);
  await download(base, headers, job, job.from, weekEnd, 1);
  const sample = await measure(() => download(base, headers, job, job.from, job.to, job.pages));
  await app.close();
  await database.close();
  process.send!(sample, () => process.exit(0));
}

/** The measuring process running now, stopped by the way out. */
let running: ChildProcess | undefined;

function runChild(job: Job): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const proc = (running = fork(fileURLToPath(new URL('../bin/run-ts.js', import.meta.url)), [fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_JOB: JSON.stringify(job) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }));
    let result: Sample | undefined;
    proc.on('message', (m) => (result = m as Sample));
    proc.on('exit', (code) => (result ? resolve(result) : reject(new Error(`measurement ${KINDS[job.kind]} exited with ${code}`))));
  });
}

async function main() {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = await openDatabase({ databaseUrl, schema, poolSize: 2 });
  const exit = schemaWayOut(databaseUrl, schema, { stop: () => running?.kill(), close: () => database.close(), keep: Boolean(args.keep) });
  try {
    const db = database.db;
    await migrate(db);
    const company = await createWorkspace(db, { name: 'Export Works' });
    const owner = await createMember(db, operatorPrincipal(company.id), { email: `owner.${schema}@bench.example`, first_name: 'Olive', last_name: 'Owner', role: 'owner' });

    const seeder = new pg.Client({ connectionString: databaseUrl, options: connectionOptions(schema) });
    await seeder.connect();
    const seed = await seedYear(seeder, company.id).finally(() => seeder.end());
    console.log(`seed: ${seed.entries.toLocaleString('en')} entries of ${USERS} people, ${seed.firstDate}..${seed.lastDate}, in ${seed.seconds.toFixed(1)} s\n`);
    const pages = Math.ceil(seed.entries / 2000);

    const results: Array<{ name: string; ms: number; bytes: number; rssGrowth: number; heapGrowth: number }> = [];
    for (const [kind, name] of KINDS.entries()) {
      const samples: Sample[] = [];
      for (let i = 0; i < ITERATIONS; i++) {
        samples.push(await runChild({ schema, companyId: company.id, ownerId: owner.user_id, from: seed.firstDate, to: seed.lastDate, pages, kind }));
      }
      const ms = samples.map((x) => x.ms).sort((a, b) => a - b)[Math.floor(samples.length / 2)];
      results.push({
        name,
        ms,
        bytes: samples[0].bytes,
        rssGrowth: Math.max(...samples.map((x) => x.rssGrowth)),
        heapGrowth: Math.max(...samples.map((x) => x.heapGrowth)),
      });
      console.log(`${name}: ${ms.toFixed(0)} ms`);
    }

    const baseline = results[0];
    const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
    console.log(`\n${seed.entries.toLocaleString('en')} entries, ${USERS} people, ${seed.firstDate}..${seed.lastDate}; median of ${ITERATIONS} fresh processes, largest growth`);
    console.log(
      table([
        ['download', 'time', 'size', 'peak RSS growth', 'peak live heap growth', 'time ÷ baseline', 'RSS ÷ baseline', 'heap ÷ baseline'],
        ...results.map((r) => [
          r.name,
          `${r.ms.toFixed(0)} ms`,
          MiB(r.bytes),
          MiB(r.rssGrowth),
          MiB(r.heapGrowth),
          ratio(r.ms, baseline.ms),
          ratio(r.rssGrowth, baseline.rssGrowth),
          ratio(r.heapGrowth, baseline.heapGrowth),
        ]),
      ]),
    );
  } finally {
    await exit.cleanup();
  }
}

if (process.env.BENCH_JOB) await child(JSON.parse(process.env.BENCH_JOB) as Job);
else await main();
