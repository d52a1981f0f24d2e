import { str } from '../command.ts';
import { UsageError } from '../output.ts';
import type { ClientCommand } from './command.ts';
import { grid, hours, show, span, terminalWidth } from './format.ts';
import { ApiRefusal, type ApiClient } from './http.ts';
import type { CalendarSource } from './dates.ts';
import { findProject, findTask, me } from './lookups.ts';

/**
 * `sheaf timer start|stop|restart|status`: the caller's one running timer
 * (the API's: POST time_entries with is_running, PATCH …/stop, …/restart).
 * What it starts carries source "cli".
 */

export interface Entry {
  id: string;
  user_id: string;
  project_id: string;
  task_id: string;
  spent_date: string;
  hours: number;
  rounded_hours: number;
  notes: string | null;
  is_running: boolean;
  timer_started_at: string | null;
  started_time: string | null;
  ended_time: string | null;
  billable: boolean;
  source: string;
  approval_status?: string;
  task?: { id: string; name: string };
}

/** The caller's running timer, or null. */
async function runningTimer(api: ApiClient): Promise<Entry | null> {
  const user = await me(api);
  const list = await api.get<{ time_entries: Entry[] }>('/api/v2/time_entries', { user_id: user.id, is_running: true, per_page: 1 });
  return list.time_entries[0] ?? null;
}

/** One line about an entry: "Running: Website / Design, 0.25 h since 09:00 (notes)". */
export function entrySentence(e: Entry, projectName?: string): string {
  const what = [projectName, e.task?.name].filter(Boolean).join(' / ') || e.project_id;
  const when = e.is_running ? `${hours(e.hours)} h so far${e.started_time ? `, since ${e.started_time}` : ''}` : `${hours(e.hours)} h on ${e.spent_date}${e.started_time ? ` ${span(e)}` : ''}`;
  return `${what}: ${when}${e.notes ? ` – ${e.notes}` : ''} (entry ${e.id})`;
}

async function projectName(api: ApiClient, id: string): Promise<string | undefined> {
  return (await api.get<{ name: string }>(`/api/v2/projects/${id}`).catch(() => undefined))?.name;
}

const start: ClientCommand<{ project: string; task?: string; notes?: string; replace: boolean; billable?: boolean }> = {
  name: 'timer start',
  usage: '--project ID|CODE|NAME [--task ID|NAME] [--notes TEXT] [--billable true|false] [--replace]',
  summary: 'start a timer now (source cli); --replace stops a running one first (else exit 4 naming it)',
  options: { project: str, task: str, notes: str, billable: str, replace: { type: 'boolean' } },
  parse(v) {
    if (!v.project) throw new UsageError('--project is required (an id, a code or a name; see "sheaf projects").');
    return { project: v.project, task: v.task, notes: v.notes, replace: Boolean(v.replace), billable: boolOption(v.billable, '--billable') };
  },
  async run({ api, output }, input) {
    const client = await api();
    const project = await findProject(client, input.project);
    const task = await findTask(client, project.id, input.task);
    const entry = await client
      .json<Entry>('POST', '/api/v2/time_entries', {
        json: {
          project_id: project.id,
          task_id: task.id,
          is_running: true,
          source: 'cli',
          ...(input.notes !== undefined ? { notes: input.notes } : {}),
          ...(input.billable !== undefined ? { billable: input.billable } : {}),
          ...(input.replace ? { replace_running: true } : {}),
        },
      })
      .catch(async (err) => Promise.reject(await namingTheRunning(client, err)));
    show(output, entry, () => `Started: ${entrySentence(entry, project.name)}`);
  },
};

/**
 * The API's 409 running_timer_conflict speaks to API clients ("send
 * replace_running: true") and names the running entry by id only: a person is
 * told which timer runs (project, task, notes, since when) and the option that
 * replaces it. Any other error is returned as it is.
 */
async function namingTheRunning(api: ApiClient, err: unknown): Promise<unknown> {
  if (!(err instanceof ApiRefusal) || err.code !== 'running_timer_conflict') return err;
  const id = (err.body?.running_entry as { id?: string } | undefined)?.id;
  const running = id ? await api.get<Entry>(`/api/v2/time_entries/${id}`).catch(() => null) : await runningTimer(api);
  const what = running ? `: ${entrySentence(running, await projectName(api, running.project_id))}.` : '.';
  return new ApiRefusal(
    409,
    err.code,
    `Another timer is already running${what} Stop it with "sheaf timer stop", or add --replace to stop it and start this one.`,
    undefined,
    err.body,
  );
}

const stop: ClientCommand<{ notes?: string }> = {
  name: 'timer stop',
  usage: '[--notes TEXT]',
  summary: 'stop your running timer (--notes replaces its notes); exit 3 when none runs',
  options: { notes: str },
  parse: (v) => ({ notes: v.notes }),
  async run({ api, output }, input) {
    const client = await api();
    const running = await runningTimer(client);
    if (!running) throw new ApiRefusal(404, 'timer_not_running', 'No timer is running.');
    const entry = await client.json<Entry>('PATCH', `/api/v2/time_entries/${running.id}/stop`, { json: input.notes !== undefined ? { notes: input.notes } : {} });
    const name = output.json ? undefined : await projectName(client, entry.project_id);
    show(output, entry, () => `Stopped: ${entrySentence(entry, name)}`);
  },
};

const restart: ClientCommand<{ entry?: string; replace: boolean }> = {
  name: 'timer restart',
  usage: '[ENTRY_ID] [--replace]',
  summary:
    'run a stopped entry again (default: your latest stopped entry, the one on your latest day up to today that you stopped, logged or edited last); --replace stops a running timer first',
  options: { replace: { type: 'boolean' } },
  positionals: ['entry'],
  parse: (v) => ({ entry: v.entry, replace: Boolean(v.replace) }),
  async run({ api, output, calendar }, input) {
    const client = await api();
    const id = input.entry ?? (await latestStopped(client, calendar)).id;
    const entry = await client
      .json<Entry>('PATCH', `/api/v2/time_entries/${id}/restart`, { json: input.replace ? { replace_running: true } : {} })
      .catch(async (err) => Promise.reject(await namingTheRunning(client, err)));
    const name = output.json ? undefined : await projectName(client, entry.project_id);
    show(output, entry, () => `Restarted: ${entrySentence(entry, name)}`);
  },
};

/**
 * What a person means by "my latest stopped entry": what they were doing last,
 * so of their days up to today (the workspace's date: a timer cannot run on a
 * future date, so an entry logged ahead is never it) the latest, and on that
 * day the entry changed last (a stop sets updated_at, so normally the timer
 * stopped last; an entry logged or edited after it counts too, as the API does
 * not tell a stopped timer from a logged entry). The list is ordered by date,
 * so the latest day's entries are two small requests, whatever the history.
 */
async function latestStopped(api: ApiClient, calendar: CalendarSource): Promise<Entry> {
  const [user, { today }] = await Promise.all([me(api), calendar()]);
  const query = { user_id: user.id, is_running: false, to: today };
  const newest = await api.get<{ time_entries: Entry[] }>('/api/v2/time_entries', { ...query, per_page: 1 });
  const day = newest.time_entries[0]?.spent_date;
  if (!day) throw new ApiRefusal(404, 'not_found', 'You have no stopped entry dated today or earlier to restart.');
  const entries = await api.all<Entry & { updated_at: string }>('/api/v2/time_entries', 'time_entries', { ...query, from: day, to: day });
  return entries.reduce((a, b) => (b.updated_at > a.updated_at ? b : a));
}

const status: ClientCommand<Record<string, never>> = {
  name: 'timer status',
  usage: '',
  summary: 'your running timer, or "No timer is running." (--json: the entry or null); exit 0 either way',
  options: {},
  parse: () => ({}),
  async run({ api, output }) {
    const client = await api();
    const running = await runningTimer(client);
    if (!running) return show(output, null, () => 'No timer is running.');
    const name = await projectName(client, running.project_id);
    show(output, running, () =>
      grid(
        [running],
        [
          { title: 'project', value: () => name ?? running.project_id },
          { title: 'task', value: (e) => e.task?.name },
          { title: 'since', value: (e) => e.started_time },
          { title: 'hours', value: (e) => hours(e.hours), align: 'right' },
          { title: 'notes', value: (e) => e.notes, shrink: true },
          { title: 'id', value: (e) => e.id },
        ],
        terminalWidth(output),
      ),
    );
  },
};

/** An optional true/false option. */
export function boolOption(value: string | undefined, option: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new UsageError(`${option} must be true or false, not '${value}'.`);
  return value === 'true';
}

export const timerCommands: ClientCommand<any>[] = [start, stop, restart, status];
