/**
 * `sheaf backup pull` of a workspace with many time entries, on PostgreSQL:
 * records per second, the CPU of each process, and the memory of the server
 * and of the pulling client.
 *
 *   node bin/run-ts.js bench/backup.ts [--entries 1000000] [--per-page 500] [--profile]
 *                                      [--keep] [--reuse SCHEMA]
 *
 * DATABASE_URL (default postgres://root@127.0.0.1:5432/test). The driver makes
 * a throw-away schema, migrates it, creates a workspace with an owner and a
 * full-access key and N time entries (one INSERT ... SELECT over
 * generate_series), forks the server (this file with --server: the real app,
 * rate limit out of reach) and the pulling client (bench/backup-pull.ts:
 * pullBackup, the code behind `sheaf backup pull`, in a process that loads
 * nothing else, as the command's does), so each process's memory and CPU are
 * its own. The client pulls into a temporary directory; the driver verifies
 * it, prints the figures and drops the schema.
 * `--keep` leaves the seeded schema (and says how to reuse it), `--reuse
 * SCHEMA` pulls from such a schema instead of seeding one (and keeps it): for
 * repeated runs while developing.
 *
 * Memory: the peak RSS (getrusage maxrss) of each process, and the client's
 * RSS after every page of time entries: printed at each quarter of the crawl,
 * and its growth after the first quarter (the largest RSS from 25 % on, less
 * the RSS at 25 %), which is what "flat" means here. CPU: each process's total
 * (startup included), the part spent serving
 * (server, after listening) and pulling (client), and the server's PostgreSQL
 * backends (found by application_name in /proc), which depend little on the
 * machine's load; the load average is printed with them.
 *
 * Aims: AIM_RECORDS_PER_SECOND records/s and at most AIM_RSS_GROWTH_MIB of
 * client RSS growth after the first quarter. A missed aim prints MISSES and
 * exits 0; a broken measurement (verify fails, records missing, a process
 * failing) exits 1.
 *
 * `--profile` writes V8 CPU profiles of the server (serving only) and of the
 * client (the pull only) to .bench/profiles/.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { createKey } from '../src/modules/people/credentials/service.ts';
import { backupReadAhead } from '../src/modules/workspace/backup/service.ts';
import { newId } from '../src/ids.ts';
import { verifyBackup } from '../src/cli/backup-client.ts';
import { operatorPrincipal } from '../src/access/operator.ts';
import type { PullJob, PullResult } from './backup-pull.ts';
import { DatabaseCpu, ROOT, loadAverage, postgresUrl, schemaWayOut } from './harness.ts';
import { startProfile } from './profile.ts';
import { benchCommand, formatNumber, recordPerformance } from './performance.ts';

const DATABASE_URL = postgresUrl();
const PROFILES = join(ROOT, '.bench/profiles');
const MiB = 1024 * 1024;
const AIM_RECORDS_PER_SECOND = 80_000;
const AIM_RSS_GROWTH_MIB = 16;
const peakRssMiB = () => Math.round((process.resourceUsage().maxRSS * 1024) / MiB);

interface ServerStats {
  peakRssMiB: number;
  cpuSeconds: number;
  servingCpuSeconds: number;
  servingSystemSeconds: number;
  /** Pages served from a read ahead, and reads ahead found out of date (src/modules/workspace/backup/read-ahead.ts). */
  readAhead: { hits: number; stale: number } | null;
}

async function server(schema: string, profile: boolean) {
  const database = await openDatabase({ databaseUrl: DATABASE_URL, schema, dataDir: null, poolSize: 10 });
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000000' }, { dataDir: null });
  const app = await buildApp({ config, db: database.db });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const ahead = backupReadAhead(database.db);
  const profiler = profile ? await startProfile(join(PROFILES, 'backup-server.cpuprofile')) : undefined;
  const listening = process.cpuUsage();
  process.send!({ url });
  process.on('message', async (m: { stop?: boolean }) => {
    if (!m.stop) return;
    const cpu = process.cpuUsage();
    const serving = process.cpuUsage(listening);
    await profiler?.stop();
    await app.close();
    await database.close();
    const stats: ServerStats = {
      peakRssMiB: peakRssMiB(),
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      servingCpuSeconds: (serving.user + serving.system) / 1e6,
      servingSystemSeconds: serving.system / 1e6,
      readAhead: ahead ? { hits: ahead.hits, stale: ahead.stale } : null,
    };
    process.send!(stats, () => process.exit(0));
  });
}

/** The workspace to pull: seeded in a new schema, or found in a schema a previous `--keep` run left. */
async function seed(schema: string, entries: number) {
  const database = await openDatabase({ databaseUrl: DATABASE_URL, schema, dataDir: null, poolSize: 2 });
  try {
    await migrate(database.db);
    const company = await createWorkspace(database.db, { name: 'Backup bench' });
    const owner = await createMember(database.db, operatorPrincipal(company.id), { email: `owner.${schema}@bench.example`, first_name: 'Olive', role: 'owner' });
    const { secret } = await createKey(database.db, operatorPrincipal(company.id), { userId: owner.user_id, kind: 'integration' });
    const clientId = newId();
    const projectId = newId();
    const taskId = newId();
    const db = database.db;
    await db.insertInto('clients').values({ company_id: company.id, id: clientId, name: 'Client' }).execute();
    await db.insertInto('projects').values({ company_id: company.id, id: projectId, client_id: clientId, name: 'Project' }).execute();
    await db.insertInto('tasks').values({ company_id: company.id, id: taskId, name: 'Task' }).execute();
    await db.insertInto('project_user_assignments').values({ company_id: company.id, project_id: projectId, user_id: owner.user_id }).execute();
    const t0 = performance.now();
    // Ids ordered as UUIDv7 would be (time-ordered), made in SQL for speed.
    await sql`insert into time_entries (company_id, id, user_id, project_id, task_id, spent_date, duration_seconds,
        hours_entered, notes, billable, billable_rate, source, metadata, created_at, updated_at)
      select ${company.id}::uuid,
        (lpad(to_hex(1700000000000 + g), 12, '0') || '7000' || '8000' || lpad(to_hex(g), 12, '0'))::uuid,
        ${owner.user_id}::uuid, ${projectId}::uuid, ${taskId}::uuid,
        date '2020-01-01' + (g % 2000), 900 + g % 27000,
        case when g % 3 = 0 then 1.25 end, 'Worked on item ' || g, g % 4 <> 0, 120.00, 'api',
        case when g % 10 = 0 then jsonb_build_object('ticket', 'T-' || g) end,
        timestamptz '2020-01-01' + g * interval '1 minute', timestamptz '2020-01-01' + g * interval '1 minute'
      from generate_series(1, ${entries}) g`.execute(db);
    await sql`create table bench_backup_key (company_id uuid, secret text)`.execute(db);
    await sql`insert into bench_backup_key values (${company.id}, ${secret})`.execute(db);
    const admin = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path=${schema}` });
    await admin.connect();
    await admin.query('vacuum analyze time_entries');
    await admin.end();
    console.log(`seeded ${entries.toLocaleString('en')} time entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return { companyId: company.id, secret };
  } finally {
    await database.close();
  }
}

async function reuse(schema: string) {
  const admin = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path=${schema}` });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ company_id: string; secret: string }>('select company_id, secret from bench_backup_key');
    if (rows.length !== 1) throw new Error(`schema ${schema} was not left by bench/backup.ts --keep`);
    const n = await admin.query<{ n: string }>('select count(*) as n from time_entries');
    console.log(`reusing ${schema}: ${Number(n.rows[0].n).toLocaleString('en')} time entries`);
    return { companyId: rows[0].company_id, secret: rows[0].secret, entries: Number(n.rows[0].n) };
  } finally {
    await admin.end();
  }
}

const verdict = (met: boolean) => (met ? 'met' : 'MISSES');

async function driver() {
  const { values } = parseArgs({
    options: {
      entries: { type: 'string' },
      'per-page': { type: 'string' },
      profile: { type: 'boolean' },
      keep: { type: 'boolean' },
      reuse: { type: 'string' },
    },
  });
  let entries = Number(values.entries ?? 1_000_000);
  const perPage = Number(values['per-page'] ?? 500);
  const schema = values.reuse ?? `bench_backup_${newId().slice(-12).replace(/-/g, '')}`;
  const keep = values.keep || values.reuse !== undefined;
  const dir = await mkdtemp(join(tmpdir(), 'sheaf-backup-bench-'));
  const dbAdmin = new pg.Client({ connectionString: DATABASE_URL });
  await dbAdmin.connect();
  const started: ChildProcess[] = [];
  const exit = schemaWayOut(DATABASE_URL, schema, {
    stop: async () => {
      for (const child of started) child.kill();
      await rm(dir, { recursive: true, force: true });
    },
    close: () => dbAdmin.end(),
    keep,
  });
  let broken: boolean;
  try {
    let workspace: { companyId: string; secret: string };
    if (values.reuse) {
      const found = await reuse(values.reuse);
      entries = found.entries;
      workspace = found;
    } else workspace = await seed(schema, entries);

    const child = fork(join(ROOT, 'bin/run-ts.js'), [process.argv[1], '--server', schema, ...(values.profile ? ['--profile'] : [])]);
    started.push(child);
    const childExited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const url = await new Promise<string>((resolve, reject) => {
      child.once('message', (m: { url: string }) => resolve(m.url));
      child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)));
    });
    const dbCpu = new DatabaseCpu(dbAdmin, schema);
    await dbCpu.sample();

    // The client runs in a process of its own, as `sheaf backup pull` does (bench/backup-pull.ts).
    const client = fork(join(ROOT, 'bin/run-ts.js'), [join(ROOT, 'bench/backup-pull.ts')]);
    started.push(client);
    const pulled = new Promise<PullResult>((resolve, reject) => {
      client.once('message', resolve);
      client.once('exit', (code) => reject(new Error(`the pulling client exited (${code}) without a result`)));
    });
    const job: PullJob = { baseUrl: url, key: workspace.secret, workspaceId: workspace.companyId, outDir: dir, perPage, profileDir: values.profile ? PROFILES : null };
    client.send(job);
    const { summary, seconds, rss, quarterStarts, ...clientStats } = await pulled;
    const load = loadAverage().raw;
    const dbMicros = await dbCpu.sample();
    if (dbMicros === null) console.log(`database CPU not measured: ${dbCpu.unreadable}`);
    const serverStats = await new Promise<ServerStats>((resolve) => {
      child.once('message', resolve);
      child.send({ stop: true });
    });
    await childExited;
    const verifyStart = performance.now();
    const verified = await verifyBackup(dir);
    const verifySeconds = (performance.now() - verifyStart) / 1000;

    const recordsPerSecond = Math.round(summary.records / seconds);
    const atQuarter = quarterStarts.map((i) => Math.round(rss[Math.min(i, rss.length - 1)]));
    atQuarter.push(Math.round(rss[rss.length - 1]));
    const fromFirstQuarter = rss.slice(quarterStarts[1] ?? rss.length);
    const growth = fromFirstQuarter.length ? Math.max(...fromFirstQuarter) - fromFirstQuarter[0] : NaN;
    const timeEntries = summary.resources.time_entries?.records ?? 0;
    console.log(
      JSON.stringify(
        {
          entries,
          per_page: perPage,
          pages: rss.length,
          records: summary.records,
          seconds: Number(seconds.toFixed(2)),
          records_per_second: recordsPerSecond,
          server_peak_rss_mib: serverStats.peakRssMiB,
          server_cpu_seconds: Number(serverStats.cpuSeconds.toFixed(1)),
          server_cpu_seconds_serving: Number(serverStats.servingCpuSeconds.toFixed(1)),
          server_cpu_seconds_serving_system: Number(serverStats.servingSystemSeconds.toFixed(1)),
          server_read_ahead: serverStats.readAhead,
          database_cpu_seconds_serving: dbMicros === null ? null : Number((dbMicros / 1e6).toFixed(1)),
          client_peak_rss_mib: clientStats.peakRssMiB,
          client_cpu_seconds: Number(clientStats.cpuSeconds.toFixed(1)),
          client_cpu_seconds_pull: Number(clientStats.cpuSecondsPull.toFixed(1)),
          client_cpu_seconds_pull_system: Number(clientStats.cpuSecondsPullSystem.toFixed(1)),
          load_average: load,
          client_rss_mib_at_quarters: atQuarter,
          client_rss_growth_mib_after_first_quarter: Number(growth.toFixed(1)),
          verify_ok: verified.ok,
          verify_seconds: Number(verifySeconds.toFixed(1)),
        },
        null,
        2,
      ),
    );
    if (!verified.ok) console.log(`verify: ${verified.problems.slice(0, 5).join('; ')}`);
    broken = !verified.ok || timeEntries !== entries || !Number.isFinite(growth);
    if (broken) {
      console.log(`broken measurement: verify ${verified.ok ? 'ok' : 'failed'}, ${timeEntries} of ${entries} time entries pulled`);
    } else {
      console.log(`aim ${AIM_RECORDS_PER_SECOND.toLocaleString('en')} records/s: ${recordsPerSecond.toLocaleString('en')} ${verdict(recordsPerSecond >= AIM_RECORDS_PER_SECOND)}`);
      console.log(`aim client RSS growth after the first quarter <= ${AIM_RSS_GROWTH_MIB} MiB: ${growth.toFixed(1)} MiB ${verdict(growth <= AIM_RSS_GROWTH_MIB)}`);
      const serving = serverStats.servingCpuSeconds;
      recordPerformance([
        {
          key: 'backup',
          path: `sheaf backup pull (${formatNumber(summary.records)} records, per_page ${perPage})`,
          figure: `${formatNumber(recordsPerSecond)} records/s; client RSS ${atQuarter.join(' → ')} MiB`,
          baseline: 'none in the run (an absolute aim)',
          ratio: '—',
          cpu: `server ${((serving * 1e6) / summary.records).toFixed(0)} µs + client ${((clientStats.cpuSecondsPull * 1e6) / summary.records).toFixed(0)} µs per record`,
          aim: `≥ ${formatNumber(AIM_RECORDS_PER_SECOND)} records/s, client RSS growth ≤ ${AIM_RSS_GROWTH_MIB} MiB after the first quarter`,
          met: recordsPerSecond >= AIM_RECORDS_PER_SECOND && growth <= AIM_RSS_GROWTH_MIB,
          command: benchCommand('bench:backup'),
        },
      ]);
    }
    if (values.profile) console.log(`CPU profiles: ${PROFILES}/backup-server.cpuprofile, backup-client.cpuprofile`);
    if (keep) console.log(`schema ${schema} kept: --reuse ${schema} pulls from it again; drop it with: drop schema ${schema} cascade`);
  } catch (err) {
    broken = true;
    console.error(err);
  } finally {
    await exit.cleanup();
  }
  process.exitCode = broken ? 1 : 0;
}

if (process.argv[2] === '--server') await server(process.argv[3], process.argv[4] === '--profile');
else await driver();
