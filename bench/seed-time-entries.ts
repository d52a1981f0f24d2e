/**
 * Seeds one workspace with a realistic time-tracking history, set-based, for
 * bench/time-entries.ts: members (a few managers with teammates, one
 * contractor), clients, projects (billed by project, by task, by person, or not
 * billable; some archived; some with budgets), tasks, task and person
 * assignments, effective-dated billable rates, and then N time entries spread
 * over the weekdays of the last few years in one INSERT ... SELECT over
 * generate_series.
 *
 * The entries follow the assignments (a person's entries are on projects they
 * are assigned to, with tasks assigned to the project), carry the historical
 * billable rate that billable_rate() gives for their date, and age the way real
 * ones do: everything before the last OPEN_WEEKS weeks is approved, approved
 * billable work older than six months more is billed, a share have start and
 * end times instead of hours, notes, an external reference, and come from the
 * different sources. created_at is the evening of the work day, ids are UUIDv7
 * of created_at (as newId makes them), and rows go in in created_at order. The
 * rate is looked up as billable_rate() does, inline: calling that SQL function a
 * million times would take most of the seed's time.
 *
 * Speed: the secondary indexes of time_entries are dropped before the insert and
 * rebuilt after it from their own definitions (pg_get_indexdef), the foreign-key
 * triggers are skipped for the insert (session_replication_role = replica; the
 * rows are consistent by construction, and it needs a superuser), then the table
 * is vacuumed and analysed and a checkpoint taken, so the measurement that
 * follows starts from a settled table. 1,000,000 entries take about a minute.
 *
 * The caller owns the schema; this only fills it (the workspace and its owner
 * must exist, made by bench/servers.ts).
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { newId } from '../src/ids.ts';

export interface SeedOptions {
  entries: number;
  /** Members besides the owner. */
  users: number;
  projects: number;
  years: number;
}

/** A person, a project and a task a create may name: active member, assignment, project, task and task assignment. */
export interface Combo {
  user_id: string;
  project_id: string;
  task_id: string;
}

export interface SeedResult {
  entries: number;
  members: number;
  projects: number;
  tasks: number;
  userAssignments: number;
  /** Weekdays from firstDate to lastDate (YYYY-MM-DD) hold the seeded entries. */
  firstDate: string;
  lastDate: string;
  /** Monday of the first open (unapproved) week; entries before it are approved. */
  openFrom: string;
  openWeeks: number;
  combos: Combo[];
  seconds: { catalog: number; insert: number; indexes: number; vacuum: number; total: number };
  sizes: { tableMiB: number; indexesMiB: number };
}

/** The last weeks before the current one that are not approved (creates go there). */
export const OPEN_WEEKS = 8;
const TASKS = 24;
const TASKS_PER_PROJECT = 6;
const PROJECTS_PER_USER = 8;
const CLIENTS = 20;

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Monday (UTC) of the week of `ms`. */
const mondayOf = (ms: number) => {
  const d = new Date(Math.floor(ms / DAY) * DAY);
  return d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY;
};

async function insertRows(client: pg.Client, table: string, rows: Record<string, unknown>[]) {
  if (rows.length === 0) return;
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))].join(', ');
  await client.query(`insert into ${table} (${cols}) select ${cols} from json_populate_recordset(null::${table}, $1::json)`, [
    JSON.stringify(rows),
  ]);
}

/**
 * Fills the workspace `companyId` through `client`, a superuser
 * connection whose search_path is the benchmark's schema.
 */
export async function seedTimeEntries(
  client: pg.Client,
  companyId: string,
  options: SeedOptions,
  log: (line: string) => void = () => {},
): Promise<SeedResult> {
  const t0 = performance.now();
  const c = companyId;
  const weeks = Math.max(OPEN_WEEKS + 1, Math.round(options.years * 52.18));
  const thisMonday = mondayOf(Date.now());
  const start = thisMonday - weeks * 7 * DAY;
  const openFrom = thisMonday - OPEN_WEEKS * 7 * DAY;
  const billedBefore = openFrom - 26 * 7 * DAY;
  const tag = c.slice(-12);

  // ---- catalogue: members, teams, clients, projects, tasks, assignments, rates
  await client.query('begin');
  const members = Array.from({ length: options.users }, (_, i) => ({
    id: newId(),
    role: i < Math.max(1, Math.round(options.users / 10)) ? 'manager' : 'member',
    is_contractor: i === options.users - 1,
    i,
  }));
  await insertRows(
    client,
    'users',
    members.map((m) => ({ id: m.id, email: `person${m.i}.${tag}@bench.example`, first_name: `Person${m.i}`, last_name: 'Bench' })),
  );
  await insertRows(
    client,
    'memberships',
    members.map((m) => ({ company_id: c, user_id: m.id, role: m.role, is_contractor: m.is_contractor, expected_weekly_hours: 40 })),
  );
  const managers = members.filter((m) => m.role === 'manager');
  const staff = members.filter((m) => m.role === 'member');
  await insertRows(
    client,
    'teammate_assignments',
    staff.map((m, i) => ({ company_id: c, manager_id: managers[i % managers.length].id, teammate_id: m.id })),
  );
  const clients = Array.from({ length: CLIENTS }, (_, i) => ({ company_id: c, id: newId(), name: `Client ${i}` }));
  await insertRows(client, 'clients', clients);
  const tasks = Array.from({ length: TASKS }, (_, i) => ({
    company_id: c,
    id: newId(),
    name: `Task ${String(i).padStart(2, '0')}`,
    billable_by_default: i % 6 !== 5,
  }));
  await insertRows(client, 'tasks', tasks);
  const billBy = ['project', 'project', 'project', 'project', 'project', 'tasks', 'tasks', 'tasks', 'people', 'none'];
  const budgetBy = ['none', 'none', 'project', 'task', 'person', 'none'];
  const projects = Array.from({ length: options.projects }, (_, i) => ({
    company_id: c,
    id: newId(),
    client_id: clients[i % CLIENTS].id,
    name: `Project ${String(i).padStart(4, '0')}`,
    code: `P${i}`,
    is_active: i % 10 !== 9,
    is_billable: billBy[i % billBy.length] !== 'none',
    bill_by: billBy[i % billBy.length],
    budget_by: budgetBy[i % budgetBy.length],
    budget: budgetBy[i % budgetBy.length] === 'none' ? null : 500,
  }));
  await insertRows(client, 'projects', projects);
  const taskAssignments = projects.flatMap((p, i) =>
    Array.from({ length: TASKS_PER_PROJECT }, (_, j) => {
      const task = tasks[(i + j * 4) % TASKS];
      return { company_id: c, project_id: p.id, task_id: task.id, billable: task.billable_by_default };
    }),
  );
  await insertRows(client, 'project_task_assignments', taskAssignments);
  const perUser = Math.min(PROJECTS_PER_USER, options.projects);
  const step = Math.max(1, Math.floor(options.projects / perUser));
  const userAssignments = members.flatMap((m, u) =>
    Array.from({ length: perUser }, (_, k) => ({
      company_id: c,
      project_id: projects[(u * 3 + k * step) % options.projects].id,
      user_id: m.id,
      is_project_manager: m.role === 'manager' && k < 3,
    })),
  );
  await insertRows(client, 'project_user_assignments', userAssignments);
  const rateDates = [iso(start - 7 * DAY), iso(start + Math.floor(weeks / 2) * 7 * DAY)];
  const rates: Record<string, unknown>[] = [];
  for (const [i, p] of projects.entries()) {
    for (const [r, from] of rateDates.entries()) {
      const rate = 80 + (i % 7) * 10 + r * 10;
      if (p.bill_by === 'project') rates.push({ company_id: c, id: newId(), kind: 'billable', project_id: p.id, effective_from: from, hourly_rate: rate });
      if (p.bill_by === 'tasks') {
        for (const a of taskAssignments.filter((a) => a.project_id === p.id)) {
          rates.push({ company_id: c, id: newId(), kind: 'billable', project_id: p.id, task_id: a.task_id, effective_from: from, hourly_rate: rate + 5 });
        }
      }
    }
  }
  for (const [i, m] of members.entries()) {
    rates.push({ company_id: c, id: newId(), kind: 'billable', user_id: m.id, effective_from: rateDates[0], hourly_rate: 90 + (i % 5) * 10 });
    rates.push({ company_id: c, id: newId(), kind: 'cost', user_id: m.id, effective_from: rateDates[0], hourly_rate: 40 + (i % 5) * 5 });
  }
  await insertRows(client, 'rates', rates);
  await client.query('commit');
  const tCatalog = performance.now();
  log(`catalogue: ${members.length} members, ${projects.length} projects, ${tasks.length} tasks, ${userAssignments.length} person assignments (${((tCatalog - t0) / 1000).toFixed(1)} s)`);

  // ---- entries
  const { rows: indexes } = await client.query<{ name: string; def: string }>(
    `select c.relname as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = 'time_entries'::regclass
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
  );
  await client.query(`set work_mem = '256MB'`);
  await client.query(`set maintenance_work_mem = '512MB'`);
  await client.query('begin');
  for (const index of indexes) await client.query(`drop index ${index.name}`);
  await client.query('set local session_replication_role = replica');
  await client.query('select setseed(0.4242)');
  // Each generated row picks a person assignment (k), one of its project's tasks (j),
  // a weekday (w, d) and its shape (r1..r4) at random.
  await client.query(
    `insert into time_entries (company_id, id, user_id, project_id, task_id, spent_date, duration_seconds, hours_entered,
       started_time, ended_time, notes, billable, billable_rate, source, external_reference, approval_status, is_billed,
       created_by, created_at, updated_at)
     with ua as (
       select row_number() over (order by project_id, user_id) as k, user_id, project_id
         from project_user_assignments where company_id = $1
     ), pt as (
       select project_id, row_number() over (partition by project_id order by task_id) as j, task_id, billable
         from project_task_assignments where company_id = $1
     ), n as (select count(*)::int as c from ua),
     g as materialized (
       select g,
              1 + floor(random() * (select c from n))::int as k,
              1 + floor(random() * ${TASKS_PER_PROJECT})::int as j,
              floor(random() * $3::int)::int as w,
              floor(random() * 5)::int as d,
              900 * (1 + floor(random() * 32)::int) as dur,
              random() as r1, random() as r2, random() as r3,
              7 * 60 + floor(random() * 300)::int as start_min,
              floor(random() * 240)::int as evening_min
         from generate_series(1, $4::int) as g
     ), x as (
       select g.*, ua.user_id, ua.project_id, pt.task_id, (pt.billable and p.is_billable) as billable, p.bill_by,
              ($2::date + (g.w * 7 + g.d)) as spent_date,
              ($2::date + (g.w * 7 + g.d)) + time '17:00' + make_interval(mins => g.evening_min, secs => g.g % 60) as created_at
         from g
         join ua on ua.k = g.k
         join pt on pt.project_id = ua.project_id and pt.j = g.j
         join projects p on p.company_id = $1 and p.id = ua.project_id
     )
     select $1,
            (lpad(to_hex((extract(epoch from x.created_at) * 1000)::bigint), 12, '0') || '7' || substr(md5(x.g::text), 1, 3)
              || substr('89ab', 1 + x.g % 4, 1) || substr(md5(x.g::text), 4, 15))::uuid,
            x.user_id, x.project_id, x.task_id, x.spent_date, x.dur,
            case when x.r1 < 0.7 then round(x.dur / 3600.0, 6) end,
            case when x.r1 >= 0.7 then lpad((x.start_min / 60)::text, 2, '0') || ':' || lpad((x.start_min % 60)::text, 2, '0') end,
            case when x.r1 >= 0.7 then lpad(((x.start_min + x.dur / 60) / 60)::text, 2, '0') || ':' || lpad(((x.start_min + x.dur / 60) % 60)::text, 2, '0') end,
            case when x.r2 < 0.8 then (array['Implementation', 'Code review', 'Meeting with the client', 'Design', 'Support',
                                             'Planning', 'Testing', 'Documentation'])[1 + x.g % 8] || ': ticket ' || (x.g % 5000) end,
            x.billable,
            case when x.billable then
              case x.bill_by
                when 'project' then (select r.hourly_rate from rates r
                                      where r.company_id = $1 and r.kind = 'billable' and r.project_id = x.project_id
                                        and r.task_id is null and r.user_id is null and r.effective_from <= x.spent_date
                                      order by r.effective_from desc limit 1)
                when 'tasks' then (select r.hourly_rate from rates r
                                    where r.company_id = $1 and r.kind = 'billable' and r.project_id = x.project_id
                                      and r.task_id = x.task_id and r.user_id is null and r.effective_from <= x.spent_date
                                    order by r.effective_from desc limit 1)
                when 'people' then (select r.hourly_rate from rates r
                                     where r.company_id = $1 and r.kind = 'billable'
                                       and (r.project_id = x.project_id or r.project_id is null) and r.task_id is null
                                       and r.user_id = x.user_id and r.effective_from <= x.spent_date
                                     order by r.project_id nulls last, r.effective_from desc limit 1)
              end
            end,
            case when x.r3 < 0.5 then 'web' when x.r3 < 0.65 then 'desktop' when x.r3 < 0.75 then 'cli'
                 when x.r3 < 0.85 then 'api' when x.r3 < 0.9 then 'agent' else 'calendar' end,
            case when x.r2 >= 0.95 then jsonb_build_object('id', 'PRJ-' || x.g, 'service', 'tracker.example.com',
                                                           'permalink', 'https://tracker.example.com/PRJ-' || x.g) end,
            case when x.spent_date < $5::date then 'approved' else 'unsubmitted' end,
            x.spent_date < $5::date and x.billable and x.spent_date < $6::date,
            x.user_id, x.created_at,
            x.created_at + case when x.spent_date < $5::date then interval '10 days' else interval '0' end
       from x
      order by x.created_at`,
    [c, iso(start), weeks, options.entries, iso(openFrom), iso(billedBefore)],
  );
  await client.query('commit');
  const tInsert = performance.now();
  log(`entries: ${options.entries} inserted (${((tInsert - tCatalog) / 1000).toFixed(1)} s)`);
  for (const index of indexes) await client.query(index.def);
  const tIndexes = performance.now();
  log(`indexes: ${indexes.length} rebuilt (${((tIndexes - tInsert) / 1000).toFixed(1)} s)`);
  await client.query('vacuum (analyze) time_entries');
  await client.query('analyze');
  await client.query('checkpoint');
  await client.query('reset work_mem');
  await client.query('reset maintenance_work_mem');
  const tVacuum = performance.now();
  log(`vacuum, analyze, checkpoint (${((tVacuum - tIndexes) / 1000).toFixed(1)} s)`);

  const { rows: counts } = await client.query<{ n: number; first: string; last: string }>(
    `select count(*)::int as n, min(spent_date)::text as first, max(spent_date)::text as last from time_entries where company_id = $1`,
    [c],
  );
  const { rows: sizes } = await client.query<{ table: string; indexes: string }>(
    `select pg_table_size('time_entries') as table, pg_indexes_size('time_entries') as indexes`,
  );
  const { rows: combos } = await client.query<Combo>(
    `select ua.user_id, ua.project_id, pta.task_id
       from project_user_assignments ua
       join memberships m on m.company_id = ua.company_id and m.user_id = ua.user_id and m.is_active
       join projects p on p.company_id = ua.company_id and p.id = ua.project_id and p.is_active
       join project_task_assignments pta on pta.company_id = ua.company_id and pta.project_id = ua.project_id and pta.is_active
       join tasks t on t.company_id = pta.company_id and t.id = pta.task_id and t.is_active
      where ua.company_id = $1 and ua.is_active
      order by 1, 2, 3`,
    [c],
  );
  const mib = (bytes: string) => Math.round(Number(bytes) / 2 ** 20);
  return {
    entries: counts[0].n,
    members: members.length,
    projects: projects.length,
    tasks: tasks.length,
    userAssignments: userAssignments.length,
    firstDate: counts[0].first,
    lastDate: counts[0].last,
    openFrom: iso(openFrom),
    openWeeks: OPEN_WEEKS,
    combos,
    seconds: {
      catalog: (tCatalog - t0) / 1000,
      insert: (tInsert - tCatalog) / 1000,
      indexes: (tIndexes - tInsert) / 1000,
      vacuum: (tVacuum - tIndexes) / 1000,
      total: (tVacuum - t0) / 1000,
    },
    sizes: { tableMiB: mib(sizes[0].table), indexesMiB: mib(sizes[0].indexes) },
  };
}
