/**
 * `npm run bench:reports`: the financial reports at scale on PostgreSQL.
 *
 * One workspace is seeded set-based (INSERT … SELECT over generate_series): 300
 * people besides the owner, 40 clients, 2,000 projects (billed by project, by
 * task, by person or not billable; one in ten fixed-fee; budgets of every
 * budget_by kind, some monthly), 30 tasks, 5 task and ~4 person assignments per
 * project, effective-dated project, task, person-on-project, person default
 * and cost rates (changing during the history), 1,000,000 time entries and
 * 50,000 expenses over the weekdays of the last 3 years, and invoices: fixed-fee
 * projects carry service lines (open, paid, draft, voided, some credits) and
 * other lines; time-and-materials projects carry imported lines. Entries age
 * like real ones: older than 5 weeks mostly approved (a few rejected), the
 * last 5 weeks unsubmitted, submitted, approved or rejected; approved billable
 * work older than 10 weeks mostly billed; a hundred timers run today.
 *
 * Then the real app (buildApp) listens on a local port and, as the owner over
 * HTTP (fetch, up to the complete body), each report runs `--warmup` times and
 * then `--iterations` times; the median and p95 are printed with /proc/loadavg.
 * The first warm-up run of each finds the kept totals of time stale (the bench
 * moves the workspace's generation, as a rate change does) and fills them: its
 * time is printed too (src/modules/reports/reports/totals.ts).
 *
 *   uninvoiced      GET /api/v2/reports/uninvoiced?from=…&to=…&per_page=2000
 *                   (365 days ending today, every project on one page)
 *   project_budget  GET /api/v2/reports/project_budget?per_page=2000
 *
 * The SQL of each report (captured from the Kysely query log of the same query
 * functions) is run under EXPLAIN (ANALYZE, BUFFERS), with the custom plan and
 * with the generic plan a prepared statement switches to (the app prepares its
 * statements), into .bench/reports-plans.txt. Aim: a median under 150 ms each
 * on 2 cores. The schema (sheaf_bench_<random>) is dropped at the end, on
 * failure and on Ctrl-C.
 *
 * Options (flag or environment): --entries BENCH_ENTRIES (1000000), --expenses
 * BENCH_EXPENSES (50000), --projects BENCH_PROJECTS (2000), --users BENCH_USERS
 * (300), --years BENCH_YEARS (3), --iterations BENCH_ITERATIONS (15), --warmup
 * BENCH_WARMUP (3), --plans BENCH_PLANS (.bench/reports-plans.txt), --keep (leave
 * the schema, print its name), --schema NAME (reuse a schema left by --keep: no
 * seeding, pending migrations are applied, the schema is kept), --profile (a V8 CPU
 * profile of this process, server and client, while each report's timed runs go,
 * into .bench/profiles/reports-<report>.cpuprofile). DATABASE_URL (default
 * postgres://root@127.0.0.1:5432/test; the seed needs a superuser).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { reportProjectScope } from '../src/access/reports.ts';
import { loadConfig } from '../src/config.ts';
import { connectionOptions, openDatabase, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { withTenant } from '../src/db/tenant.ts';
import { pgTypes } from '../src/db/type-parsers.ts';
import type { DB } from '../src/db/types.ts';
import { createKey } from '../src/modules/people/credentials/service.ts';
import { projectBudgetRows, uninvoicedRows } from '../src/modules/reports/reports/queries.ts';
import { monthOf } from '../src/modules/reports/reports/rules.ts';
import { REPORTS_RANDOM_PAGE_COST } from '../src/modules/reports/reports/service.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { operatorPrincipal } from '../src/access/operator.ts';
import { startProfile } from './profile.ts';
import { countOption, inTenantTransaction, loadAverages, numberOption, postgresUrl, schemaWayOut, secondsSince } from './harness.ts';
import { benchCommand, recordPerformance } from './performance.ts';

const { values: args } = parseArgs({
  options: {
    entries: { type: 'string' },
    expenses: { type: 'string' },
    projects: { type: 'string' },
    users: { type: 'string' },
    years: { type: 'string' },
    iterations: { type: 'string' },
    warmup: { type: 'string' },
    plans: { type: 'string' },
    keep: { type: 'boolean' },
    schema: { type: 'string' },
    profile: { type: 'boolean' },
  },
  strict: true,
});
const ENTRIES = countOption(args, 'entries', 1_000_000);
const EXPENSES = countOption(args, 'expenses', 50_000, 0);
const PROJECTS = countOption(args, 'projects', 2000);
const USERS = countOption(args, 'users', 300);
const YEARS = numberOption('years', args.years, 'BENCH_YEARS', 3, false, 0.5);
const ITERATIONS = countOption(args, 'iterations', 15);
const WARMUP = countOption(args, 'warmup', 3, 0);
const PLANS = String(args.plans ?? process.env.BENCH_PLANS ?? '.bench/reports-plans.txt');
const CLIENTS = 40;
const TASKS = 30;

const url = postgresUrl();
const REUSE = args.schema !== undefined;
if (REUSE && !/^sheaf_bench_[0-9a-f]{8}$/.test(String(args.schema))) throw new Error(`--schema: not a bench schema: ${args.schema}`);
const schema = REUSE ? String(args.schema) : `sheaf_bench_${randomBytes(4).toString('hex')}`;
const KEEP = Boolean(args.keep) || REUSE;
const AIM_MS = 150;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const admin = new pg.Client({ connectionString: url });
await admin.connect();
if (!REUSE) await admin.query(`create schema ${schema}`);
let database: Database | undefined;
const exit = schemaWayOut(url, schema, { close: async () => (await database?.close(), await admin.end()), keep: KEEP });

/** Fills the workspace: catalogue, rates, entries, expenses, invoices. `c` is a superuser client in the schema. */
async function seed(c: pg.Client, companyId: string, ownerId: string, today: string) {
  const start = iso(Date.parse(today) - Math.round(YEARS * 365.25) * DAY);
  const weeks = Math.floor((Date.parse(today) - Date.parse(start)) / (7 * DAY));
  const rate1 = iso(Date.parse(start) + 365 * DAY);
  const rate2 = iso(Date.parse(start) + 730 * DAY);
  const openFrom = iso(Date.parse(today) - 35 * DAY);
  const billedBefore = iso(Date.parse(today) - 70 * DAY);
  const p = [companyId, start, rate1, rate2, ownerId];
  let t0 = performance.now();
  await c.query('begin');
  await c.query(`set local session_replication_role = replica`);
  await c.query(`select setseed(0.31)`);
  // People: 10 % managers, 5 % contractors.
  await c.query(
    `insert into users (id, email, first_name, last_name)
     select gen_random_uuid(), 'person' || g || '.' || $1 || '@bench.example', 'Person' || g, 'Bench' || (g % 37) from generate_series(1, ${USERS}) g`,
    [schema],
  );
  await c.query(
    `insert into memberships (company_id, user_id, role, is_contractor)
     select $1, u.id, case when row_number() over (order by u.email) % 10 = 0 then 'manager' else 'member' end,
            row_number() over (order by u.email) % 20 = 0
     from users u where u.email like 'person%.' || $2 || '@bench.example'`,
    [companyId, schema],
  );
  await c.query(`insert into clients (company_id, id, name, currency)
    select $1, gen_random_uuid(), 'Client ' || lpad(g::text, 3, '0'), case when g % 8 = 0 then 'EUR' end from generate_series(1, ${CLIENTS}) g`, [companyId]);
  await c.query(`insert into tasks (company_id, id, name, billable_by_default)
    select $1, gen_random_uuid(), 'Task ' || lpad(g::text, 2, '0'), g % 6 <> 0 from generate_series(1, ${TASKS}) g`, [companyId]);
  // Projects: bill_by project 50 %, tasks 20 %, people 20 %, none 10 %; fixed fee 1 in 10 (of the billable);
  // budget_by cycles through every kind; monthly budgets 1 in 7; some start dates; 1 in 12 archived.
  await c.query(
    `insert into projects (company_id, id, client_id, name, code, is_active, is_billable, bill_by, is_fixed_fee, fee,
       budget_by, budget, budget_is_monthly, starts_on, created_at)
     select $1, gen_random_uuid(), cl.id, 'Project ' || lpad(g::text, 4, '0'), 'P' || g, g % 12 <> 0,
       bb <> 'none', bb, bb <> 'none' and g % 10 = 3, case when bb <> 'none' and g % 10 = 3 then 5000 + (g % 40) * 1000 end,
       bud, case when bud in ('project', 'project_cost') then case when bud = 'project' then 400 + g % 500 else 20000 + (g % 50) * 1000 end end,
       bud in ('project', 'project_cost') and g % 7 = 0,
       case when g % 3 = 0 then $2::date + (g % 900) end, $2::date - 30
     from generate_series(1, ${PROJECTS}) g
     cross join lateral (select (array['project','project','project','project','project','tasks','tasks','people','people','none'])[1 + g % 10] as bb,
                                (array['project','project_cost','task','task_fees','person','none'])[1 + g % 6] as bud) k
     join (select id, row_number() over (order by name) as n from clients where company_id = $1) cl on cl.n = 1 + g % ${CLIENTS}`,
    [companyId, start],
  );
  // Five tasks per project, budgets for task budgets (hours) and task-fee budgets (money).
  await c.query(
    `insert into project_task_assignments (company_id, project_id, task_id, billable, budget)
     select $1, p.id, t.id, t.billable_by_default,
       case p.budget_by when 'task' then 50 + (p.n + j) % 100 when 'task_fees' then 5000 + ((p.n + j) % 20) * 500 end
     from (select id, budget_by, row_number() over (order by name) as n from projects where company_id = $1) p
     cross join generate_series(0, 4) j
     join (select id, billable_by_default, row_number() over (order by name) as n from tasks where company_id = $1) t
       on t.n = 1 + (p.n * 7 + j * 5) % ${TASKS}`,
    [companyId],
  );
  // Four people per project (one of them manages it); person budgets.
  await c.query(
    `insert into project_user_assignments (company_id, project_id, user_id, is_project_manager, budget)
     select distinct on (p.id, m.user_id) $1, p.id, m.user_id, j = 0 and m.role = 'manager',
       case when p.budget_by = 'person' then 40 + (p.n + j) % 60 end
     from (select id, budget_by, row_number() over (order by name) as n from projects where company_id = $1) p
     cross join generate_series(0, 3) j
     join (select user_id, role, row_number() over (order by user_id) as n from memberships where company_id = $1 and user_id <> $2) m
       on m.n = 1 + (p.n * 13 + j * 71) % ${USERS}`,
    [companyId, ownerId],
  );
  // Rates, changing at the start, after one and after two years.
  await c.query(
    `insert into rates (company_id, id, kind, project_id, task_id, user_id, effective_from, hourly_rate)
     select $1, gen_random_uuid(), 'billable', p.id, null::uuid, null::uuid, d.f, 90 + (p.n % 7) * 10 + d.k * 10
       from (select id, bill_by, row_number() over (order by name) as n from projects where company_id = $1) p
       cross join (values (0, $2::date - 30), (1, $3::date), (2, $4::date)) d (k, f)
      where p.bill_by = 'project'
     union all
     select $1, gen_random_uuid(), 'billable', pta.project_id, pta.task_id, null, d.f, 100 + (abs(hashtext(pta.task_id::text)) % 5) * 15 + d.k * 10
       from project_task_assignments pta join projects p on p.company_id = pta.company_id and p.id = pta.project_id
       cross join (values (0, $2::date - 30), (1, $3::date)) d (k, f)
      where pta.company_id = $1 and p.bill_by = 'tasks'
     union all
     select $1, gen_random_uuid(), 'billable', pua.project_id, null, pua.user_id, d.f, 110 + (abs(hashtext(pua.user_id::text)) % 6) * 10 + d.k * 5
       from project_user_assignments pua join projects p on p.company_id = pua.company_id and p.id = pua.project_id
       cross join (values (0, $2::date - 30), (1, $4::date)) d (k, f)
      where pua.company_id = $1 and p.bill_by = 'people' and abs(hashtext(pua.user_id::text || pua.project_id::text)) % 2 = 0
     union all
     select $1, gen_random_uuid(), k.kind, null, null, m.user_id, d.f,
            case k.kind when 'billable' then 95 + (abs(hashtext(m.user_id::text)) % 5) * 10 else 40 + (abs(hashtext(m.user_id::text)) % 5) * 5 end + d.k * 5
       from memberships m cross join (values ('billable'), ('cost')) k (kind)
       cross join (values (0, $2::date - 30), (1, $3::date), (2, $4::date)) d (k, f)
      where m.company_id = $1`,
    p.slice(0, 4),
  );
  await c.query(`insert into expense_categories (company_id, id, name) select $1, gen_random_uuid(), 'Category ' || g from generate_series(1, 8) g`, [companyId]);
  await c.query('commit');
  console.log(`catalogue and rates (${secondsSince(t0)})`);

  t0 = performance.now();
  const { rows: indexes } = await c.query<{ name: string; def: string; tbl: string }>(
    `select c.relname as name, pg_get_indexdef(i.indexrelid) as def, i.indrelid::regclass::text as tbl
       from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid in ('time_entries'::regclass, 'expenses'::regclass)
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
  );
  await c.query(`set work_mem = '256MB'`);
  await c.query(`set maintenance_work_mem = '512MB'`);
  await c.query('begin');
  await c.query('set local session_replication_role = replica');
  for (const index of indexes) await c.query(`drop index ${index.name}`);
  // Work: a random person assignment, one of its project's tasks, a weekday, a duration of 15 min to 8 h.
  const work = (n: number) => `
    with ua as (select row_number() over (order by project_id, user_id) as k, user_id, project_id
                  from project_user_assignments where company_id = $1),
         pt as (select project_id, row_number() over (partition by project_id order by task_id) as j, task_id, billable
                  from project_task_assignments where company_id = $1),
         g as materialized (
           select g, 1 + floor(random() * (select count(*) from ua))::int as k, 1 + floor(random() * 5)::int as j,
                  floor(random() * ${weeks})::int as w, floor(random() * 5)::int as d, random() as r1, random() as r2, random() as r3
             from generate_series(1, ${n}) g)
    select g.*, ua.user_id, ua.project_id, pt.task_id, pt.billable and p.is_billable and g.r2 > 0.05 as billable,
           least($2::date + (g.w * 7 + g.d), $3::date) as spent_date
      from g join ua on ua.k = g.k join pt on pt.project_id = ua.project_id and pt.j = g.j
      join projects p on p.company_id = $1 and p.id = ua.project_id`;
  // Approval and billing by age: before openFrom approved (1 % rejected); after it every state; approved
  // billable work before billedBefore is billed (but 3 %).
  const status = `case when x.spent_date < $4::date then case when x.r3 < 0.01 then 'rejected' else 'approved' end
                       else (array['unsubmitted', 'unsubmitted', 'submitted', 'submitted', 'approved', 'rejected'])[1 + floor(x.r3 * 6)::int] end`;
  const billed = `x.billable and x.spent_date < $5::date and x.r3 >= 0.01 and x.r1 > 0.03`;
  await c.query(
    `insert into time_entries (company_id, id, user_id, project_id, task_id, spent_date, duration_seconds, hours_entered, notes,
       billable, source, approval_status, is_billed, created_by, created_at, updated_at)
     select $1, gen_random_uuid(), x.user_id, x.project_id, x.task_id, x.spent_date,
            60 * (5 + floor(x.r1 * 475)::int), case when x.r2 < 0.6 then round((60 * (5 + floor(x.r1 * 475)::int)) / 3600.0, 6) end,
            case when x.r2 < 0.8 then 'Work item ' || (x.g % 5000) end, x.billable, 'web', ${status}, ${billed},
            x.user_id, x.spent_date + time '18:00', x.spent_date + time '18:00'
       from (${work(ENTRIES)}) x order by x.spent_date`,
    [companyId, start, today, openFrom, billedBefore],
  );
  await c.query(
    `insert into expenses (company_id, id, user_id, project_id, expense_category_id, spent_date, total_cost, notes,
       billable, source, approval_status, is_billed, created_by, created_at, updated_at)
     select $1, gen_random_uuid(), x.user_id, x.project_id, ec.id, x.spent_date, round((5 + x.r1 * 495)::numeric, 2),
            'Receipt ' || x.g, x.billable or x.r2 > 0.9, 'web', ${status}, ${billed},
            x.user_id, x.spent_date + time '18:00', x.spent_date + time '18:00'
       from (${work(EXPENSES)}) x
       join (select id, row_number() over (order by name) as n from expense_categories where company_id = $1) ec on ec.n = 1 + x.g % 8
      order by x.spent_date`,
    [companyId, start, today, openFrom, billedBefore],
  );
  // Running timers: one each for the first hundred people, started this morning.
  await c.query(
    `insert into time_entries (company_id, id, user_id, project_id, task_id, spent_date, is_running, timer_started_at, duration_seconds,
       billable, source, approval_status, created_by)
     select distinct on (ua.user_id) $1, gen_random_uuid(), ua.user_id, ua.project_id, pta.task_id, $2::date, true, now(), 600, true, 'web', 'unsubmitted', ua.user_id
       from project_user_assignments ua join project_task_assignments pta on pta.company_id = ua.company_id and pta.project_id = ua.project_id
      where ua.company_id = $1 and ua.user_id in (select user_id from memberships where company_id = $1 order by user_id limit 100)
      order by ua.user_id, ua.project_id, pta.task_id`,
    [companyId, today],
  );
  await c.query('commit');
  console.log(`${ENTRIES} time entries, ${EXPENSES} expenses (${secondsSince(t0)})`);
  t0 = performance.now();
  for (const index of indexes) await c.query(index.def);
  console.log(`${indexes.length} indexes rebuilt (${secondsSince(t0)})`);

  // Invoices. Fixed-fee projects: four invoices with a Service line each (open, paid, draft, voided; a
  // fifth of them also a credit) and a Product line; T&M projects: one imported SERVICE line a quarter.
  t0 = performance.now();
  await c.query('begin');
  await c.query(
    `insert into invoices (company_id, id, client_id, number, state, issue_date, due_date, currency, created_at)
     select $1, gen_random_uuid(), p.client_id, 'INV-' || p.n || '-' || q, s, $2::date + q * 91, $2::date + q * 91 + 30, 'USD', $2::date + q * 91
       from (select id, client_id, is_fixed_fee, row_number() over (order by name) as n from projects where company_id = $1 and is_billable) p
       cross join generate_series(1, 11) q
       cross join lateral (select (array['paid', 'paid', 'open', 'draft', 'voided', 'closed'])[1 + (p.n + q) % 6] as s) st
      where p.is_fixed_fee and q <= 4 or not p.is_fixed_fee and (p.n + q) % 3 = 0`,
    [companyId, start],
  );
  await c.query(
    `insert into invoice_line_items (company_id, id, invoice_id, kind, quantity, unit_price, effect, project_id, sort_order, import_source)
     select $1, gen_random_uuid(), i.id, l.kind, l.qty, l.price, l.effect, p.id, l.ord, l.src
       from invoices i
       join (select id, is_fixed_fee, fee, row_number() over (order by name) as n from projects where company_id = $1 and is_billable) p
         on 'INV-' || p.n || '-' || split_part(i.number, '-', 3) = i.number
       cross join lateral (values
         (case when p.is_fixed_fee then 'Service' else 'SERVICE' end, case when p.is_fixed_fee then 1 else 40.25 end,
          case when p.is_fixed_fee then round(p.fee / 5, 2) else 120 end, 'charge', 0, case when p.is_fixed_fee then null else 'time' end),
         ('Product', 2, 49.5, 'charge', 1, null),
         ('Service', 1, 150, 'credit', 2, null)) l (kind, qty, price, effect, ord, src)
      where i.company_id = $1 and (l.ord <> 2 or p.is_fixed_fee and p.n % 5 = 0)`,
    [companyId],
  );
  await c.query('commit');
  // Only this schema's tables (a bare VACUUM would visit every schema of the database).
  const { rows: tables } = await c.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = $1`, [schema]);
  for (const t of tables) await c.query(`vacuum (analyze) ${t.name}`);
  await c.query('checkpoint');
  await c.query('reset work_mem');
  await c.query('reset maintenance_work_mem');
  const { rows } = await c.query(
    `select (select count(*) from time_entries) as entries, (select count(*) from expenses) as expenses,
            (select count(*) from projects) as projects, (select count(*) from projects where is_fixed_fee) as fixed_fee,
            (select count(*) from invoices) as invoices, (select count(*) from invoice_line_items) as lines,
            (select count(*) from rates) as rates, (select count(*) from memberships) as people,
            pg_size_pretty(pg_table_size('time_entries')) as te_size, pg_size_pretty(pg_indexes_size('time_entries')) as te_indexes`,
  );
  console.log(`invoices, vacuum analyze, checkpoint (${secondsSince(t0)}): ${JSON.stringify(rows[0])}`);
}

function stats(times: number[]) {
  const s = [...times].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { median: s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2, p95: at(0.95), min: s[0], max: s[s.length - 1] };
}

try {
  database = await openDatabase({ databaseUrl: url, schema, poolSize: 10 });
  const db = database.db;
  await migrate(db);
  let company: { id: string };
  let ownerId: string;
  if (REUSE) {
    const found = await admin.query<{ company_id: string; user_id: string }>(
      `select m.company_id, m.user_id from ${schema}.memberships m join ${schema}.companies c on c.id = m.company_id
        where c.name = 'Bench Reports' and m.role = 'owner'`,
    );
    if (found.rows.length !== 1) throw new Error(`--schema ${schema}: no bench workspace in it`);
    company = { id: found.rows[0].company_id };
    ownerId = found.rows[0].user_id;
  } else {
    company = await createWorkspace(db, { name: 'Bench Reports' });
    const owner = await createMember(db, operatorPrincipal(company.id), { email: `owner.${schema}@bench.example`, first_name: 'Olive', last_name: 'Owner', role: 'owner' });
    ownerId = owner.user_id;
  }
  const { secret } = await createKey(db, operatorPrincipal(company.id), { userId: ownerId, kind: 'integration' });
  const headers = { authorization: `Bearer ${secret}`, 'service-account-id': company.id };
  const today = new Date().toISOString().slice(0, 10);
  const from = iso(Date.parse(today) - 364 * DAY);

  const tSeed = performance.now();
  if (!REUSE) {
    const seeder = new pg.Client({ connectionString: url, options: connectionOptions(schema) });
    await seeder.connect();
    try {
      await seed(seeder, company.id, ownerId, today);
    } finally {
      await seeder.end();
    }
  } else {
    // Tables a new migration indexed need fresh statistics for the planner.
    const { rows: tables } = await admin.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = $1`, [schema]);
    for (const t of tables) await admin.query(`analyze ${schema}.${t.name}`);
  }
  console.log(`${REUSE ? 'reused' : 'seeded'} in ${secondsSince(tSeed)}`);

  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000000', DATABASE_URL: url }, { dataDir: null, databaseSchema: schema, databasePoolSize: 10 });
  const app = await buildApp({ config, db });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
  const reports = [
    { name: 'uninvoiced', path: `/api/v2/reports/uninvoiced?from=${from}&to=${today}&per_page=2000` },
    { name: 'project_budget', path: '/api/v2/reports/project_budget?per_page=2000' },
  ];
  const figures: string[] = [];
  const measured: Record<string, { median: number; p95: number; cold: number }> = {};
  try {
    for (const report of reports) {
      const once = async () => {
        const start = performance.now();
        const res = await fetch(base + report.path, { headers });
        const body = await res.text();
        const ms = performance.now() - start;
        if (res.status !== 200) throw new Error(`${report.path}: ${res.status} ${body.slice(0, 300)}`);
        return { ms, body };
      };
      // The first run finds the kept totals stale (the workspace's generation moved, as a rate
      // change would) and fills them from every entry before the horizon: its time is printed
      // apart. After the warm-up the totals tables are analyzed, as autovacuum would after a fill.
      await admin.query(`update ${schema}.time_totals_generations set generation = generation + 1`);
      const cold = await once();
      const first = JSON.parse(cold.body) as { results: unknown[]; total_entries: number; total_pages: number };
      for (let i = 1; i < WARMUP; i++) await once();
      for (const t of ['time_totals_generations', 'project_time_totals', 'project_month_time_totals']) await admin.query(`analyze ${schema}.${t}`);
      const before = loadAverages();
      const times: number[] = [];
      const profiler = args.profile ? await startProfile(`.bench/profiles/reports-${report.name}.cpuprofile`, 200) : null;
      for (let i = 0; i < ITERATIONS; i++) times.push((await once()).ms);
      if (profiler) console.log(`profile: ${await profiler.stop()}`);
      const s = stats(times);
      const line =
        `${report.name.padEnd(15)} median ${s.median.toFixed(0)} ms, p95 ${s.p95.toFixed(0)} ms (min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)}; ` +
        `${ITERATIONS} runs; ${first.results.length} results of ${first.total_entries}, ${first.total_pages} page; ` +
        `the first run, filling the kept totals, ${cold.ms.toFixed(0)} ms) — ` +
        `${s.median < AIM_MS ? 'within' : 'MISSES'} the ${AIM_MS} ms aim; loadavg ${before} → ${loadAverages()}`;
      figures.push(line);
      measured[report.name] = { ...s, cold: cold.ms };
      console.log(line);
    }
  } finally {
    await app.close();
  }

  // Plans: capture each report's SQL from the same query functions, then EXPLAIN it in the tenant
  // transaction shape, custom (parameters known) and generic (as a prepared statement may end up).
  const captured: CompiledQuery[] = [];
  const pool = new pg.Pool({ connectionString: url, max: 1, options: connectionOptions(schema), types: pgTypes });
  const capture = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: (e) => {
      if (e.level === 'query') captured.push(e.query);
    },
  });
  const principal = { userId: ownerId, companyId: company.id, role: 'owner' } as unknown as Parameters<typeof reportProjectScope>[0];
  const scope = reportProjectScope(principal);
  const plans: Record<string, CompiledQuery> = {};
  await withTenant(capture, company.id, async (trx) => {
    captured.length = 0;
    await uninvoicedRows(trx, company.id, scope, { from, to: today, includeFixedFee: true, limit: 2000, offset: 0 });
    plans.uninvoiced = captured[captured.length - 1];
    captured.length = 0;
    await projectBudgetRows(trx, company.id, scope, { month: monthOf(today), limit: 2000, offset: 0 });
    plans.project_budget = captured[captured.length - 1];
  });
  await capture.destroy();
  const client = new pg.Client({ connectionString: url, options: connectionOptions(schema) });
  // The planner settings the report routes run with (readReport): the plans and the baseline are theirs.
  const REPORT_SETTINGS = `set local jit = off; set local random_page_cost = ${REPORTS_RANDOM_PAGE_COST}`;
  await client.connect();
  let out = `# bench/reports.ts plans, ${new Date().toISOString()}, schema ${schema}\n# ${ENTRIES} entries, ${EXPENSES} expenses, ${PROJECTS} projects, ${USERS} people, ${YEARS} years\n`;
  out += figures.map((f) => `# ${f}`).join('\n') + '\n';
  try {
    for (const [name, q] of Object.entries(plans)) {
      for (const mode of ['custom', 'generic'] as const) {
        const text = await inTenantTransaction(client, company.id, async () => {
          await client.query(REPORT_SETTINGS);
          if (mode === 'custom') {
            const r = await client.query(`explain (analyze, buffers) ${q.sql}`, q.parameters as unknown[]);
            return r.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
          }
          await client.query(`set local plan_cache_mode = force_generic_plan`);
          await client.query(`prepare bench_report as ${q.sql}`);
          const params = (q.parameters as unknown[]).map((v) => client.escapeLiteral(String(v))).join(', ');
          const r = await client.query(`explain (analyze, buffers) execute bench_report (${params})`);
          await client.query('deallocate bench_report');
          return r.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
        });
        out += `\n## ${name} (${mode} plan; loadavg ${loadAverages()})\n\n${text}\n`;
      }
      out += `\n## ${name} SQL\n\n${q.sql}\n-- parameters: ${JSON.stringify(q.parameters)}\n`;
    }
    // The baseline, in the same run: each report's main statement sent straight through pg in
    // the tenant transaction shape, as many times as the API was asked.
    const sqlMedians: Record<string, number> = {};
    for (const [name, q] of Object.entries(plans)) {
      const times: number[] = [];
      for (let i = 0; i < ITERATIONS; i++) {
        await inTenantTransaction(client, company.id, async () => {
          await client.query(REPORT_SETTINGS);
          const start = performance.now();
          await client.query(q.sql, q.parameters as unknown[]);
          times.push(performance.now() - start);
        });
      }
      sqlMedians[name] = stats(times).median;
      console.log(`${name.padEnd(15)} its main statement through pg: median ${sqlMedians[name].toFixed(0)} ms`);
    }
    recordPerformance(
      Object.entries(measured).map(([name, s]) => ({
        key: name === 'uninvoiced' ? 'reports-uninvoiced' : 'reports-budget',
        path: `GET /api/v2/reports/${name}?per_page=2000 (${ENTRIES.toLocaleString('en')} entries)`,
        figure: `${s.median.toFixed(0)} ms median (p95 ${s.p95.toFixed(0)}); the run that fills the kept totals ${s.cold.toFixed(0)} ms`,
        baseline: `its main statement through pg: ${sqlMedians[name].toFixed(0)} ms`,
        ratio: `${(s.median / sqlMedians[name]).toFixed(2)}×`,
        cpu: 'n/a',
        aim: `median < ${AIM_MS} ms`,
        met: s.median < AIM_MS,
        command: benchCommand('bench:reports'),
      })),
    );
  } finally {
    await client.end();
  }
  mkdirSync(dirname(PLANS), { recursive: true });
  writeFileSync(PLANS, out);
  console.log(`plans written to ${PLANS}`);
  if (KEEP) console.log(`schema kept: ${schema} (reuse it with --schema ${schema})`);
} finally {
  await exit.cleanup();
}
