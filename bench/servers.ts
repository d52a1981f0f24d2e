/**
 * The benchmark's server process, forked by bench/users-me.ts so the load
 * generator never shares this event loop. It opens PostgreSQL in the schema the
 * driver chose (BENCH_SCHEMA), migrates, seeds one workspace with an owner and a
 * full-access key, and listens with two servers on one database pool:
 *
 * - Sheaf: the real app from buildApp (logging silent, rate limit out of reach);
 * - baseline: a bare Fastify instance on the same Kysely db with these routes:
 *   `/baseline/companies/:id` runs `select "id", "name" from "companies" where "id" = $1`
 *   (users/me's and the creates' baseline); `/baseline/authenticated` runs Sheaf's own
 *   authentication of the request (authenticate(): the key query and its rules) and answers
 *   the principal, with none of the app's hooks, rate limit or presenting;
 *   `/baseline/statements` runs the statements a
 *   list benchmark captured from the app (a `statements` message) in a tenant transaction,
 *   as the app's route does, and answers their rows as JSON with no authentication, rule or
 *   presenter (`{"items":[the first's rows],"more":[the others' rows]}`, serialized as the
 *   list routes are): what answering that SQL over HTTP costs before any of Sheaf's work;
 *   `POST /baseline/companies/:id/time_entries` stores a completed entry as bench:time-entries
 *   posts it with one INSERT (no authentication, checks, locks or presenting), sent with the
 *   tenant settings in one round trip as the app's create is: the creates' floor on this table.
 *
 * It reports its CPU time and event-loop utilisation on request and shuts down on
 * `stop`, on losing the driver, or on SIGTERM. The driver drops the schema.
 */
import { performance } from 'node:perf_hooks';
import Fastify, { type FastifyInstance } from 'fastify';
import { CompiledQuery, sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, singleRoundTripOf, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { createKey } from '../src/modules/people/credentials/service.ts';
import { tenantSettings, withTenant } from '../src/db/tenant.ts';
import { authenticate } from '../src/auth/authenticate.ts';
import { newId } from '../src/ids.ts';
import { STORED_COLUMNS } from '../src/modules/tracking/time/queries.ts';
import { serializeJson } from '../src/http/serializers.ts';
import type { DriverMessage, ServerMessage, Statement } from './protocol.ts';
import { operatorPrincipal } from '../src/access/operator.ts';

const HOST = '127.0.0.1';

function send(message: ServerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

function urlOf(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('server is not listening');
  return `http://${HOST}:${address.port}`;
}

let database: Database | undefined;
const servers: FastifyInstance[] = [];
let stopping: Promise<void> | undefined;
let listed: { companyId: string; statements: Statement[] } | undefined;

/** A completed entry as bench:time-entries posts it: hours, or a start and an end time. */
interface EntryBody {
  user_id: string;
  project_id: string;
  task_id: string;
  spent_date: string;
  source: string;
  hours?: number;
  started_time?: string;
  ended_time?: string;
  notes?: string;
}

/** The bare route's one INSERT, returning what the app's create returns. */
const INSERT_ENTRY = `insert into time_entries (company_id, id, user_id, project_id, task_id, spent_date, duration_seconds,
    hours_entered, is_running, started_time, ended_time, notes, billable, source, created_by, created_at, updated_at)
  values ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6::date, $7::integer, $8::numeric, false, $9, $10, $11, true,
    $12, $3::uuid, $13::timestamptz, $13::timestamptz)
  returning ${STORED_COLUMNS.join(', ')}`;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

function shutdown(code = 0): Promise<void> {
  stopping ??= (async () => {
    for (const server of servers) await server.close().catch(() => {});
    await database?.close().catch(() => {});
    process.exit(code);
  })();
  return stopping;
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  const schema = process.env.BENCH_SCHEMA;
  const poolSize = Number(process.env.BENCH_POOL_SIZE ?? 10);
  if (!databaseUrl || !schema) throw new Error('DATABASE_URL and BENCH_SCHEMA are required');

  // A configured server's database bounds: the defaults, or DATABASE_*_TIMEOUT_MS from the environment.
  const bounds = Object.fromEntries(Object.entries(process.env).filter(([name]) => /^DATABASE_\w+_TIMEOUT_MS$/.test(name)));
  const config = loadConfig(
    { ...bounds, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000000', DATABASE_URL: databaseUrl },
    { dataDir: null, databaseSchema: schema, databasePoolSize: poolSize },
  );
  database = await openDatabase({ databaseUrl, schema, poolSize, timeouts: config.databaseTimeouts });
  const db = database.db;
  await migrate(db);

  const company = await createWorkspace(db, { name: 'Bench Works' });
  const owner = await createMember(db, operatorPrincipal(company.id), {
    email: `owner.${schema}@bench.example`,
    first_name: 'Olive',
    last_name: 'Owner',
    role: 'owner',
  });
  const { secret } = await createKey(db, operatorPrincipal(company.id), { userId: owner.user_id, kind: 'integration' });
  // BENCH_MEMBERS: more people in the workspace (every fifth with a key of their own), so that the
  // authentication query's plan is the one a workspace of that size gets.
  const members = Number(process.env.BENCH_MEMBERS ?? 0);
  for (let i = 0; i < members; i++) {
    const member = await createMember(db, operatorPrincipal(company.id), { email: `member${i}.${schema}@bench.example`, first_name: 'Member', last_name: String(i), role: 'member' });
    if (i % 5 === 0) await createKey(db, operatorPrincipal(company.id), { userId: member.user_id, kind: 'integration' });
  }
  if (members) await sql`analyze`.execute(db);

  const sheaf = await buildApp({ config, db });
  servers.push(sheaf);
  await sheaf.listen({ host: HOST, port: 0 });

  const baseline = Fastify({ logger: false });
  servers.push(baseline);
  baseline.get<{ Params: { id: string } }>('/baseline/companies/:id', async (request, reply) => {
    const row = await db.selectFrom('companies').select(['id', 'name']).where('id', '=', request.params.id).executeTakeFirst();
    if (!row) return reply.code(404).send({ error: 'not_found' });
    return row;
  });
  const authDeps = { db, clock: () => new Date(), jwt: null };
  baseline.get('/baseline/authenticated', (request) => authenticate({ headers: request.headers, rawHeaders: request.raw.rawHeaders }, authDeps));
  baseline.get('/baseline/statements', async (_request, reply) => {
    if (!listed) return reply.code(409).send({ error: 'no statements: send a statements message first' });
    const { companyId, statements } = listed;
    const results = await withTenant(db, companyId, async (trx) => {
      const rows: unknown[][] = [];
      for (const s of statements) rows.push((await trx.executeQuery(CompiledQuery.raw(s.sql, s.parameters))).rows);
      return rows;
    });
    return reply.type('application/json; charset=utf-8').send(serializeJson({ items: results[0], more: results.slice(1) }));
  });
  const single = singleRoundTripOf(db);
  baseline.post<{ Params: { id: string }; Body: EntryBody }>('/baseline/companies/:id/time_entries', async (request, reply) => {
    if (!single) throw new Error('the bare insert needs PostgreSQL (a single round trip)');
    const b = request.body;
    const seconds = b.hours !== undefined ? Math.round(b.hours * 3600) : (minutesOf(b.ended_time!) - minutesOf(b.started_time!)) * 60;
    const values: unknown[] = [request.params.id, newId(), b.user_id, b.project_id, b.task_id, b.spent_date, seconds, b.hours ?? null];
    values.push(b.started_time ?? null, b.ended_time ?? null, b.notes ?? null, b.source, new Date());
    const rows = await single(tenantSettings(request.params.id).compile(db).sql, INSERT_ENTRY, values);
    return reply.code(201).send(rows[0]);
  });
  await baseline.listen({ host: HOST, port: 0 });

  const version = await sql<{ server_version: string }>`show server_version`.execute(db);

  await send({
    type: 'ready',
    sheafUrl: urlOf(sheaf),
    baselineUrl: urlOf(baseline),
    headers: { authorization: `Bearer ${secret}`, 'service-account-id': company.id },
    companyId: company.id,
    companyName: company.name,
    poolSize,
    postgresVersion: version.rows[0]?.server_version ?? 'unknown',
  });
}

process.on('message', (message: DriverMessage) => {
  if (message.type === 'stop') void shutdown(0);
  else if (message.type === 'statements') listed = { companyId: message.companyId, statements: message.statements };
  else if (message.type === 'usage') {
    const cpu = process.cpuUsage();
    const elu = performance.eventLoopUtilization();
    void send({ type: 'usage', seq: message.seq, cpuMicros: cpu.user + cpu.system, eluIdle: elu.idle, eluActive: elu.active, now: performance.now() });
  }
});
// The driver owns the lifecycle: Ctrl-C reaches this process too, but the driver
// stops the load first and then sends `stop`. Losing the driver ends this process.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => void shutdown(143));
process.on('disconnect', () => void shutdown(1));

main().catch(async (err: unknown) => {
  await send({ type: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  await shutdown(1);
});
