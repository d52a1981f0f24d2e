/**
 * Webhook delivery benchmark (issue 26): N recorded events of one endpoint (each its own
 * record, a change row with the payload of a time entry as the change feed's trigger stores
 * it), fanned out and sent by this process's worker (`deliverDueWebhooks`, as a server process
 * runs it: fan out, claim, sign, POST, record) to a receiver in another process that answers 200. The baseline, in the same run: the same
 * number of signed POSTs of the same body to the same receiver, with the same concurrency,
 * without the database (what the receiver and HTTP alone allow). Reports deliveries/s,
 * the ratio to the baseline, and this process's CPU per delivery.
 *
 *   npm run bench:webhooks                       (20,000 deliveries, 2 rounds)
 *   npm run bench:webhooks -- --deliveries 5000 --rounds 1
 *
 * DATABASE_URL selects PostgreSQL (default postgres://root@127.0.0.1:5432/test); the run
 * works in its own schema, dropped at the end.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { deliverDueWebhooks } from '../src/modules/integrations/webhooks/index.ts';
import { signatures } from '../src/modules/integrations/webhooks/sender.ts';
import { ROOT, forkServer, loadAverage, median, numberOption, postgresUrl, schemaWayOut } from './harness.ts';
import { benchCommand, formatNumber, recordPerformance } from './performance.ts';

const { values } = parseArgs({ options: { deliveries: { type: 'string' }, rounds: { type: 'string' }, receiver: { type: 'boolean' } }, strict: true });

// The receiver: this file run with --receiver, in its own process, answers every POST 200.
if (values.receiver) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
} else {
  await main();
}

async function main() {
  const N = numberOption('deliveries', values.deliveries, 'BENCH_DELIVERIES', 20_000, true, 100);
  const ROUNDS = numberOption('rounds', values.rounds, 'BENCH_ROUNDS', 2, true, 1);
  const CONCURRENCY = 32;
  const BATCH = 200;
  /** The aim: at least this many deliveries per second per server process. */
  const AIM = 500;

  const databaseUrl = postgresUrl();
  const schema = `sheaf_bench_${randomBytes(6).toString('hex')}`;
  // The forked server migrates the schema and makes a workspace; the worker runs here.
  const server = forkServer({ databaseUrl, schema, pool: 2, applicationName: schema.replaceAll('_', '-'), profile: false });
  const receiver = fork(join(ROOT, 'bin/run-ts.js'), [fileURLToPath(import.meta.url), '--receiver'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
  const exit = schemaWayOut(databaseUrl, schema, {
    stop: async () => (receiver.kill(), await server.stop()),
    close: async () => await database?.close().catch(() => {}),
  });
  try {
    const ready = await server.ready(120_000);
    const port = await new Promise<number>((resolve) => receiver.once('message', (m: { port: number }) => resolve(m.port)));
    const url = `http://127.0.0.1:${port}/hook`;
    database = await openDatabase({ databaseUrl, schema, poolSize: 10 });
    const db = database.db;
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    await sql`insert into webhook_endpoints (company_id, id, url, events, secret)
        values (${ready.companyId}, gen_random_uuid(), ${url}, ${['time_entry.created']}, ${secret})`.execute(db);
    const row = {
      id: '00000000-0000-0000-0000-000000000000',
      spent_date: '2026-03-02',
      user_id: ready.companyId,
      project_id: ready.companyId,
      task_id: ready.companyId,
      notes: 'Implementation of the reporting screen',
      is_running: false,
      timer_started_at: null,
      started_time: null,
      ended_time: null,
      billable: true,
      billable_rate: '120.00',
      is_billed: false,
      invoice_id: null,
      approval_status: 'unsubmitted',
      external_reference: null,
      hours_entered: '1.50',
      duration_seconds: '5400',
      created_at: '2026-03-02T10:00:00+00:00',
      updated_at: '2026-03-02T10:00:00+00:00',
    };
    // The endpoint's cursor starts at the horizon (made by its trigger): the events come after it.
    const seed = () =>
      sql`insert into changes (company_id, record_type, record_id, action, user_id, project_id, events, data)
        select ${ready.companyId}, 'time_entries', gen_random_uuid(), 'created', ${ready.companyId}, ${ready.companyId}, ${['time_entry.created']}, ${JSON.stringify(row)}::jsonb
        from generate_series(1, ${N})`.execute(db);
    const deps = { db, clock: () => new Date(), allowPrivate: true, baseUrl: 'http://localhost', batchSize: BATCH, concurrency: CONCURRENCY };
    const body = JSON.stringify({ type: 'time_entry.created', timestamp: new Date().toISOString(), data: row });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

    async function viaWorker() {
      await sql`delete from webhook_deliveries`.execute(db);
      await sql`delete from changes`.execute(db);
      await sql`update webhook_fan_out set xid = pg_snapshot_xmin(pg_current_snapshot()), seq = 0`.execute(db);
      await seed();
      await sql`vacuum analyze webhook_deliveries, changes`.execute(db);
      const cpu = process.cpuUsage();
      const start = performance.now();
      let delivered = 0;
      for (;;) {
        const s = await deliverDueWebhooks(deps);
        if (s.retried + s.failed) throw new Error(`deliveries failed: ${JSON.stringify(s)}`);
        if (s.delivered === 0) break;
        delivered += s.delivered;
      }
      const ms = performance.now() - start;
      const used = process.cpuUsage(cpu);
      if (delivered !== N) throw new Error(`delivered ${delivered}, not ${N}`);
      return { ms, cpuMicros: (used.user + used.system) / N };
    }

    async function viaHttpOnly() {
      const start = performance.now();
      let next = 0;
      const lane = async () => {
        while (next++ < N) {
          const id = `msg_${randomBytes(16).toString('hex')}`;
          await new Promise<void>((resolve, reject) => {
            const req = http.request(
              url,
              {
                method: 'POST',
                agent,
                headers: {
                  'content-type': 'application/json',
                  'webhook-id': id,
                  'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
                  'webhook-signature': signatures([secret], id, new Date(), body),
                },
              },
              (res) => {
                res.resume();
                res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
              },
            );
            req.on('error', reject);
            req.end(body);
          });
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, lane));
      return { ms: performance.now() - start };
    }

    console.log(`webhook delivery benchmark: ${formatNumber(N)} deliveries, ${ROUNDS} round(s), concurrency ${CONCURRENCY}; loadavg ${loadAverage().raw}`);
    await viaHttpOnly(); // warm the connections
    const worker: number[] = [];
    const raw: number[] = [];
    const cpu: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const which of round % 2 ? ['worker', 'http'] : ['http', 'worker']) {
        let ms: number;
        if (which === 'worker') {
          const r = await viaWorker();
          ms = r.ms;
          worker.push(r.ms);
          cpu.push(r.cpuMicros);
        } else {
          ms = (await viaHttpOnly()).ms;
          raw.push(ms);
        }
        console.log(`round ${round} ${which}: ${(N / (ms / 1000)).toFixed(0)} /s (loadavg ${loadAverage().oneMinute})`);
      }
    }
    const workerRate = N / (median(worker) / 1000);
    const httpRate = N / (median(raw) / 1000);
    const cpuPer = median(cpu);
    console.log(`\nworker ${formatNumber(workerRate)} deliveries/s, HTTP alone ${formatNumber(httpRate)} POSTs/s: ratio ${(workerRate / httpRate).toFixed(2)}; worker CPU ${cpuPer.toFixed(0)} µs per delivery`);
    recordPerformance([
      {
        key: 'webhook-delivery',
        path: `webhook worker: ${formatNumber(N)} recorded events fanned out to an endpoint, signed and POSTed to a local receiver, ${CONCURRENCY} at a time`,
        figure: `${formatNumber(workerRate)} deliveries/s (worker process CPU ${cpuPer.toFixed(0)} µs each)`,
        baseline: `the same signed POSTs without the database: ${formatNumber(httpRate)} /s`,
        ratio: (workerRate / httpRate).toFixed(2),
        cpu: `${cpuPer.toFixed(0)} µs`,
        aim: `≥ ${AIM} deliveries/s per server process`,
        met: workerRate >= AIM,
        command: benchCommand('bench:webhooks'),
      },
    ]);
  } finally {
    await exit.cleanup();
  }
}
