import { spawn, type ChildProcess, execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportClientError } from '../src/cli/client/command.ts';
import { completionScript } from '../src/cli/client/completion.ts';
import { dateIn, dateRange, rangeOn, reportRangeOn, type Calendar, type WeekStart } from '../src/cli/client/dates.ts';
import { ApiRefusal } from '../src/cli/client/http.ts';
import { clientCommands } from '../src/cli/client/index.ts';
import { pick } from '../src/cli/client/lookups.ts';
import { timeCommands } from '../src/cli/client/time.ts';
import { timerCommands } from '../src/cli/client/timer.ts';
import { COMMANDS } from '../src/cli/main.ts';
import { openDatabase } from '../src/db/database.ts';
import { provisionWorkspace } from '../src/provisioning.ts';
import { listeningUrl, ROOT, runCli, SHEAF_BIN, spawnCli, tryParse, type CliEnv } from './cli-runner.ts';
import { addMember, DATABASE_URL, dropSchema, migratedDataDir, onPostgres, uniqueSchema, type Caller } from './helpers.ts';

/**
 * The person commands (src/cli/client/) end to end: one real `sheaf serve`
 * child process for the file, the commands run in-process through main()
 * (fast) and, where it matters, as the installed binary (the light start,
 * stdin, stdout as a file). Every command in both output modes, the exit
 * codes, profiles (0600, the key never printed, the environment over the
 * profile), source cli on what is created, and what a bad URL or key says.
 */

let server: ChildProcess;
let url: string;
let owner: Caller;
let member: Caller;
let workspaceId: string;
/** The owner of a workspace in Kiritimati whose weeks start on Sunday, and a personal sync key there. */
let far: Caller;
let farSync: Caller;
let farId: string;
const home = mkdtempSync(join(tmpdir(), 'sheaf-cli-client-home-'));
const work = mkdtempSync(join(tmpdir(), 'sheaf-cli-client-files-'));
let dataDir: string | undefined;
let schema: string | undefined;
const ids: Record<string, string> = {};

/**
 * The person's clock: the workspace's zone (Europe/Berlin, below). The CLI's "today" is the
 * workspace's date (src/cli/client/calendar.ts); the far workspace's (Kiritimati, UTC+14, weeks
 * from Sunday) differs from this machine's for most of each day.
 */
const PERSON_TZ = 'Europe/Berlin';

/** The environment of a command: no profile file of the real user, the key given (or none). */
function envWith(extra: CliEnv = {}): CliEnv {
  return { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), TZ: PERSON_TZ, ...extra };
}
const asOwner = () => envWith({ SHEAF_URL: url, SHEAF_API_KEY: owner.key, SHEAF_WORKSPACE_ID: workspaceId });
const asMember = () => envWith({ SHEAF_URL: url, SHEAF_API_KEY: member.key, SHEAF_WORKSPACE_ID: workspaceId });
const sheaf = (env: CliEnv, ...args: string[]) => runCli(args, { env });

async function api(caller: Caller, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...caller.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return tryParse(text);
}

/** `node bin/sheaf.js args` with `stdin` piped in. */
function spawnWithStdin(args: string[], env: CliEnv, stdin: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(process.execPath, [...SHEAF_BIN, ...args], { cwd: ROOT, env, timeout: 60_000 }, (err, stdout, stderr) =>
      done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
    child.stdin!.end(stdin);
  });
}

// In-process commands read the clock of this test process; the file's process is shared with
// other test files (vitest.config.ts: isolate false), so the zone is put back after.
const machineTz = process.env.TZ;

beforeAll(async () => {
  process.env.TZ = PERSON_TZ;
  // The workspace and its people are made on the database before the server opens it (the embedded one is one process at a time).
  dataDir = onPostgres ? undefined : migratedDataDir();
  schema = onPostgres ? uniqueSchema() : undefined;
  const database = await openDatabase({ databaseUrl: DATABASE_URL, dataDir: dataDir ? dataDir : null, schema, poolSize: 2 });
  try {
    if (schema) await (await import('../src/db/migrate.ts')).migrate(database.db);
    const company = await provisionWorkspace(database.db, { name: 'Acme', currency: 'EUR', timezone: PERSON_TZ, approvals_enabled: true, invoice_before_approval: true });
    workspaceId = company.id;
    owner = await addMember(database.db, company.id, { role: 'owner', firstName: 'Olive', lastName: 'Owner' });
    member = await addMember(database.db, company.id, { role: 'member', firstName: 'Mia', lastName: 'Member' });
    const farCompany = await provisionWorkspace(database.db, { name: 'Atoll', currency: 'EUR', timezone: 'Pacific/Kiritimati', week_start: 'sunday', approvals_enabled: true });
    farId = farCompany.id;
    far = await addMember(database.db, farId, { role: 'owner', firstName: 'Fai', lastName: 'Far' });
    farSync = await addMember(database.db, farId, { role: 'member', keyKind: 'personal' });
  } finally {
    await database.close();
  }
  const env: CliEnv = { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'error', WEB_DIST: 'off', RATE_LIMIT_MAX: '100000' };
  if (dataDir) env.DATA_DIR = dataDir;
  else Object.assign(env, { DATABASE_URL, DATABASE_SCHEMA: schema });
  server = spawn(process.execPath, [...SHEAF_BIN, 'serve', '--port', '0', '--json'], { cwd: ROOT, env });
  const exited = new Promise<void>((r) => server.on('exit', () => r()));
  url = await listeningUrl(server, exited);

  // A client with two projects: Website (the default tasks, billable at 100/h, a budget of 40 h) and Support (one task).
  const client = await api(owner, 'POST', '/api/v2/clients', { name: 'Globex', currency: 'EUR' });
  ids.client = client.id;
  const website = await api(owner, 'POST', '/api/v2/projects', {
    client_id: client.id, name: 'Website', code: 'WEB', is_billable: true, bill_by: 'project', hourly_rate: 100, budget_by: 'project', budget: 40,
  });
  ids.website = website.id;
  const tasks = await api(owner, 'GET', `/api/v2/tasks?project_id=${website.id}`);
  ids.design = tasks.tasks.find((t: { name: string }) => t.name === 'Design').id;
  const support = await api(owner, 'POST', '/api/v2/projects', { client_id: client.id, name: 'Support', code: 'SUP', task_ids: [ids.design], budget_by: 'project_cost', budget: 500 });
  ids.support = support.id;
  for (const project of [website.id, support.id]) await api(owner, 'POST', `/api/v2/projects/${project}/user_assignments`, { user_id: member.userId });
}, 120_000);

afterAll(async () => {
  if (machineTz === undefined) delete process.env.TZ;
  else process.env.TZ = machineTz;
  server?.kill('SIGTERM');
  await new Promise((r) => (server?.exitCode !== null ? r(undefined) : server.on('exit', r)));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (schema) await dropSchema(schema);
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('timer', () => {
  it('start, status, a second start refused (exit 4), restart and stop; what it starts has source cli', async () => {
    const env = asMember();
    const started = await sheaf(env, 'timer', 'start', '--project', 'web', '--task', 'design', '--notes', 'Homepage', '--json');
    expect(started.code, started.stderr).toBe(0);
    expect(started.json).toMatchObject({ project_id: ids.website, task_id: ids.design, is_running: true, source: 'cli', notes: 'Homepage', user_id: member.userId });

    const status = await sheaf(env, 'timer', 'status');
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^project +task +since +hours +notes +id$/m);
    expect(status.stdout).toMatch(new RegExp(`^Website +Design +\\d\\d:\\d\\d +[\\d.]+ +Homepage +${started.json.id}$`, 'm'));
    expect((await sheaf(env, 'timer', 'status', '--json')).json).toMatchObject({ id: started.json.id, is_running: true });

    const again = await sheaf(env, 'timer', 'start', '--project', 'Support');
    expect(again.code).toBe(4);
    expect(again.stderr).toContain('sheaf timer stop');
    expect(again.stderr).toContain('--replace');
    const againJson = await sheaf(env, 'timer', 'start', '--project', 'Support', '--json');
    expect(againJson.error).toMatchObject({ error: 'running_timer_conflict', status: 409 });

    // --replace stops the running one; Support has one task, so --task may be left out.
    const replaced = await sheaf(env, 'timer', 'start', '--project', 'SUP', '--replace', '--json');
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.json).toMatchObject({ project_id: ids.support, task_id: ids.design, is_running: true, source: 'cli' });

    const stopped = await sheaf(env, 'timer', 'stop', '--notes', 'Tickets');
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toMatch(/^Stopped: Support \/ Design: [\d.]+ h on \d{4}-\d\d-\d\d/);
    expect(stopped.stdout).toContain('Tickets');

    const none = await sheaf(env, 'timer', 'status', '--json');
    expect(none.code).toBe(0);
    expect(none.json).toBeNull();
    expect((await sheaf(env, 'timer', 'status')).stdout.trim()).toBe('No timer is running.');
    const stopNone = await sheaf(env, 'timer', 'stop');
    expect(stopNone.code).toBe(3);
    expect(stopNone.stderr).toBe('sheaf: No timer is running.\n');

    // restart without an id: the latest stopped entry (the Support one)
    const restarted = await sheaf(env, 'timer', 'restart', '--json');
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(restarted.json).toMatchObject({ id: replaced.json.id, is_running: true });
    const stoppedJson = await sheaf(env, 'timer', 'stop', '--json');
    expect(stoppedJson.json).toMatchObject({ id: replaced.json.id, is_running: false, source: 'cli' });

    // The entries as the API has them: both from the CLI.
    const listed = await api(member, 'GET', `/api/v2/time_entries?user_id=${member.userId}`);
    const mine = listed.time_entries.filter((e: { id: string }) => [started.json.id, replaced.json.id].includes(e.id));
    expect(mine.map((e: { source: string; is_running: boolean }) => [e.source, e.is_running])).toEqual([
      ['cli', false],
      ['cli', false],
    ]);
  });
  it('restart without an id takes your latest stopped entry up to today, not one logged ahead; a conflict names the running timer', async () => {
    const env = asMember();
    const timer = await sheaf(env, 'timer', 'start', '--project', 'SUP', '--notes', 'Triage', '--json');
    expect(timer.code, timer.stderr).toBe(0);
    expect((await sheaf(env, 'timer', 'stop')).code).toBe(0);
    // An entry logged ahead, after the stop: the newest by date and by change, but no timer can run on it.
    const ahead = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const future = await sheaf(env, 'log', '--project', 'WEB', '--task', 'Design', '--hours', '1', '--date', ahead, '--json');
    expect(future.code, future.stderr).toBe(0);
    try {
      const restarted = await sheaf(env, 'timer', 'restart', '--json');
      expect(restarted.code, restarted.stderr).toBe(0);
      expect(restarted.json).toMatchObject({ id: timer.json.id, is_running: true });

      // A second start: the running timer named (project, task, its hours to the hundredth, since when, notes), and the option that replaces it.
      const conflict = await sheaf(env, 'timer', 'start', '--project', 'WEB', '--task', 'Design');
      expect(conflict.code).toBe(4);
      expect(conflict.stderr).toMatch(/^sheaf: Another timer is already running: Support \/ Design: \d+(\.\d\d?)? h so far, since \d\d:\d\d – Triage \(entry [0-9a-f-]{36}\)\. Stop it with "sheaf timer stop", or add --replace/);
      expect(conflict.stderr).not.toContain('replace_running');
      expect((await sheaf(env, 'timer', 'stop')).code).toBe(0);

      // The future entry named: the API's refusal names its field, but no --date, which restart does not have.
      const refused = await sheaf(env, 'timer', 'restart', future.json.id);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe('sheaf: A timer cannot run on a future date. (field spent_date)\n');
    } finally {
      await api(member, 'DELETE', `/api/v2/time_entries/${future.json.id}`);
    }
  });
});

describe('refusals name the option that set the field', () => {
  const reported = (err: unknown, command: (typeof timeCommands)[number]) => {
    let text = '';
    const code = reportClientError(err, { json: false, out: () => {}, err: (t) => (text += t) }, command);
    return { code, text };
  };
  const entries = timeCommands.find((c) => c.name === 'entries')!;
  const restart = timerCommands.find((c) => c.name === 'timer restart')!;

  it('user_id is --user; a field whose option the command lacks is named without one', () => {
    expect(reported(new ApiRefusal(400, 'invalid_request', 'user_id must be an id.', 'user_id'), entries)).toEqual({
      code: 2,
      text: 'sheaf: user_id must be an id. (field user_id: --user)',
    });
    expect(reported(new ApiRefusal(400, 'invalid_request', 'A timer cannot run on a future date.', 'spent_date'), restart).text).toBe(
      'sheaf: A timer cannot run on a future date. (field spent_date)',
    );
  });
});

describe('ranges, plurals, docs', () => {
  /** A calendar source that counts how often it is read. */
  const calendarOf = (today: string, weekStart: WeekStart = 'monday') => {
    const source = Object.assign(async (): Promise<Calendar> => (source.reads++, { today, weekStart }), { reads: 0 });
    return source;
  };

  it('a range with one end: entries leave it open, the reports end a lone --from today (or on it, when later) and start a lone --to 364 days before', async () => {
    const report = (v: Record<string, string>, fallback: 'week' | 'none') => reportRangeOn(dateRange(v, fallback), calendarOf('2026-12-06'));
    expect(await report({ from: '2027-01-01' }, 'none')).toEqual({ from: '2027-01-01', to: '2027-01-01' });
    expect(await report({ from: '2026-11-01' }, 'week')).toEqual({ from: '2026-11-01', to: '2026-12-06' });
    expect(await report({ to: '2026-11-30' }, 'week')).toEqual({ from: '2025-12-01', to: '2026-11-30' });
    expect(await report({}, 'none')).toEqual({ from: '2025-12-07', to: '2026-12-06' });
    expect(await report({}, 'week')).toEqual({ from: '2026-11-30', to: '2026-12-06' });
    expect(await report({ week: '2026-W45' }, 'none')).toEqual({ from: '2026-11-02', to: '2026-11-08' });
    expect(await rangeOn(dateRange({ from: '2026-11-01' }, 'week'), calendarOf('2026-12-06'))).toEqual({ from: '2026-11-01', to: undefined });
  });

  it("weeks start on the workspace's first day: this week, last week and an ISO week (the one holding its Monday)", async () => {
    const week = (typed: string | undefined, today: string, start: WeekStart) => rangeOn(dateRange({ week: typed }, 'week'), calendarOf(today, start));
    // Thursday 3 December 2026
    expect(await week(undefined, '2026-12-03', 'monday')).toEqual({ from: '2026-11-30', to: '2026-12-06' });
    expect(await week('current', '2026-12-03', 'sunday')).toEqual({ from: '2026-11-29', to: '2026-12-05' });
    expect(await week('last', '2026-12-03', 'saturday')).toEqual({ from: '2026-11-21', to: '2026-11-27' });
    // On the first day of a week, that day starts it; on the last, it ends it.
    expect(await week('current', '2026-11-29', 'sunday')).toEqual({ from: '2026-11-29', to: '2026-12-05' });
    expect(await week('current', '2026-12-04', 'saturday')).toEqual({ from: '2026-11-28', to: '2026-12-04' });
    expect(await week('2026-W45', '2026-12-03', 'monday')).toEqual({ from: '2026-11-02', to: '2026-11-08' });
    expect(await week('2026-W45', '2026-12-03', 'sunday')).toEqual({ from: '2026-11-01', to: '2026-11-07' });
    expect(await week('2026-w45', '2026-12-03', 'saturday')).toEqual({ from: '2026-10-31', to: '2026-11-06' });
    // Week 1 of 2027 starts on Monday 4 January; 2026 has 53 weeks, 2027 has 52.
    expect(await week('2027-W01', '2026-12-03', 'sunday')).toEqual({ from: '2027-01-03', to: '2027-01-09' });
    expect(await week('2026-W53', '2026-12-03', 'monday')).toEqual({ from: '2026-12-28', to: '2027-01-03' });
    expect(() => dateRange({ week: '2027-W53' }, 'week')).toThrow('--week: 2027 has weeks 1 to 52, not 53.');
    // A year of fewer than four digits' worth is refused, never read as this week (or as 19xx).
    for (const typed of ['0999-W10', '0050-W10', '9999-W52']) expect(() => dateRange({ week: typed }, 'week'), typed).toThrow(`--week must be a week of the years 1000 to 9998, not '${typed}'.`);
  });

  it('reads the calendar only for a date relative to today, and checks the order once it is known', async () => {
    const explicit = calendarOf('2026-12-03');
    expect(await rangeOn(dateRange({ from: '2026-11-01', to: '2026-11-30' }, 'week'), explicit)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(explicit.reads).toBe(0);
    const relative = calendarOf('2026-12-03');
    expect(await rangeOn(dateRange({ date: 'yesterday' }, 'none'), relative)).toEqual({ from: '2026-12-02', to: '2026-12-02' });
    expect(relative.reads).toBeGreaterThan(0);
    expect(() => dateRange({ from: '2026-12-05', to: '2026-12-04' }, 'none')).toThrow('--from (2026-12-05) is after --to (2026-12-04).');
    await expect(rangeOn(dateRange({ from: '2026-12-05', to: 'today' }, 'none'), calendarOf('2026-12-03'))).rejects.toThrow('--from (2026-12-05) is after --to (2026-12-03).');
  });

  it("today is the date in the workspace's zone, whatever this machine's is", () => {
    const now = new Date('2026-12-07T11:30:00Z');
    expect(dateIn('Pacific/Kiritimati', now)).toBe('2026-12-08');
    expect(dateIn('Pacific/Pago_Pago', now)).toBe('2026-12-07');
    expect(dateIn('Europe/Berlin', new Date('2026-12-07T23:30:00Z'))).toBe('2026-12-08');
  });

  it('names several matches in the plural', () => {
    const categories = [{ id: 'a', name: 'Travel by rail' }, { id: 'b', name: 'Travel by air' }];
    expect(() => pick(categories, 'travel', 'expense category', '--category')).toThrow("--category 'travel' matches 2 expense categories: ");
    expect(() => pick([{ id: 'c', name: 'Web a' }, { id: 'd', name: 'Web b' }], 'web', 'project', '--project')).toThrow('matches 2 projects: ');
  });

  it('matches names without case or accents, as the web app’s pickers do', () => {
    const clients = [{ id: 'a', name: 'Café Zürich' }, { id: 'b', name: 'Acme' }];
    expect(pick(clients, 'cafe', 'client', '--client').id).toBe('a');
    expect(pick(clients, 'CAFE ZURICH', 'client', '--client').id).toBe('a');
    expect(pick([{ id: 'p', name: 'Relaunch', code: 'ÉTÉ' }], 'ete', 'project', '--project').id).toBe('p');
  });

  it("docs/cli.md lists every option of each person command in the command's row", () => {
    const doc = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8').split('\n');
    for (const c of clientCommands) {
      const row = doc.find((l) => new RegExp(`^\\| \`sheaf ${c.name}[\` ]`).test(l));
      expect(row, c.name).toBeDefined();
      // export documents its filters as those of entries.
      const options = Object.keys(c.options).filter((o) => o !== 'profile' && !(c.name === 'export' && o in (clientCommands.find((e) => e.name === 'entries')!.options)));
      expect(options.filter((o) => !row!.includes(`--${o}`)), c.name).toEqual([]);
    }
  });
});

describe('log and entries', () => {
  it('log with --from/--to and with --hours; entries of a week as a table with totals, and as the API JSON', async () => {
    const env = asMember();
    const timed = await sheaf(env, 'log', '--project', 'Website', '--task', 'Design', '--date', '2026-11-02', '--from', '9:00', '--to', '10:30', '--notes', 'Wireframes', '--json');
    expect(timed.code, timed.stderr).toBe(0);
    expect(timed.json).toMatchObject({ spent_date: '2026-11-02', started_time: '09:00', ended_time: '10:30', hours: 1.5, source: 'cli', is_running: false });
    const hours = await sheaf(env, 'log', '--project', 'SUP', '--hours', '0.25', '--date', '2026-11-03', '--notes', 'Call', '--billable', 'false');
    expect(hours.code, hours.stderr).toBe(0);
    expect(hours.stdout).toMatch(/^Logged: Support \/ Design: 0\.25 h on 2026-11-03 – Call \(entry [0-9a-f-]{36}\)$/m);

    const table = await sheaf(env, 'entries', '--week', '2026-W45');
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^date +time +hours +project +task +notes +billable +status +id$/);
    // columns line up: every row's hours end where the header's "hours" ends
    const hoursEnd = lines[0].indexOf('hours') + 'hours'.length;
    expect(lines[1].slice(0, hoursEnd)).toMatch(/ 0\.25$/);
    expect(lines[2].slice(0, hoursEnd)).toMatch(/ 1\.5$/);
    expect(lines[1]).toMatch(/^2026-11-03 +- +0\.25 +Support +Design +Call +no +unsubmitted/);
    expect(lines[2]).toMatch(/^2026-11-02 +09:00–10:30 +1\.5 +Website +Design +Wireframes +yes +unsubmitted/);
    expect(table.stdout).toContain('2 entries (2026-11-02 to 2026-11-08): 1.75 h, billable 1.5 h');

    const json = await sheaf(env, 'entries', '--from', '2026-11-02', '--to', '2026-11-08', '--json');
    const fromApi = await api(member, 'GET', `/api/v2/time_entries?user_id=${member.userId}&from=2026-11-02&to=2026-11-08`);
    expect(json.json).toEqual(fromApi.time_entries);
    const byProject = await sheaf(env, 'entries', '--week', '2026-W45', '--project', 'WEB', '--json');
    expect(byProject.json.map((e: { id: string }) => e.id)).toEqual([timed.json.id]);
    // The owner's "entries" are their own; --user all shows the member's too.
    expect((await sheaf(asOwner(), 'entries', '--week', '2026-W45', '--json')).json).toEqual([]);
    expect((await sheaf(asOwner(), 'entries', '--week', '2026-W45', '--user', 'all', '--json')).json).toHaveLength(2);
    // In a table, everyone's entries say whose they are; your own need no such column.
    const everyone = await sheaf(asOwner(), 'entries', '--week', '2026-W45', '--user', 'all');
    expect(everyone.stdout.split('\n')[0]).toMatch(/^date +person +time +hours +project/);
    expect(everyone.stdout.split('\n')[1]).toMatch(/^2026-11-0\d +Mia Member +/);
  });

  it('entries --user takes an e-mail address (any case) as the person who has it; nobody with it is exit 3', async () => {
    const own = await sheaf(asOwner(), 'entries', '--week', '2026-W45', '--user', owner.email.toUpperCase(), '--json');
    expect(own.code, own.stderr).toBe(0);
    expect(own.json).toEqual([]);
    const theirs = await sheaf(asOwner(), 'entries', '--week', '2026-W45', '--user', member.email, '--json');
    expect(theirs.code, theirs.stderr).toBe(0);
    expect(theirs.json).toHaveLength(2);
    expect(theirs.json.every((e: { user_id: string }) => e.user_id === member.userId)).toBe(true);
    const nobody = await sheaf(asOwner(), 'entries', '--user', 'nobody@example.com');
    expect(nobody.code).toBe(3);
    expect(nobody.stderr).toBe("sheaf: --user: nobody with the e-mail address 'nobody@example.com' in this workspace that you can see.\n");
    const bad = await sheaf(asOwner(), 'entries', '--user', 'Mia');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--user must be me, all, a user id or an e-mail address, not 'Mia'.");
  });

  it('bad input: exit 2 before any request, and the API refusal with its message and field', async () => {
    const env = asMember();
    const cases: Array<[string[], string]> = [
      [['log', '--hours', '1'], '--project is required'],
      [['log', '--project', 'WEB'], 'Give --hours H, or --from HH:MM and --to HH:MM.'],
      [['log', '--project', 'WEB', '--hours', 'two'], "--hours must be decimal hours from 0 to 24"],
      [['log', '--project', 'WEB', '--from', '10:00', '--to', '09:00'], '--to (09:00) must be after --from (10:00).'],
      [['log', '--project', 'WEB', '--hours', '1', '--date', '2026-02-30'], '--date must be a date YYYY-MM-DD'],
      [['entries', '--week', '2026-W60'], '--week: 2026 has weeks 1 to 53, not 60.'],
      [['timer', 'start', '--project', 'WEB', '--bogus'], 'Unknown option --bogus for "sheaf timer start".'],
    ];
    for (const [args, message] of cases) {
      const r = await sheaf(env, ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(message);
    }
    // A name that matches several is bad input (2); one that matches nothing is not found (3), as its id would be.
    const ambiguous = await sheaf(env, 'log', '--project', 'WEB', '--hours', '1');
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('--task is required: the project has 5 tasks');
    const unknown = await sheaf(env, 'log', '--project', 'Nope', '--hours', '1');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain("No project 'Nope' that you can see (there are: [SUP] Support");
    // The API's own refusal: its message, and the field as the option that set it.
    const refused = await sheaf(env, 'log', '--project', 'SUP', '--hours', '1', '--date', '1800-01-01');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^sheaf: .*spent_date.* \(field spent_date: --date\)\n$/);
    const refusedJson = await sheaf(env, 'log', '--project', 'SUP', '--hours', '1', '--date', '1800-01-01', '--json');
    expect(refusedJson.error).toMatchObject({ error: 'invalid_request', field: 'spent_date', status: 400 });
  });
});

describe('expenses, submit, projects', () => {
  it('expenses add with a receipt (multipart) and without; source cli; the receipt downloads byte for byte', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const receipt = join(work, 'taxi.png');
    writeFileSync(receipt, png);
    const env = asMember();
    const added = await sheaf(env, 'expenses', 'add', '--project', 'WEB', '--category', 'llm', '--cost', '12.40', '--date', '2026-11-04', '--notes', 'Tokens', '--receipt', receipt, '--json');
    expect(added.code, added.stderr).toBe(0);
    expect(added.json).toMatchObject({ project_id: ids.website, total_cost: 12.4, source: 'cli', spent_date: '2026-11-04', receipt: { file_name: 'taxi.png', content_type: 'image/png', byte_size: png.length } });
    const res = await fetch(`${url}${added.json.receipt_download_url}`, { headers: member.headers });
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);

    const plain = await sheaf(env, 'expenses', 'add', '--project', 'Support', '--category', 'LLM usage', '--cost', '3', '--date', '2026-11-04');
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^Recorded: 3\.00 LLM usage on Support, 2026-11-04 \(expense [0-9a-f-]{36}\)$/m);

    const missing = await sheaf(env, 'expenses', 'add', '--project', 'WEB', '--category', 'llm', '--cost', '1', '--receipt', join(work, 'nope.pdf'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--receipt: there is no file');
    const wrongType = join(work, 'notes.txt');
    writeFileSync(wrongType, 'not a receipt');
    const refused = await sheaf(env, 'expenses', 'add', '--project', 'WEB', '--category', 'llm', '--cost', '1', '--receipt', wrongType, '--json');
    expect(refused.code).toBe(2);
    expect(refused.error).toMatchObject({ status: 415 });
  });

  it('submit a week: a running timer in it is exit 4, then the week is submitted', async () => {
    const env = asMember();
    const running = await sheaf(env, 'timer', 'start', '--project', 'SUP', '--json');
    expect(running.code, running.stderr).toBe(0);
    const blocked = await sheaf(env, 'submit');
    expect(blocked.code).toBe(4);
    expect(blocked.stderr).toMatch(/^sheaf: .*timer/i);
    expect((await sheaf(env, 'timer', 'stop')).code).toBe(0);

    // Two ranges at once are a usage error naming what was given (submit takes no --date to suggest).
    const both = await sheaf(env, 'submit', '--week', '2026-W45', '--from', '2026-11-02');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^sheaf: --week and --from\/--to cannot be combined: give one of them.\n/);
    const submitted = await sheaf(env, 'submit', '--week', '2026-W45');
    expect(submitted.code, submitted.stderr).toBe(0);
    expect(submitted.stdout).toMatch(/^Submitted 4 records \(1:45 h of time\) from 2026-11-02 to 2026-11-08 for approval\.$/m);
    const again = await sheaf(env, 'submit', '--week', '2026-W45', '--json');
    expect(again.json).toMatchObject({ submitted_count: 0, submitted_seconds: 0 });
    expect((await sheaf(env, 'entries', '--week', '2026-W45', '--json')).json.map((e: { approval_status: string }) => e.approval_status)).toEqual(['submitted', 'submitted']);
  });

  it("counts days and weeks as the far workspace does: its date in Kiritimati, weeks from Sunday; a sync key keeps this machine's", async () => {
    const env = envWith({ SHEAF_URL: url, SHEAF_API_KEY: far.key, SHEAF_WORKSPACE_ID: farId });
    const client = await api(far, 'POST', '/api/v2/clients', { name: 'Lagoon', currency: 'EUR' });
    await api(far, 'POST', '/api/v2/projects', { client_id: client.id, name: 'Reef', code: 'REEF', is_billable: true, bill_by: 'none', budget_by: 'none' });
    const before = dateIn('Pacific/Kiritimati');
    const logged = await sheaf(env, 'log', '--project', 'REEF', '--task', 'Design', '--hours', '1', '--json');
    expect(logged.code, logged.stderr).toBe(0);
    expect([before, dateIn('Pacific/Kiritimati')]).toContain(logged.json.spent_date);
    // This week is the workspace's: from the Sunday on or before its today.
    const today = logged.json.spent_date as string;
    const sunday = new Date(`${today}T00:00:00Z`);
    sunday.setUTCDate(sunday.getUTCDate() - sunday.getUTCDay());
    const from = sunday.toISOString().slice(0, 10);
    const listed = await sheaf(env, 'entries');
    expect(listed.stdout).toContain(`1 entry (${from} to `);

    // 2026-W45 (Monday 2 to Sunday 8 November) is the workspace's week holding its Monday: Sunday 1 to Saturday 7.
    for (const date of ['2026-10-31', '2026-11-01', '2026-11-07', '2026-11-08']) {
      expect((await sheaf(env, 'log', '--project', 'REEF', '--task', 'Design', '--hours', '1', '--date', date)).code).toBe(0);
    }
    const week = await sheaf(env, 'entries', '--week', '2026-W45', '--json');
    expect(week.json.map((e: { spent_date: string }) => e.spent_date).sort()).toEqual(['2026-11-01', '2026-11-07']);
    const submitted = await sheaf(env, 'submit', '--week', '2026-W45');
    expect(submitted.stdout).toMatch(/^Submitted 2 records \(2:00 h of time\) from 2026-11-01 to 2026-11-07 for approval\.$/m);
    const team = await sheaf(env, 'report', 'team', '--week', '2026-W45', '--json');
    expect(team.json.find((r: { user_id: string }) => r.user_id === far.userId)).toMatchObject({ total_hours: 2 });

    // A personal sync key may not read the workspace (403): it counts this machine's date and ISO weeks, and says nothing of it.
    const sync = await sheaf(envWith({ SHEAF_URL: url, SHEAF_API_KEY: farSync.key, SHEAF_WORKSPACE_ID: farId }), 'entries', '--week', '2026-W45');
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout.trim()).toBe('No entries (2026-11-02 to 2026-11-08).');
    expect(sync.stderr).toContain("dates counted in this machine's calendar");
    // A full-access key's commands say nothing of it.
    expect((await sheaf(env, 'entries', '--week', '2026-W45')).stderr).toBe('');
  });

  it('projects as a table and as the API JSON', async () => {
    const table = await sheaf(asMember(), 'projects');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.trimEnd().split('\n')).toEqual([
      'code  project  client  id',
      `SUP   Support  Globex  ${ids.support}`,
      `WEB   Website  Globex  ${ids.website}`,
    ]);
    const json = await sheaf(asMember(), 'projects', '--json');
    expect(json.json).toEqual((await api(member, 'GET', '/api/v2/projects?is_active=true')).projects);
  });
});

describe('reports and invoices', () => {
  it('report uninvoiced, budget and team as tables and JSON; a member is refused with exit 5', async () => {
    const uninvoiced = await sheaf(asOwner(), 'report', 'uninvoiced', '--from', '2026-11-01', '--to', '2026-11-30');
    expect(uninvoiced.code, uninvoiced.stderr).toBe(0);
    expect(uninvoiced.stdout).toMatch(/^client +project +hours +uninvoiced h +expenses +amount +currency$/m);
    expect(uninvoiced.stdout).toMatch(/^Globex +Website +1\.5 +1\.5 +12\.40 +162\.40 +EUR$/m);
    const uninvoicedJson = await sheaf(asOwner(), 'report', 'uninvoiced', '--from', '2026-11-01', '--to', '2026-11-30', '--json');
    expect(uninvoicedJson.json).toEqual((await api(owner, 'GET', '/api/v2/reports/uninvoiced?from=2026-11-01&to=2026-11-30')).results);

    const budget = await sheaf(asOwner(), 'report', 'budget');
    expect(budget.code, budget.stderr).toBe(0);
    expect(budget.stdout).toMatch(/^Globex +Website +project +40 +\d[\d.]* +\d[\d.]*$/m);
    // A money budget is in its currency's minor units (the report names the currency).
    expect(budget.stdout).toMatch(/^Globex +Support +project_cost +500\.00 +\d+\.\d\d +\d+\.\d\d$/m);
    expect((await sheaf(asOwner(), 'report', 'budget', '--json')).json).toEqual((await api(owner, 'GET', '/api/v2/reports/project_budget?is_active=true')).results);

    const team = await sheaf(asOwner(), 'report', 'team', '--week', '2026-W45');
    expect(team.code, team.stderr).toBe(0);
    expect(team.stdout).toMatch(/^Mia Member +1\.75 +1\.5 +150\.00 +EUR$/m);
    expect(team.stdout).toContain('2026-11-02 to 2026-11-08: 1.75 h, billable 1.5 h');

    // A lone --from: up to today, or that one day when it is later (no "--to" the person never typed).
    const ahead = await sheaf(asOwner(), 'report', 'uninvoiced', '--from', '2099-01-01');
    expect(ahead.code, ahead.stderr).toBe(0);
    expect(ahead.stdout).toContain('2099-01-01 to 2099-01-01');
    // report team's lone --from likewise runs to today (it was that one day): Mia's 2 November and 3 November.
    const since = await sheaf(asOwner(), 'report', 'team', '--from', '2026-11-02', '--json');
    expect(since.code, since.stderr).toBe(0);
    expect(since.json.find((r: { user_id: string }) => r.user_id === member.userId).total_hours).toBeGreaterThanOrEqual(1.75);

    const refused = await sheaf(asMember(), 'report', 'uninvoiced');
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/^sheaf: /);
  });

  it('invoice create from uninvoiced work, pdf written to a file, send; an unknown invoice is exit 3', async () => {
    const created = await sheaf(asOwner(), 'invoice', 'create', '--client', 'globex', '--from', '2026-11-01', '--to', '2026-11-30', '--subject', 'November', '--json');
    expect(created.code, created.stderr).toBe(0);
    expect(created.json).toMatchObject({ state: 'draft', subject: 'November' });
    expect(created.json.line_items.length).toBeGreaterThan(0);
    const entries = await api(owner, 'GET', `/api/v2/time_entries?user_id=${member.userId}&from=2026-11-02&to=2026-11-02`);
    expect(entries.time_entries[0].is_billed).toBe(true);

    const out = join(work, 'invoice.pdf');
    const pdf = await sheaf(asOwner(), 'invoice', 'pdf', created.json.id, '--out', out);
    expect(pdf.code, pdf.stderr).toBe(0);
    expect(pdf.stdout).toMatch(/^Wrote .*invoice\.pdf \(\d+ bytes\)\.$/m);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');

    const sent = await sheaf(asOwner(), 'invoice', 'send', created.json.id, '--to', 'billing@globex.example', '--json');
    expect(sent.code, sent.stderr).toBe(0);
    expect((await api(owner, 'GET', `/api/v2/invoices/${created.json.id}`)).state).toBe('open');

    const noDir = await sheaf(asOwner(), 'invoice', 'pdf', created.json.id, '--out', join(work, 'missing', 'y.pdf'));
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toContain(`sheaf: --out: cannot write ${join(work, 'missing', 'y.pdf')}: the directory ${join(work, 'missing')} does not exist.`);
    expect(noDir.stderr).not.toContain('ENOENT');
    expect((await sheaf(asOwner(), 'invoice', 'pdf', created.json.id, '--out', '-', '--json')).code).toBe(2);
    const unknown = await sheaf(asOwner(), 'invoice', 'pdf', '0199a0a0-0000-7000-8000-000000000000', '--out', join(work, 'x.pdf'));
    expect(unknown.code).toBe(3);
    expect(existsSync(join(work, 'x.pdf'))).toBe(false);
    const nothing = await sheaf(asOwner(), 'invoice', 'create', '--client', 'Globex', '--from', '2026-11-01', '--to', '2026-11-30');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/^sheaf: /);
    // A refusal of the range names the option typed, not the API's field.
    const backwards = await sheaf(asOwner(), 'invoice', 'create', '--client', 'Globex', '--from', '2026-11-30', '--to', '2026-11-01');
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toMatch(/\(field line_items_import\.time\.to: --to\)/);
  });
});

describe('profiles', () => {
  it('login reads the key from stdin, stores it 0600 and never prints it; env overrides the profile; logout', async () => {
    const env = envWith();
    const login = await spawnWithStdin(['login', '--url', url, '--workspace', workspaceId], env, `${member.key}\n`);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain('as Mia Member');
    expect(login.stdout + login.stderr).not.toContain(member.key);
    const path = join(home, 'config', 'sheaf', 'profiles.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(path, 'utf8')).profiles.default).toMatchObject({ url, workspace_id: workspaceId, api_key: member.key });

    // A second profile, the owner's, from SHEAF_API_KEY.
    const second = await sheaf({ ...env, SHEAF_API_KEY: owner.key }, 'login', '--profile', 'boss', '--url', url, '--workspace', workspaceId, '--json');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).not.toContain(owner.key);
    expect(statSync(path).mode & 0o777).toBe(0o600);

    const who = await sheaf(env, 'whoami', '--json');
    expect(who.json).toMatchObject({ id: member.userId });
    expect((await sheaf(env, 'whoami', '--profile', 'boss', '--json')).json).toMatchObject({ id: owner.userId });
    expect((await sheaf({ ...env, SHEAF_PROFILE: 'boss' }, 'whoami', '--json')).json).toMatchObject({ id: owner.userId });
    // The environment's key over the profile's.
    expect((await sheaf({ ...env, SHEAF_API_KEY: owner.key }, 'whoami', '--json')).json).toMatchObject({ id: owner.userId });
    expect((await sheaf({ ...env, SHEAF_API_KEY: owner.key }, 'whoami')).stdout).toContain('key from SHEAF_API_KEY');

    const listed = await sheaf(env, 'profiles');
    expect(listed.stdout).toMatch(/^\* +default +http:\/\/\S+ +Acme \(.+\) +Mia Member </m);
    expect(listed.stdout).toMatch(/^ +boss +http:\/\/\S+ +Acme \(.+\) +Olive Owner </m);
    const listedJson = await sheaf(env, 'profiles', '--json');
    expect(listedJson.stdout).not.toContain(member.key);
    expect(listedJson.stdout).not.toContain(owner.key);
    expect(listedJson.json.map((p: { name: string }) => p.name)).toEqual(['default', 'boss']);

    const missing = await sheaf(env, 'whoami', '--profile', 'nobody');
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('There is no profile "nobody"');

    // A wrong key is checked before anything is saved.
    const wrong = await sheaf({ ...env, SHEAF_API_KEY: 'sheaf_fa_wrong' }, 'login', '--profile', 'bad', '--url', url, '--workspace', workspaceId);
    expect(wrong.code).toBe(5);
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).profiles)).toEqual(['default', 'boss']);

    expect((await sheaf(env, 'logout', '--profile', 'boss')).code).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).profiles)).toEqual(['default']);
    const gone = await sheaf(env, 'logout', '--profile', 'boss');
    expect(gone.code).toBe(3);
    expect(gone.stderr).toContain('There is no profile "boss"');
  });
});

describe('bad credentials and servers', () => {
  it('no key says how to get one (exit 5); a refused key, a closed port, TLS to a plain server and DNS say what failed', async () => {
    const nowhere = envWith({ XDG_CONFIG_HOME: join(home, 'no-profiles') });
    const none = await sheaf(nowhere, 'timer', 'status');
    expect(none.code).toBe(5);
    expect(none.stderr).toContain('sheaf login');
    expect(none.stderr).toContain('Settings → API and Developers');
    expect(none.stderr).toContain('sheaf admin key create');
    expect((await sheaf(nowhere, 'timer', 'status', '--json')).error).toMatchObject({ error: 'not_signed_in' });

    const refused = await sheaf({ ...asMember(), SHEAF_API_KEY: 'sheaf_fa_not_a_real_key' }, 'projects');
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/^sheaf: .+ \(the server refused the key from SHEAF_API_KEY/);

    // A port nothing listens on (taken, then released).
    const free = await new Promise<number>((done) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => done(port));
      });
    });
    const closed = await sheaf({ ...asMember(), SHEAF_URL: `http://127.0.0.1:${free}` }, 'projects');
    expect(closed.code).toBe(1);
    expect(closed.stderr).toBe(`sheaf: Could not reach the server: GET http://127.0.0.1:${free}/api/v2/projects?per_page=2000&is_active=true: connection refused (is the server running, and are the host and port right?) [ECONNREFUSED]\n`);
    expect((await sheaf({ ...asMember(), SHEAF_URL: `http://127.0.0.1:${free}` }, 'projects', '--json')).error).toMatchObject({ error: 'connection_failed' });

    const port = new URL(url).port;
    const tls = await sheaf({ ...asMember(), SHEAF_URL: `https://127.0.0.1:${port}` }, 'projects');
    expect(tls.code).toBe(1);
    expect(tls.stderr).toMatch(/TLS error .*does not speak TLS/);

    const dns = await sheaf({ ...asMember(), SHEAF_URL: 'http://sheaf-test.invalid' }, 'projects');
    expect(dns.code).toBe(1);
    expect(dns.stderr).toMatch(/sheaf-test\.invalid.*(host not found|DNS)/);

    // No scheme: bad input (2) saying what to write; the API's base copied whole (/api/v2) is dropped.
    const host = new URL(url).host;
    const bare = await sheaf({ ...asMember(), SHEAF_URL: host }, 'projects');
    expect(bare.code).toBe(2);
    expect(bare.stderr).toBe(`sheaf: SHEAF_URL must be an http:// or https:// URL, not '${host}' (did you mean http://${host}?).\n`);
    expect((await sheaf({ ...asMember(), SHEAF_URL: host }, 'projects', '--json')).error).toMatchObject({ error: 'bad_url' });
    for (const base of [`${url}/api/v2`, `${url}/api/v2/`]) {
      const viaBase = await sheaf({ ...asMember(), SHEAF_URL: base }, 'whoami', '--json');
      expect(viaBase.code, viaBase.stderr).toBe(0);
      expect(viaBase.json).toMatchObject({ id: member.userId });
    }
    const badLogin = await sheaf(envWith(), 'login', '--url', host, '--workspace', workspaceId);
    expect(badLogin.code).toBe(2);
    expect(badLogin.stderr).toContain(`--url must be an http:// or https:// URL, not '${host}'`);

    const notSheaf = await sheaf({ ...asMember(), SHEAF_URL: `${url}/nowhere` }, 'projects');
    expect(notSheaf.code).toBe(3);
    expect(notSheaf.stderr).toMatch(/^sheaf: /);
  });
});

describe('the installed command', () => {
  it('runs the person commands without loading the database code, with the same output as in-process', async () => {
    const [status, inProcess, usage, usageInProcess] = await Promise.all([
      spawnCli(['timer', 'status', '--json'], asMember()),
      sheaf(asMember(), 'timer', 'status', '--json'),
      spawnCli(['log', '--project', 'WEB'], asMember()),
      sheaf(asMember(), 'log', '--project', 'WEB'),
    ]);
    expect(status).toEqual(inProcess);
    expect(usage.code).toBe(2);
    expect(usage).toEqual(usageInProcess);

    // What src/cli/client/index.ts imports, followed through every static import: no database library, no service.
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^import (?!type )[^'"]*?from '([^']+)'/gm)) {
        const spec = m[1];
        if (spec.startsWith('.')) walk(resolve(dirname(file), spec));
        else seen.add(spec);
      }
    };
    walk(join(ROOT, 'src/cli/client/index.ts'));
    const loaded = [...seen];
    expect(loaded.filter((f) => /^(kysely|pg|@electric-sql\/pglite|fastify)/.test(f) || /src\/(db|modules|access|auth)\//.test(f))).toEqual([]);
    expect(loaded.some((f) => f.endsWith('src/cli/main.ts'))).toBe(false);
  });

  it('export writes CSV to stdout and XLSX to a file, the same rows as the list', async () => {
    const csv = await spawnCli(['export', '--week', '2026-W45'], asMember());
    expect(csv.code, csv.stderr).toBe(0);
    const rows = csv.stdout.trim().split(/\r?\n/);
    expect(rows[0]).toMatch(/^Date,Person,Client,Project,Task,Notes,Hours/);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain('2026-11-03');
    expect(rows[2]).toContain('Wireframes');
    // A reader that stops at once (`sheaf export | head -0`): no "write EPIPE", exit 0.
    const cut = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(process.execPath, [...SHEAF_BIN, 'export', '--week', '2026-W45'], { cwd: ROOT, env: asMember() });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      child.on('close', (code) => done({ code, stderr }));
    });
    expect(cut).toEqual({ code: 0, stderr: '' });
    const out = join(work, 'week.xlsx');
    const xlsx = await sheaf(asMember(), 'export', '--week', '2026-W45', '--out', out, '--json');
    expect(xlsx.code, xlsx.stderr).toBe(0);
    expect(xlsx.json).toMatchObject({ file: out, format: 'xlsx' });
    expect(readFileSync(out).subarray(0, 2).toString()).toBe('PK');
    const ods = await sheaf(asMember(), 'export', '--week', '2026-W45', '--out', join(work, 'week.ods'));
    expect(ods.code).toBe(2);
    expect(ods.stderr).toContain('the export is CSV or XLSX; name the file .csv or .xlsx, or choose with --format.');
    expect(existsSync(join(work, 'week.ods'))).toBe(false);
    const bad = await sheaf(asMember(), 'export', '--format', 'pdf');
    expect(bad.code).toBe(2);
    // A directory that does not exist: bad input in words, not node's ENOENT.
    const nowhere = join(work, 'missing', 'x.csv');
    const unwritable = await sheaf(asMember(), 'export', '--week', '2026-W45', '--out', nowhere);
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toMatch(new RegExp(`^sheaf: --out: cannot write ${nowhere}: the directory ${join(work, 'missing')} does not exist\\.\n`));
    // --json is one JSON document on stdout: not with the file itself there.
    const both = await spawnCli(['export', '--week', '2026-W45', '--json'], asMember());
    expect(both.code).toBe(2);
    expect(both.stdout).toBe('');
    expect(both.error).toMatchObject({ error: 'usage', message: expect.stringContaining('--json prints one JSON document on stdout') });
  });
});

describe('help and completion', () => {
  it('every group and command has --help; completion scripts list the commands, and bash accepts its script', async () => {
    for (const args of [['timer', '--help'], ['report', '--help'], ['invoice', '--help'], ['expenses', '--help'], ['log', '--help'], ['export', '--help'], ['login', '--help']]) {
      const r = await sheaf(envWith(), ...args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout).toContain('Usage: sheaf');
    }
    const names = COMMANDS.map((c) => c.name);
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await sheaf(envWith(), 'completion', shell);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(completionScript(shell as 'bash', COMMANDS).trimEnd() + '\n');
      for (const word of ['timer', 'log', 'entries', 'expenses', 'submit', 'projects', 'invoice', 'report', 'export', 'login', 'admin', 'serve']) expect(r.stdout).toContain(word);
      for (const option of ['--project', '--receipt', '--replace', '--profile', '--json']) expect(r.stdout).toContain(shell === 'fish' ? `-l ${option.slice(2)}` : option);
    }
    expect(names).toEqual(expect.arrayContaining(['timer start', 'timer stop', 'timer restart', 'timer status', 'log', 'entries', 'expenses add', 'submit', 'projects', 'invoice create', 'invoice send', 'invoice pdf', 'report uninvoiced', 'report budget', 'report team', 'export', 'login', 'logout', 'profiles', 'whoami', 'completion']));
    const bash = await sheaf(envWith(), 'completion', 'bash');
    const file = join(work, 'sheaf.bash');
    writeFileSync(file, bash.stdout);
    const run = (script: string) =>
      new Promise<{ code: number; stdout: string }>((done) =>
        execFile('bash', ['-c', script], (err, stdout) => done({ code: err ? Number(err.code) : 0, stdout })),
      );
    expect((await run(`bash -n ${file}`)).code).toBe(0);
    // The function completes: subcommands of a group, then a command's options.
    const complete = (words: string[]) =>
      run(`source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _sheaf; printf '%s\\n' "\${COMPREPLY[@]}"`);
    expect((await complete(['sheaf', 'timer', ''])).stdout.split('\n').filter(Boolean).sort()).toEqual(['restart', 'start', 'status', 'stop']);
    expect((await complete(['sheaf', 'timer', 'start', '--re'])).stdout.trim()).toBe('--replace');
    expect((await complete(['sheaf', 'rep'])).stdout.trim()).toBe('report');
    // A positional is not a subcommand: the command's options still complete after it; completion takes a shell; import a file.
    expect((await complete(['sheaf', 'completion', ''])).stdout.split('\n').filter(Boolean)).toEqual(['bash', 'zsh', 'fish']);
    expect((await complete(['sheaf', 'timer', 'restart', '0199a0a0-0000-7000-8000-000000000000', '--r'])).stdout.trim()).toBe('--replace');
    expect((await complete(['sheaf', 'import', 'taxi.csv', '--dry'])).stdout.trim()).toBe('--dry-run');
    writeFileSync(join(work, 'hours.csv'), '');
    expect((await complete(['sheaf', 'import', join(work, 'hours.')])).stdout.trim()).toBe(join(work, 'hours.csv'));
    const bad = await sheaf(envWith(), 'completion', 'tcsh');
    expect(bad.code).toBe(2);
  });

  // zsh and fish from Debian's packages (.ci/run installs them); where a shell is missing its check says so and skips.
  const hasShell = (shell: string) => ['/usr/bin', '/bin'].some((dir) => existsSync(join(dir, shell)));
  it.skipIf(!hasShell('zsh'))('zsh accepts its script and completes commands, a positional\'s values, options after a positional', async () => {
    const file = join(work, 'sheaf.zsh');
    writeFileSync(file, (await sheaf(envWith(), 'completion', 'zsh')).stdout);
    const checked = await new Promise<number>((done) => execFile('zsh', ['-n', file], (err) => done(err ? Number(err.code) : 0)));
    expect(checked).toBe(0);

    // The function run with zsh's completion builtins stubbed to print what they are given.
    const harness = join(work, 'harness.zsh');
    writeFileSync(
      harness,
      [
        'compdef() { :; }',
        'compadd() { [[ $1 == -- ]] && shift; print -r -- "$*"; }',
        '_describe() { local name=$4; print -r -- "${(@)${(P)name}%%:*}"; }',
        '_files() { print -r -- "(files)"; }',
        `source ${file}`,
        'words=("$@"); CURRENT=$#',
        '_sheaf',
      ].join('\n'),
    );
    const complete = (...words: string[]) =>
      new Promise<string>((done, fail) => execFile('zsh', [harness, ...words], (err, stdout) => (err ? fail(err) : done(stdout.trim()))));
    expect(await complete('sheaf', 'timer', '')).toBe('start stop restart status');
    expect(await complete('sheaf', 'completion', '')).toBe('bash zsh fish');
    expect(await complete('sheaf', 'timer', 'restart', '0199a0a0-0000-7000-8000-000000000000', '--r')).toBe('--replace --profile --json --help');
    expect(await complete('sheaf', 'import', 'taxi.csv', '--')).toBe('--workspace --format --date-order --dry-run --json --help');
    expect(await complete('sheaf', 'import', '')).toBe('(files)');
  });
  it.skipIf(!hasShell('fish'))('fish accepts its script and completes a group and an option', async () => {
    const file = join(work, 'sheaf.fish');
    writeFileSync(file, (await sheaf(envWith(), 'completion', 'fish')).stdout);
    const fish = (line: string) =>
      new Promise<string>((done, fail) =>
        execFile('fish', ['-c', `source ${file}; complete -C '${line}'`], (err, stdout) => (err ? fail(err) : done(stdout))),
      );
    const names = (out: string) => out.split('\n').filter(Boolean).map((l) => l.split('\t')[0]).sort();
    expect(names(await fish('sheaf timer '))).toEqual(['restart', 'start', 'status', 'stop']);
    expect(names(await fish('sheaf entries --w'))).toEqual(['--week']);
    expect(names(await fish('sheaf completion '))).toEqual(['bash', 'fish', 'zsh']);
    expect(names(await fish('sheaf timer restart 0199a0a0-0000-7000-8000-000000000000 --r'))).toEqual(['--replace']);
    expect(names(await fish('sheaf import taxi.csv --dry'))).toEqual(['--dry-run']);
    writeFileSync(join(work, 'hours.csv'), '');
    expect(names(await fish(`sheaf import ${join(work, 'hours.')}`))).toEqual([join(work, 'hours.csv')]);
  });
});
