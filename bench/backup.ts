/**
 * `sheaf backup pull` of a workspace with many time entries, on PostgreSQL:
 * records per second, and the peak memory of the server and of the client.
 *
 *   node bin/run-ts.js bench/backup.ts [--entries 1000000] [--per-page 500]
 *
 * DATABASE_URL (default postgres://root@127.0.0.1:5432/test). The driver makes
 * a throw-away schema, migrates it, creates a workspace with an owner and a
 * full-access key and N time entries (one INSERT ... SELECT over
 * generate_series), forks the server (this file with --server: the real app,
 * rate limit out of reach) so the two processes' memory is measured apart,
 * runs pullBackup (the code behind `sheaf backup pull`) into a temporary
 * directory, then verifies it, prints the figures and drops the schema.
 * Memory: the peak RSS (getrusage maxrss) of each process, and the client's
 * RSS sampled at each quarter of the crawl, to show it stays flat. CPU: each
 * process's total (startup and, for the driver, seeding included), and the
 * part spent serving (server, after listening) and pulling (client), which
 * depends little on the machine's load; the load average is printed with it.
 */
import { fork } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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
import { newId } from '../src/ids.ts';
import { pullBackup, verifyBackup } from '../src/cli/backup-client.ts';
import { operatorPrincipal } from '../src/access/operator.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const MiB = 1024 * 1024;
const peakRssMiB = () => Math.round((process.resourceUsage().maxRSS * 1024) / MiB);

async function server(schema: string) {
  const database = await openDatabase({ databaseUrl: DATABASE_URL, schema, dataDir: null, poolSize: 10 });
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000000' }, { dataDir: null });
  const app = await buildApp({ config, db: database.db });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const listening = process.cpuUsage();
  process.send!({ url });
  process.on('message', async (m: { stop?: boolean }) => {
    if (!m.stop) return;
    const cpu = process.cpuUsage();
    const serving = process.cpuUsage(listening);
    await app.close();
    await database.close();
    process.send!(
      { peakRssMiB: peakRssMiB(), cpuSeconds: (cpu.user + cpu.system) / 1e6, servingCpuSeconds: (serving.user + serving.system) / 1e6, servingSystemSeconds: serving.system / 1e6 },
      () => process.exit(0),
    );
  });
}

async function driver() {
  const { values } = parseArgs({ options: { entries: { type: 'string' }, 'per-page': { type: 'string' } } });
  const entries = Number(values.entries ?? 1_000_000);
  const perPage = Number(values['per-page'] ?? 500);
  const schema = `bench_backup_${newId().slice(-12).replace(/-/g, '')}`;
  const database = await openDatabase({ databaseUrl: DATABASE_URL, schema, dataDir: null, poolSize: 2 });
  const dir = await mkdtemp(join(tmpdir(), 'sheaf-backup-bench-'));
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
    const admin = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path=${schema}` });
    await admin.connect();
    await admin.query('vacuum analyze time_entries');
    await admin.end();
    console.log(`seeded ${entries.toLocaleString('en')} time entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const child = fork('bin/run-ts.js', [process.argv[1], '--server', schema]);
    const url = await new Promise<string>((resolve) => child.once('message', (m: { url: string }) => resolve(m.url)));
    const samples: number[] = [];
    let lastQuarter = -1;
    let pages = 0;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const summary = await pullBackup({
      baseUrl: url,
      key: secret,
      workspaceId: company.id,
      outDir: dir,
      perPage,
      progress: (line) => {
        const m = /^time_entries: (\d+)\/(\d+)$/.exec(line);
        if (!m) return;
        pages++;
        const quarter = Math.floor((4 * Number(m[1])) / Number(m[2]));
        if (quarter !== lastQuarter) {
          lastQuarter = quarter;
          samples.push(Math.round(process.memoryUsage().rss / MiB));
        }
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage();
    const pullCpu = process.cpuUsage(cpuBefore);
    const serverStats = await new Promise<{ peakRssMiB: number; cpuSeconds: number; servingCpuSeconds: number; servingSystemSeconds: number }>((resolve) => {
      child.once('message', resolve);
      child.send({ stop: true });
    });
    const verifyStart = performance.now();
    const verified = await verifyBackup(dir);
    const verifySeconds = (performance.now() - verifyStart) / 1000;
    console.log(
      JSON.stringify(
        {
          entries,
          per_page: perPage,
          pages,
          records: summary.records,
          seconds: Number(seconds.toFixed(2)),
          records_per_second: Math.round(summary.records / seconds),
          server_peak_rss_mib: serverStats.peakRssMiB,
          server_cpu_seconds: Number(serverStats.cpuSeconds.toFixed(1)),
          server_cpu_seconds_serving: Number(serverStats.servingCpuSeconds.toFixed(1)),
          server_cpu_seconds_serving_system: Number(serverStats.servingSystemSeconds.toFixed(1)),
          client_peak_rss_mib: peakRssMiB(),
          client_cpu_seconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(1)),
          client_cpu_seconds_pull: Number(((pullCpu.user + pullCpu.system) / 1e6).toFixed(1)),
          client_cpu_seconds_pull_system: Number((pullCpu.system / 1e6).toFixed(1)),
          load_average: (await readFile('/proc/loadavg', 'utf8').catch(() => '')).split(' ').slice(0, 3).join(' '),
          client_rss_mib_at_quarters: samples,
          verify_ok: verified.ok,
          verify_seconds: Number(verifySeconds.toFixed(1)),
        },
        null,
        2,
      ),
    );
  } finally {
    await database.close();
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--server') await server(process.argv[3]);
else await driver();
