/**
 * The data set of the browser benchmarks (bench/web-week.ts, bench/web-home.ts), set-based
 * inserts of a few seconds: one workspace ("Bench week") with an owner and a member,
 * PROJECTS projects (40 clients, 12 tasks; TASKS_PER_PROJECT tasks each) the member is
 * assigned to, and the member's year of time: DAYS working days × PER_DAY entries over
 * ROWS project-task rows going back from the Friday before this week, skipping the heavy
 * and the empty week; the heavy week has HEAVY_ROWS rows × 7 days, one entry a cell.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Insertable, type Kysely } from 'kysely';
import { migrate } from '../src/db/migrate.ts';
import type { DB } from '../src/db/types.ts';
import { newId } from '../src/ids.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { operatorPrincipal } from '../src/access/operator.ts';

const TASKS = 12;
const CLIENTS = 40;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const addDays = (date: string, days: number) => iso(Date.parse(`${date}T00:00:00Z`) + days * DAY);

/** Monday of this week (UTC, the workspace's default zone and week start). */
export const mondayOf = (now: number) => {
  const d = new Date(Math.floor(now / DAY) * DAY);
  return iso(d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY);
};

export interface WeekDataOptions {
  projects: number;
  tasksPerProject: number;
  days: number;
  perDay: number;
  rows: number;
  heavyRows: number;
  /** Monday of this week, and of the heavy and the empty week. */
  thisMonday: string;
  heavy: string;
  empty: string;
}

export async function seedWeekData(db: Kysely<DB>, o: WeekDataOptions) {
  const { projects: PROJECTS, tasksPerProject: TASKS_PER_PROJECT, days: DAYS, perDay: PER_DAY, rows: ROWS, heavyRows: HEAVY_ROWS, thisMonday, heavy: HEAVY, empty: EMPTY } = o;
  const insertChunks = async <T extends keyof DB>(table: T, rows: Insertable<DB[T]>[]) => {
    for (let i = 0; i < rows.length; i += 500) await db.insertInto(table).values(rows.slice(i, i + 500) as never).execute();
  };
  await migrate(db);
  const company = await createWorkspace(db, { name: 'Bench week' });
  const tag = randomBytes(3).toString('hex');
  const owner = await createMember(db, operatorPrincipal(company.id), { email: `owner.${tag}@example.com`, first_name: 'Olive', last_name: 'Owner', role: 'owner' });
  const member = await createMember(db, operatorPrincipal(company.id), { email: `mia.${tag}@example.com`, first_name: 'Mia', last_name: 'Member', role: 'member' });
  const c = company.id;
  const clients = Array.from({ length: CLIENTS }, (_, i) => ({ company_id: c, id: newId(), name: `Client ${String(i).padStart(2, '0')}` }));
  await insertChunks('clients', clients);
  const tasks = Array.from({ length: TASKS }, (_, i) => ({ company_id: c, id: newId(), name: `Task ${String(i).padStart(2, '0')}` }));
  await insertChunks('tasks', tasks);
  const projects = Array.from({ length: PROJECTS }, (_, i) => ({
    company_id: c,
    id: newId(),
    client_id: clients[i % CLIENTS].id,
    name: `Project ${String(i).padStart(4, '0')}`,
    code: `P${i}`,
  }));
  await insertChunks('projects', projects);
  const pairs = projects.flatMap((p, i) => Array.from({ length: TASKS_PER_PROJECT }, (_, j) => ({ project_id: p.id, task_id: tasks[(i + j * 5) % TASKS].id })));
  await insertChunks(
    'project_task_assignments',
    pairs.map((x) => ({ company_id: c, ...x })),
  );
  await insertChunks(
    'project_user_assignments',
    projects.map((p) => ({ company_id: c, project_id: p.id, user_id: member.user_id })),
  );

  // The year: working days going back from the week before this one, skipping the
  // heavy and the empty week; each day PER_DAY entries on rows cycling over ROWS pairs.
  const entries: Insertable<DB['time_entries']>[] = [];
  const entry = (pair: { project_id: string; task_id: string }, date: string, seconds: number) =>
    entries.push({
      company_id: c,
      id: newId(),
      user_id: member.user_id,
      project_id: pair.project_id,
      task_id: pair.task_id,
      spent_date: date,
      duration_seconds: seconds,
      hours_entered: null,
      notes: `Work on ${date}`,
      billable: true,
      billable_rate: null,
      source: 'web',
      created_by: member.user_id,
    } as Insertable<DB['time_entries']>);
  if (pairs.length < Math.max(ROWS, HEAVY_ROWS)) throw new Error(`--projects × --tasks-per-project must give at least ${Math.max(ROWS, HEAVY_ROWS)} project-task pairs`);
  const yearRows = pairs.slice(0, ROWS);
  let day = addDays(thisMonday, -3); // the Friday before this week
  let n = 0;
  for (let worked = 0; worked < DAYS; day = addDays(day, -1)) {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    const monday = addDays(day, -((weekday + 6) % 7));
    if (weekday === 0 || weekday === 6 || monday === HEAVY || monday === EMPTY) continue;
    for (let k = 0; k < PER_DAY; k++) entry(yearRows[n++ % ROWS], day, 3600);
    worked++;
  }
  // The heavy week: HEAVY_ROWS rows, every day of the week (weekend too), one entry a cell.
  const heavyRows = Array.from({ length: HEAVY_ROWS }, (_, r) => pairs[(ROWS + r) % pairs.length]);
  for (const [r, pair] of heavyRows.entries()) for (let d = 0; d < 7; d++) entry(pair, addDays(HEAVY, d), 900 * (1 + ((r + d) % 8)));
  await insertChunks('time_entries', entries);
  // The grid's body rows of each week: its distinct project-task pairs (none: the one "No time" row).
  const pairsOfWeek = new Map<string, Set<string>>();
  for (const e of entries) {
    const weekday = new Date(`${e.spent_date}T00:00:00Z`).getUTCDay();
    const monday = addDays(e.spent_date as string, -((weekday + 6) % 7));
    pairsOfWeek.set(monday, (pairsOfWeek.get(monday) ?? new Set()).add(`${e.project_id} ${e.task_id}`));
  }
  const weekRows = (week: string) => Math.max(1, pairsOfWeek.get(week)?.size ?? 0);
  await sql`analyze`.execute(db);
  return { companyId: c, ownerId: owner.user_id, memberId: member.user_id, projects, pairs, entries: entries.length, choices: pairs.length, heavyEntries: heavyRows.length * 7, weekRows };
}
