/**
 * The recurring-invoice scheduler's figure (issue 25 item 9), on PostgreSQL:
 * 10,000 schedules due on one day, made by one run of the scheduler (as
 * `sheaf admin recurring run-due` or a server's tick does), time per schedule;
 * against, in the same run, the time of one plain invoice create (the same
 * one-line invoice through the invoices service, each in its own transaction),
 * which is the bulk of an occurrence's work.
 *
 *   node bin/run-ts.js bench/recurring.ts [--schedules 10000] [--baseline 500]
 *   npm run bench:recurring
 *
 * DATABASE_URL selects PostgreSQL (default postgres://root@127.0.0.1:5432/test);
 * the run works in its own schema, dropped at the end. Results are printed,
 * written to .bench/recurring.json and recorded in the README's table.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { operatorPrincipal } from '../src/access/operator.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { newId } from '../src/ids.ts';
import { createInvoice } from '../src/modules/billing/invoices/service.ts';
import { runDueSchedules } from '../src/modules/billing/recurring-invoices/index.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { benchCommand, formatNumber, recordPerformance } from './performance.ts';
import { postgresUrl, schemaWayOut } from './harness.ts';

const { values } = parseArgs({ options: { schedules: { type: 'string' }, baseline: { type: 'string' } } });
const SCHEDULES = Number(values.schedules ?? 10_000);
const BASELINE = Number(values.baseline ?? 500);
const url = postgresUrl();
const schema = `sheaf_bench_${randomBytes(4).toString('hex')}`;

const database = await openDatabase({ databaseUrl: url, schema, poolSize: 10 });
const db = database.db;
const exit = schemaWayOut(url, schema, { close: () => database.close() });
const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

try {
  await migrate(db);
  const company = await createWorkspace(db, { name: 'Bench Studio', currency: 'EUR' });
  const c = company.id;
  const owner = await createMember(db, operatorPrincipal(c), { email: `owner-${schema}@example.com`, first_name: 'Olive', last_name: 'Owner', role: 'owner' });
  const operator = { ...operatorPrincipal(c), userId: owner.user_id };
  const clientId = newId();
  await db.insertInto('clients').values({ company_id: c, id: clientId, name: 'Globex', tax: '19' }).execute();
  const line = { description: 'Monthly retainer', quantity: 1, unit_price: 500 };
  const now = new Date();
  const today = now.toISOString().slice(0, 10);

  // Baseline: the same invoice made by the invoices service, one transaction each.
  for (let i = 0; i < 20; i++) await createInvoice(db, operator, { client_id: clientId, line_items: [line] }, now); // warm-up
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < BASELINE; i++) await createInvoice(db, operator, { client_id: clientId, line_items: [line], issue_date: today }, now);
  const baselineMs = (performance.now() - t0) / BASELINE;
  const baselineCpu = cpuMs(cpu0) / BASELINE;

  // 10,000 schedules, all due today.
  const rows = Array.from({ length: SCHEDULES }, () => ({
    company_id: c,
    id: newId(),
    client_id: clientId,
    frequency: 'monthly' as const,
    anchor_day: Number(today.slice(8, 10)),
    start_date: today,
    source: 'lines' as const,
    line_items: JSON.stringify([line]),
    action: 'draft' as const,
    next_run_date: today,
    created_by: owner.user_id,
  }));
  for (let i = 0; i < rows.length; i += 1000) await db.insertInto('recurring_invoice_schedules').values(rows.slice(i, i + 1000)).execute();

  const cpu1 = process.cpuUsage();
  const t1 = performance.now();
  const summary = await runDueSchedules({ db, clock: () => now });
  const runMs = performance.now() - t1;
  const perSchedule = runMs / SCHEDULES;
  const perScheduleCpu = cpuMs(cpu1) / SCHEDULES;
  if (summary.drafted !== SCHEDULES) throw new Error(`expected ${SCHEDULES} drafted, got ${JSON.stringify(summary)}`);
  const again = await runDueSchedules({ db, clock: () => now });
  if (again.drafted + again.sent + again.skipped !== 0) throw new Error(`a second run made more: ${JSON.stringify(again)}`);

  const ratio = perSchedule / baselineMs;
  const results = {
    database: 'postgresql',
    schedules: SCHEDULES,
    run_ms: Math.round(runMs),
    per_schedule_ms: Number(perSchedule.toFixed(2)),
    per_schedule_cpu_ms: Number(perScheduleCpu.toFixed(2)),
    baseline: { invoices: BASELINE, per_invoice_ms: Number(baselineMs.toFixed(2)), per_invoice_cpu_ms: Number(baselineCpu.toFixed(2)) },
    ratio: Number(ratio.toFixed(2)),
  };
  console.log(JSON.stringify(results, null, 2));
  mkdirSync('.bench', { recursive: true });
  writeFileSync('.bench/recurring.json', JSON.stringify(results, null, 2));
  const aim = 1.5;
  recordPerformance([
    {
      key: 'recurring-scheduler',
      path: `recurring-invoice scheduler, ${formatNumber(SCHEDULES)} schedules due on one day (one run)`,
      figure: `${formatNumber(perSchedule, 2)} ms per schedule (${formatNumber(runMs / 1000, 1)} s)`,
      baseline: `one plain invoice create (service, one line): ${formatNumber(baselineMs, 2)} ms`,
      ratio: formatNumber(ratio, 2),
      cpu: `${formatNumber(perScheduleCpu, 2)} ms (baseline ${formatNumber(baselineCpu, 2)} ms), app process only`,
      aim: `ratio ≤ ${aim} (an occurrence is a create plus its claim and record)`,
      met: ratio <= aim,
      command: benchCommand('bench:recurring'),
    },
  ]);
} finally {
  await exit.cleanup();
}
