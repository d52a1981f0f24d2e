/**
 * The import benchmark (issue 27 item 3): a generated Toggl Track detailed report of N rows
 * (default 100,000: 50 people, 40 clients × 5 projects, 10 tasks, a year of dates, a rate
 * change per person and project in the middle of the year) imported through the import
 * service, as the operator, on PGlite (in memory) and on PostgreSQL when DATABASE_URL is
 * set (its own schema, dropped at the end). Reports parse + import time and rows/s; the
 * aim is the whole file in under a minute. The same file is imported a second time to
 * show idempotency (nothing added) and what the duplicate check costs.
 *
 *   npm run bench:import                      (100,000 rows)
 *   npm run bench:import -- --rows 20000
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { operatorPrincipal } from '../src/access/operator.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { importFile, parseExport } from '../src/modules/integrations/import/index.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { numberOption, schemaWayOut } from './harness.ts';
import { benchCommand, formatNumber, recordPerformance, type PerformanceRow } from './performance.ts';

const { values } = parseArgs({ options: { rows: { type: 'string' } }, strict: true });
const ROWS = numberOption('rows', values.rows, 'BENCH_IMPORT_ROWS', 100_000, true, 100);
const AIM_SECONDS = 60;

/** A Toggl-style export: the columns of test/fixtures/import/toggl.csv. */
function togglFile(rows: number): string {
  const lines = ['User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount (EUR)'];
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < rows; i++) {
    const person = i % 50;
    const client = i % 40;
    // Independent of the client (i mod 40), so every client has all five projects.
    const project = Math.floor(i / 40) % 5;
    const day = new Date(start + ((i * 7) % 365) * 86_400_000).toISOString().slice(0, 10);
    const hour = 8 + (i % 9);
    const minutes = 15 + (i % 4) * 15;
    const seconds = minutes * 60;
    const rate = day < '2024-07-01' ? 80 + person : 95 + person;
    const billable = i % 5 !== 0;
    const amount = billable ? ((rate * seconds) / 3600).toFixed(2) : '';
    const end = `${String(hour + Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;
    lines.push(
      [
        `Person ${person}`,
        `person${person}@bench.test`,
        `Client ${client}`,
        `Project ${client}-${project}`,
        `Task ${i % 10}`,
        `"Work item ${i}, part ${i % 3}"`,
        billable ? 'Yes' : 'No',
        day,
        `${String(hour).padStart(2, '0')}:00:00`,
        day,
        end,
        `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`,
        '',
        amount,
      ].join(','),
    );
  }
  return lines.join('\n') + '\n';
}

const figures: PerformanceRow[] = [];

async function run(label: string, database: Database, file: Buffer, parseSeconds: number) {
  await migrate(database.db);
  const company = await createWorkspace(database.db, { name: `Import bench ${label}` });
  const p = operatorPrincipal(company.id);
  const options = { dryRun: false, source: 'cli' as const, baseUrl: 'http://localhost', now: new Date() };
  let t0 = performance.now();
  const first = await importFile(database.db, p, file, options);
  const firstSeconds = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const second = await importFile(database.db, p, file, options);
  const secondSeconds = (performance.now() - t0) / 1000;
  const rate = (seconds: number) => Math.round(ROWS / seconds).toLocaleString('en');
  console.log(
    `${label.padEnd(10)} import ${firstSeconds.toFixed(1)} s (${rate(firstSeconds)} rows/s; ${first.created.time_entries} entries, ${first.created.people} people, ` +
      `${first.created.projects} projects, ${first.created.rates} rates) | again ${secondSeconds.toFixed(1)} s (${rate(secondSeconds)} rows/s, ` +
      `${second.created.time_entries} added, ${second.skipped_count} skipped) | aim < ${AIM_SECONDS} s: ${firstSeconds < AIM_SECONDS ? 'met' : 'MISSED'}`,
  );
  if (first.created.time_entries + first.skipped_count !== ROWS || second.created.time_entries !== 0) throw new Error('the import did not add each row exactly once');
  figures.push({
    key: `import-${label.toLowerCase()}`,
    path: `import of a Toggl Track export, ${formatNumber(ROWS)} rows (${label})`,
    figure: `${firstSeconds.toFixed(1)} s (${rate(firstSeconds)} rows/s); the same file again ${secondSeconds.toFixed(1)} s, nothing added`,
    baseline: `parsing the file alone: ${parseSeconds.toFixed(2)} s`,
    ratio: (firstSeconds / parseSeconds).toFixed(1),
    cpu: '—',
    aim: `< ${AIM_SECONDS} s`,
    met: firstSeconds < AIM_SECONDS,
    command: benchCommand('bench:import'),
  });
}

const file = Buffer.from(togglFile(ROWS));
const t0 = performance.now();
parseExport(file);
const parseSeconds = (performance.now() - t0) / 1000;
console.log(`import benchmark: ${ROWS.toLocaleString('en')} rows, ${(file.length / 1024 / 1024).toFixed(1)} MiB; parse alone ${parseSeconds.toFixed(2)} s`);

const pglite = await openDatabase({ dataDir: null });
try {
  await run('PGlite', pglite, file, parseSeconds);
} finally {
  await pglite.close();
}

if (process.env.DATABASE_URL) {
  const schema = `sheaf_bench_${randomBytes(6).toString('hex')}`;
  const postgres = await openDatabase({ databaseUrl: process.env.DATABASE_URL, schema });
  const exit = schemaWayOut(process.env.DATABASE_URL, schema, { close: () => postgres.close() });
  try {
    await run('PostgreSQL', postgres, file, parseSeconds);
  } finally {
    await exit.cleanup();
  }
}

recordPerformance(figures);
