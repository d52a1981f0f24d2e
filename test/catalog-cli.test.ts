import { rmSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import { loadConfig } from '../src/config.ts';
import type { DB } from '../src/db/types.ts';
import { SharedDatabase } from './cli-runner.ts';
import { insertClient, insertProject } from './fixtures/catalog-rows.ts';
import { DATABASE_URL, dropSchema, migratedDataDir, uniqueSchema } from './helpers.ts';

/**
 * `sheaf admin task|rate|assignment ...` in-process through main(), against a
 * fresh embedded data directory or, with DATABASE_URL, a fresh PostgreSQL
 * schema.
 */

const dataDir = migratedDataDir();
const schema = DATABASE_URL ? uniqueSchema() : undefined;
const env: Record<string, string | undefined> = schema
  ? { DATABASE_URL, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent' }
  : { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
/** The commands and the test share one open database (test/cli-runner.ts): none pays for opening it again. */
const database = new SharedDatabase();

interface Run {
  code: number;
  out: string;
  err: string;
  json: any;
  error: any;
}

const parse = (text: string) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

async function sheaf(...args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env, openDatabase: database.open });
  return { code, out: out.join('\n'), err: err.join('\n'), json: parse(out.join('\n')), error: parse(err.join('\n')) };
}

/** Direct database access between commands, on the database they use. */
async function withDb<T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  return fn((await database.open(loadConfig(env as Record<string, string>))).db);
}

let ws: string;
let otherWs: string;
let project: string;
let project2: string;
let foreignProject: string;
let memberEmail: string;
let managerEmail: string;
let clientEmail: string;
let managerId: string;

beforeAll(async () => {
  ws = (await sheaf('admin', 'workspace', 'create', '--name', 'CLI Co', '--timezone', 'Europe/Berlin', '--json')).json.id;
  otherWs = (await sheaf('admin', 'workspace', 'create', '--name', 'Other Co', '--json')).json.id;
  memberEmail = 'mia@example.com';
  managerEmail = 'max@example.com';
  clientEmail = 'cleo@example.com';
  await sheaf('admin', 'user', 'create', '--workspace', ws, '--email', memberEmail, '--first-name', 'Mia', '--json');
  managerId = (
    await sheaf('admin', 'user', 'create', '--workspace', ws, '--email', managerEmail, '--first-name', 'Max', '--role', 'manager', '--json')
  ).json.id;
  await sheaf('admin', 'user', 'create', '--workspace', ws, '--email', clientEmail, '--first-name', 'Cleo', '--role', 'client', '--json');
  await withDb(async (db) => {
    // A new workspace comes with the default tasks; these tests start from an empty task list.
    await db.deleteFrom('tasks').where('company_id', 'in', [ws, otherWs]).execute();
    const client = await insertClient(db, ws);
    project = await insertProject(db, ws, client, { name: 'Website' });
    project2 = await insertProject(db, ws, client, { name: 'App' });
    foreignProject = await insertProject(db, otherWs, await insertClient(db, otherWs));
  });
}, 120_000);

afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (schema) await dropSchema(schema);
});

describe('sheaf admin task', () => {
  it('creates, updates (by id or name) and lists tasks, with --json and text output', async () => {
    const created = await sheaf('admin', 'task', 'create', '--workspace', ws, '--name', 'Design', '--default-hourly-rate', '95.5', '--is-default', 'true', '--json');
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ name: 'Design', default_hourly_rate: 95.5, is_default: true, is_active: true, billable_by_default: true });
    const text = await sheaf('admin', 'task', 'create', '--workspace', ws, '--name', 'Meetings', '--billable-by-default', 'false');
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/name\s+Meetings/);
    const updated = await sheaf('admin', 'task', 'update', '--workspace', ws, '--task', 'meetings', '--default-hourly-rate', '40', '--json');
    expect(updated.json).toMatchObject({ name: 'Meetings', default_hourly_rate: 40, billable_by_default: false });
    const byId = await sheaf('admin', 'task', 'update', '--workspace', ws, '--task', created.json.id, '--active', 'false', '--json');
    expect(byId.json.is_active).toBe(false);
    await sheaf('admin', 'task', 'update', '--workspace', ws, '--task', 'Design', '--active', 'true', '--json');
    const list = await sheaf('admin', 'task', 'list', '--workspace', ws, '--json');
    expect(list.json.map((t: any) => t.name)).toEqual(['Design', 'Meetings']);
    const listText = await sheaf('admin', 'task', 'list', '--workspace', ws);
    expect(listText.out.split('\n')[0]).toMatch(/^id\s+name\s+billable_by_default/);
    // Money in the workspace currency's minor units (USD: 2), --json keeps the API's numbers.
    expect(listText.out).toMatch(/\bDesign\s+true\s+95\.50\s/);
    expect(listText.out).toMatch(/\bMeetings\s+false\s+40\.00\s/);
    expect((await sheaf('admin', 'task', 'list', '--workspace', ws, '--active', 'false', '--json')).json).toEqual([]);
  });

  it('refuses duplicates (exit 4), bad values (exit 2) and unknown references (exit 3), changing nothing', async () => {
    const dup = await sheaf('admin', 'task', 'create', '--workspace', ws, '--name', 'DESIGN', '--json');
    expect(dup.code).toBe(4);
    expect(dup.error.message).toMatch(/already exists/);
    for (const args of [
      ['--name', 'X', '--default-hourly-rate=-3'],
      ['--name', 'X', '--default-hourly-rate', '1.234'],
      ['--name', 'X', '--default-hourly-rate', 'ten'],
      ['--name', '   '],
      ['--name', 'X', '--is-default', 'maybe'],
      ['--name', 'X', '--colour', 'red'],
    ]) {
      const res = await sheaf('admin', 'task', 'create', '--workspace', ws, ...args, '--json');
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.error.error).toBe('usage');
    }
    const rate = await sheaf('admin', 'task', 'create', '--workspace', ws, '--name', 'X', '--default-hourly-rate=-3');
    expect(rate.err).toMatch(/--default-hourly-rate must be a number of at least 0/);
    expect((await sheaf('admin', 'task', 'update', '--workspace', ws, '--task', 'Design', '--json')).code).toBe(2);
    expect((await sheaf('admin', 'task', 'update', '--workspace', ws, '--task', 'Nope', '--name', 'Y', '--json')).code).toBe(3);
    expect((await sheaf('admin', 'task', 'update', '--workspace', otherWs, '--task', 'Design', '--name', 'Y', '--json')).code).toBe(3);
    expect((await sheaf('admin', 'task', 'list', '--workspace', '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '--json')).code).toBe(3);
    const rename = await sheaf('admin', 'task', 'update', '--workspace', ws, '--task', 'Meetings', '--name', 'design', '--json');
    expect(rename.code).toBe(4);
    expect((await sheaf('admin', 'task', 'list', '--workspace', ws, '--json')).json.map((t: any) => t.name)).toEqual(['Design', 'Meetings']);
  });

  it('assigns tasks to projects with budget, billable and an effective-dated rate; re-assign updates; unassign deactivates', async () => {
    const a = await sheaf('admin', 'task', 'assign', '--workspace', ws, '--project', project, '--task', 'Design', '--budget', '0', '--json');
    expect(a.code).toBe(0);
    // the task's default rate becomes the assignment's rate from today
    expect(a.json).toMatchObject({ project_id: project, budget: 0, billable: true, is_active: true, hourly_rate: 95.5, created: true });
    const b = await sheaf('admin', 'task', 'assign', '--workspace', ws, '--project', project, '--task', 'Meetings', '--billable', 'true', '--rate', '60', '--from', '2024-01-01', '--json');
    expect(b.json).toMatchObject({ billable: true, hourly_rate: 60, hourly_rate_effective_from: '2024-01-01', budget: null });
    const again = await sheaf('admin', 'task', 'assign', '--workspace', ws, '--project', project, '--task', 'Meetings', '--budget', '12.5', '--json');
    expect(again.json).toMatchObject({ budget: 12.5, hourly_rate: 60, created: false });
    const off = await sheaf('admin', 'task', 'unassign', '--workspace', ws, '--project', project, '--task', 'Meetings', '--json');
    expect(off.json).toMatchObject({ is_active: false, budget: 12.5 });
    const list = await sheaf('admin', 'task', 'list', '--workspace', ws, '--project', project, '--json');
    expect(list.json.map((x: any) => [x.task.name, x.is_active])).toEqual([
      ['Design', true],
      ['Meetings', false],
    ]);
    const back = await sheaf('admin', 'task', 'assign', '--workspace', ws, '--project', project, '--task', 'Meetings', '--json');
    expect(back.json.is_active).toBe(true);
    const listText = await sheaf('admin', 'task', 'list', '--workspace', ws, '--project', project);
    expect(listText.out).toMatch(/task_name/);
    expect(listText.out).toMatch(/Meetings/);
  });

  it('assign refuses bad input (exit 2) and unknown or foreign projects and tasks (exit 3)', async () => {
    const base = ['admin', 'task', 'assign', '--workspace', ws, '--json'];
    expect((await sheaf(...base, '--project', project2, '--task', 'Design', '--from', '2024-01-01')).code).toBe(2);
    expect((await sheaf(...base, '--project', project2, '--task', 'Design', '--rate', '5', '--from', '2024-02-30')).code).toBe(2);
    expect((await sheaf(...base, '--project', project2, '--task', 'Design', '--budget=-1')).code).toBe(2);
    expect((await sheaf(...base, '--project', project2, '--task', 'Design', '--billable', 'yes')).code).toBe(2);
    expect((await sheaf(...base, '--project', 'nope', '--task', 'Design')).code).toBe(2);
    const foreign = await sheaf(...base, '--project', foreignProject, '--task', 'Design');
    expect(foreign.code).toBe(3);
    expect(foreign.error.message).toMatch(/project/i);
    expect((await sheaf(...base, '--project', project2, '--task', 'Nope')).code).toBe(3);
    expect((await sheaf('admin', 'task', 'unassign', '--workspace', ws, '--project', project2, '--task', 'Design', '--json')).code).toBe(3);
    await sheaf('admin', 'task', 'create', '--workspace', ws, '--name', 'Retired', '--active', 'false');
    const archived = await sheaf(...base, '--project', project2, '--task', 'Retired');
    expect(archived.code).toBe(2);
    expect(archived.error.message).toMatch(/archived/);
    expect((await sheaf('admin', 'task', 'list', '--workspace', ws, '--project', project2, '--json')).json).toEqual([]);
  });
});

describe('sheaf admin rate', () => {
  it('sets rates of every scope; a rate set on a date never changes an earlier date', async () => {
    const base = ['admin', 'rate', 'set', '--workspace', ws];
    const p1 = await sheaf(...base, '--kind', 'billable', '--project', project, '--rate', '100', '--from', '2024-01-01', '--json');
    expect(p1.code).toBe(0);
    expect(p1.json).toMatchObject({ kind: 'billable', project_id: project, task_id: null, user_id: null, effective_from: '2024-01-01', hourly_rate: 100 });
    await sheaf(...base, '--kind', 'billable', '--project', project, '--rate', '150', '--from', '2024-06-01', '--json');
    const list = ['admin', 'rate', 'list', '--workspace', ws, '--kind', 'billable', '--project', project];
    expect((await sheaf(...list, '--on', '2024-05-31', '--json')).json).toMatchObject({ rate_on: 100, rate_today: 150 });
    expect((await sheaf(...list, '--on', '2023-12-31', '--json')).json.rate_on).toBeNull();
    const history = (await sheaf(...list, '--json')).json.history;
    expect(history.map((h: any) => [h.effective_from, h.hourly_rate])).toEqual([
      ['2024-01-01', 100],
      ['2024-06-01', 150],
    ]);
    const text = await sheaf(...list, '--on', '2024-05-31');
    expect(text.out).toMatch(/^In force on 2024-05-31: 100\.00$/m);
    expect(text.out).toMatch(/^In force today \(\d{4}-\d{2}-\d{2}\): 150\.00$/m);
    expect(text.out).toMatch(/^2024-06-01\s+150\.00\s/m);

    const task = await sheaf(...base, '--kind', 'billable', '--project', project, '--task', 'Meetings', '--rate', '75', '--from', '2024-03-01', '--json');
    expect(task.json).toMatchObject({ task_id: expect.any(String), hourly_rate: 75 });
    const taskList = await sheaf('admin', 'rate', 'list', '--workspace', ws, '--kind', 'billable', '--project', project, '--task', 'Meetings', '--on', '2024-02-29', '--json');
    expect(taskList.json.rate_on).toBe(60);
    const person = await sheaf(...base, '--kind', 'billable', '--project', project, '--user', memberEmail, '--rate', '110', '--json');
    expect(person.code).toBe(0);
    expect(person.json.effective_from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await sheaf(...base, '--kind', 'billable', '--user', memberEmail, '--rate', '90', '--json')).json).toMatchObject({ project_id: null, hourly_rate: 90 });
    const cost = await sheaf(...base, '--kind', 'cost', '--user', managerId, '--rate', '45.25', '--from', '2024-01-01', '--json');
    expect(cost.json).toMatchObject({ kind: 'cost', user_id: managerId, hourly_rate: 45.25 });
    // --rate none removes exactly that date's rate; the earlier one applies again
    await sheaf(...base, '--kind', 'billable', '--project', project, '--rate', 'none', '--from', '2024-06-01', '--json');
    expect((await sheaf(...list, '--on', '2024-07-01', '--json')).json.rate_on).toBe(100);
  });

  it("prints a project's rates in its client's currency (JPY: no minor units), a person's default rate in the workspace's", async () => {
    let yenProject = '';
    await withDb(async (db) => {
      const yen = await insertClient(db, ws, 'Yen client');
      await db.updateTable('clients').set({ currency: 'JPY' }).where('id', '=', yen).execute();
      yenProject = await insertProject(db, ws, yen, { name: 'Tokyo' });
    });
    const set = await sheaf('admin', 'rate', 'set', '--workspace', ws, '--kind', 'billable', '--project', yenProject, '--rate', '1200', '--from', '2024-01-01');
    expect(set.code, set.err).toBe(0);
    expect(set.out).toMatch(/^Rate 1200 from 2024-01-01 on/m);
    expect(set.out).not.toMatch(/1200\.00/);
    const list = await sheaf('admin', 'rate', 'list', '--workspace', ws, '--kind', 'billable', '--project', yenProject);
    expect(list.out).toMatch(/^2024-01-01\s+1200\s/m);
    const person = await sheaf('admin', 'rate', 'set', '--workspace', ws, '--kind', 'billable', '--user', memberEmail, '--rate', '1200', '--from', '2024-01-01');
    expect(person.out).toMatch(/^Rate 1200\.00 from 2024-01-01 on/m);
  });

  it('refuses scopes the rates table does not have, bad values, and unknown ids', async () => {
    const base = ['admin', 'rate', 'set', '--workspace', ws, '--json'];
    for (const args of [
      ['--kind', 'cost', '--project', project, '--user', memberEmail, '--rate', '1'],
      ['--kind', 'cost', '--rate', '1'],
      ['--kind', 'billable', '--task', 'Design', '--rate', '1'],
      ['--kind', 'billable', '--project', project, '--task', 'Design', '--user', memberEmail, '--rate', '1'],
      ['--kind', 'billable', '--rate', '1'],
      ['--kind', 'bonus', '--user', memberEmail, '--rate', '1'],
      ['--kind', 'billable', '--project', project, '--rate=-1'],
      ['--kind', 'billable', '--project', project, '--rate', '1.001'],
      ['--kind', 'billable', '--project', project, '--rate', '1', '--from', '2024-13-01'],
      ['--kind', 'billable', '--project', project],
    ]) {
      const res = await sheaf(...base, ...args);
      expect(res.code, args.join(' ')).toBe(2);
    }
    const before = (await sheaf('admin', 'rate', 'list', '--workspace', ws, '--kind', 'billable', '--project', project, '--json')).json.history;
    expect((await sheaf(...base, '--kind', 'billable', '--project', foreignProject, '--rate', '1')).code).toBe(3);
    expect((await sheaf(...base, '--kind', 'billable', '--project', project2, '--task', 'Design', '--rate', '1')).code).toBe(3);
    expect((await sheaf(...base, '--kind', 'cost', '--user', 'nobody@example.com', '--rate', '1')).code).toBe(3);
    expect((await sheaf(...base, '--kind', 'billable', '--project', project, '--rate', 'none', '--from', '2020-01-01')).code).toBe(3);
    const after = (await sheaf('admin', 'rate', 'list', '--workspace', ws, '--kind', 'billable', '--project', project, '--json')).json.history;
    expect(after).toEqual(before);
  });
});

describe('sheaf admin assignment', () => {
  it('adds, updates, lists and removes project user assignments', async () => {
    const add = await sheaf('admin', 'assignment', 'add', '--workspace', ws, '--project', project, '--user', managerEmail, '--manager', 'true', '--json');
    expect(add.code).toBe(0);
    expect(add.json).toMatchObject({ project_id: project, user_id: managerId, email: managerEmail, is_project_manager: true, is_active: true });
    const member = await sheaf('admin', 'assignment', 'add', '--workspace', ws, '--project', project, '--user', memberEmail, '--json');
    expect(member.json).toMatchObject({ is_project_manager: false, role: 'member' });
    const upd = await sheaf('admin', 'assignment', 'update', '--workspace', ws, '--project', project, '--user', memberEmail, '--active', 'false', '--budget', '0', '--json');
    expect(upd.json).toMatchObject({ is_active: false, budget: 0 });
    const budget = await sheaf('admin', 'assignment', 'update', '--workspace', ws, '--project', project, '--user', managerEmail, '--budget', '12.5', '--json');
    expect(budget.json).toMatchObject({ budget: 12.5, is_project_manager: true });
    expect((await sheaf('admin', 'assignment', 'update', '--workspace', ws, '--project', project, '--user', managerEmail, '--budget', 'none', '--json')).json.budget).toBeNull();
    const list = await sheaf('admin', 'assignment', 'list', '--workspace', ws, '--project', project, '--json');
    expect(list.json.map((a: any) => [a.email, a.is_project_manager, a.is_active])).toEqual([
      [managerEmail, true, true],
      [memberEmail, false, false],
    ]);
    expect((await sheaf('admin', 'assignment', 'list', '--workspace', ws, '--user', managerEmail)).out).toMatch(/Website/);
    const removed = await sheaf('admin', 'assignment', 'remove', '--workspace', ws, '--project', project, '--user', memberEmail, '--json');
    expect(removed.code).toBe(0);
    const rows = await withDb((db) =>
      db.selectFrom('project_user_assignments').select(['user_id', 'is_project_manager']).where('company_id', '=', ws).where('project_id', '=', project).execute(),
    );
    expect(rows).toEqual([{ user_id: managerId, is_project_manager: true }]);
  });

  it('refuses duplicates (4), a manager flag on a non-manager or a client membership (2), unknown ones (3)', async () => {
    const add = ['admin', 'assignment', 'add', '--workspace', ws, '--json'];
    expect((await sheaf(...add, '--project', project, '--user', managerEmail)).code).toBe(4);
    const flag = await sheaf(...add, '--project', project2, '--user', memberEmail, '--manager', 'true');
    expect(flag.code).toBe(2);
    expect(flag.error.message).toMatch(/manager role/);
    expect((await sheaf(...add, '--project', project2, '--user', clientEmail)).code).toBe(2);
    expect((await sheaf(...add, '--project', project2, '--user', memberEmail, '--active', 'perhaps')).code).toBe(2);
    const budget = await sheaf(...add, '--project', project2, '--user', memberEmail, '--budget', '1.005');
    expect(budget.code).toBe(2);
    expect(budget.error.message).toMatch(/^--budget takes at most 2 decimal places/);
    expect((await sheaf(...add, '--project', foreignProject, '--user', memberEmail)).code).toBe(3);
    expect((await sheaf(...add, '--project', project2, '--user', 'ghost@example.com')).code).toBe(3);
    expect((await sheaf('admin', 'assignment', 'update', '--workspace', ws, '--project', project2, '--user', memberEmail, '--json')).code).toBe(2);
    expect((await sheaf('admin', 'assignment', 'update', '--workspace', ws, '--project', project2, '--user', memberEmail, '--active', 'true', '--json')).code).toBe(3);
    expect((await sheaf('admin', 'assignment', 'remove', '--workspace', ws, '--project', project2, '--user', memberEmail, '--json')).code).toBe(3);
    const rows = await withDb((db) =>
      db.selectFrom('project_user_assignments').select('user_id').where('company_id', '=', ws).where('project_id', '=', project2).execute(),
    );
    expect(rows).toEqual([]);
  });

  it('shows the commands in help', async () => {
    const help = await sheaf('help', 'admin', 'rate', 'set');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/--kind billable\|cost/);
  });
});
