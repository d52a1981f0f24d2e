/**
 * `npm run bench:projects`: GET /api/v2/projects?per_page=2000 for a workspace
 * with 5,000 projects and a manager assigned to 2,000 of them, on PostgreSQL.
 * Reports the median latency of the API call (full request path through
 * app.inject: authentication, access, query, presentation, serialization) and
 * of the same SQL sent straight through `pg` in the same transaction shape
 * (tenant role and company set), measured in the same run, and their ratio.
 * Aim: within 2× of the raw query.
 *
 * Options (environment): DATABASE_URL (default postgres://root@127.0.0.1:5432/test),
 * BENCH_ITERATIONS (default 40), BENCH_PLAN=1 to print the query plan.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { pgTypes } from '../src/db/type-parsers.ts';
import type { DB } from '../src/db/types.ts';
import { newId } from '../src/ids.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { createKey } from '../src/modules/people/credentials/service.ts';
import { operatorPrincipal } from '../src/access/operator.ts';
import { benchCommand, recordPerformance } from './performance.ts';

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
/** Issue 24's aim: the list within this factor of its own SQL sent through pg. */
const AIM = 1.3;

const url = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const iterations = Number(process.env.BENCH_ITERATIONS ?? 40);
const schema = `sheaf_bench_${randomBytes(4).toString('hex')}`;
const PROJECTS = 5000;
const ASSIGNED = 2000;

const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query(`create schema ${schema}`);
const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c TimeZone=UTC -c search_path=${schema}`, types: pgTypes });
let listSql: CompiledQuery | null = null;
const db = new Kysely<DB>({
  dialect: new PostgresDialect({ pool }),
  // Capture the list query the API sends, to run the very same SQL through pg.
  log: (e) => {
    if (e.level === 'query' && /from "projects"/.test(e.query.sql) && e.query.sql.includes('count(*) over ()')) listSql = e.query;
  },
});

async function median(fn: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 5; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

try {
  await migrate(db);
  const company = await createWorkspace(db, { name: 'Bench' });
  const manager = await createMember(db, operatorPrincipal(company.id), {
    email: `manager.${randomBytes(3).toString('hex')}@example.com`,
    first_name: 'Mana',
    role: 'manager',
    permissions: ['view_billable_rates', 'view_internal_costs'],
  });
  const { secret } = await createKey(db, operatorPrincipal(company.id), { userId: manager.user_id, kind: 'integration' });
  const headers = { authorization: `Bearer ${secret}`, 'service-account-id': company.id };

  const clients = Array.from({ length: 50 }, (_, i) => ({ company_id: company.id, id: newId(), name: `Client ${i}` }));
  await db.insertInto('clients').values(clients).execute();
  const projects = Array.from({ length: PROJECTS }, (_, i) => ({
    company_id: company.id,
    id: newId(),
    client_id: clients[i % clients.length].id,
    name: `Project ${String(i).padStart(5, '0')}`,
    owner_id: i % 3 === 0 ? manager.user_id : null,
  }));
  for (let i = 0; i < projects.length; i += 1000) await db.insertInto('projects').values(projects.slice(i, i + 1000)).execute();
  const assigned = projects.filter((_, i) => i % 5 < 2).slice(0, ASSIGNED);
  await db
    .insertInto('project_user_assignments')
    .values(assigned.map((p) => ({ company_id: company.id, project_id: p.id, user_id: manager.user_id, is_project_manager: true })))
    .execute();
  await db
    .insertInto('rates')
    .values(projects.map((p) => ({ company_id: company.id, id: newId(), kind: 'billable' as const, project_id: p.id, effective_from: '2024-01-01', hourly_rate: '100' })))
    .execute();
  await sql`analyze`.execute(db);

  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000000' }, { dataDir: null }), db });
  const list = () => app.inject({ method: 'GET', url: '/api/v2/projects?per_page=2000', headers });
  const check = await list();
  if (check.statusCode !== 200 || check.json().projects.length !== ASSIGNED) throw new Error(`unexpected answer: ${check.body.slice(0, 200)}`);
  // Timed: the request as a client sees it, up to the complete response body (not parsing it).
  const api = await median(async () => {
    const res = await list();
    if (res.statusCode !== 200) throw new Error(`unexpected status ${res.statusCode}`);
  });
  await app.close();

  const query = listSql as CompiledQuery | null;
  if (!query) throw new Error('the projects list query was not captured');
  const client = await pool.connect();
  const inTenant = async <T>(fn: () => Promise<T>) => {
    await client.query('begin');
    await client.query(`select set_config('role', 'sheaf_app', true), set_config('app.company_id', $1, true)`, [company.id]);
    try {
      return await fn();
    } finally {
      await client.query('commit');
    }
  };
  const raw = await median(() =>
    inTenant(async () => {
      const r = await client.query(query.sql, query.parameters as unknown[]);
      if (r.rows.length !== ASSIGNED) throw new Error(`raw query returned ${r.rows.length} rows`);
    }),
  );
  if (process.env.BENCH_PLAN) {
    const plan = await inTenant(() => client.query(`explain analyze ${query.sql}`, query.parameters as unknown[]));
    console.log(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
  }
  client.release();

  const ratio = api / raw;
  console.log(`GET /api/v2/projects?per_page=2000 (${PROJECTS} projects, manager assigned to ${ASSIGNED}), ${iterations} iterations`);
  console.log(`  API median       ${api.toFixed(1)} ms`);
  console.log(`  raw SQL median   ${raw.toFixed(1)} ms (same SQL through pg, same transaction shape)`);
  console.log(`  ratio            ${ratio.toFixed(2)}× — ${ratio <= AIM ? 'PASS' : 'MISS'} (aim: within ${AIM}×); loadavg ${loadavg()}`);
  recordPerformance([
    {
      key: 'projects-list',
      path: `GET /api/v2/projects?per_page=2000 (${PROJECTS.toLocaleString('en')} projects, ${ASSIGNED.toLocaleString('en')} visible; in-process)`,
      figure: `${api.toFixed(1)} ms median`,
      baseline: `the route's own SQL through pg: ${raw.toFixed(1)} ms`,
      ratio: `${ratio.toFixed(2)}×`,
      cpu: 'n/a',
      aim: `≤ ${AIM}×`,
      met: ratio <= AIM,
      command: benchCommand('bench:projects'),
    },
  ]);
} finally {
  await db.destroy();
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
}
