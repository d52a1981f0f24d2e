import { Decimal } from 'decimal.js';
import { str, type Options, type Values } from '../command.ts';
import { UsageError } from '../output.ts';
import type { ClientCommand } from './command.ts';
import { dateOn, dateRange, parseClock, parseDate, rangeOn, type RangeInput } from './dates.ts';
import { grid, hours, show, span, sum, terminalWidth } from './format.ts';
import type { ApiClient } from './http.ts';
import type { CalendarSource } from './dates.ts';
import { findClient, findProject, findTask, findUserId, isUserRef, me } from './lookups.ts';
import { boolOption, entrySentence, type Entry } from './timer.ts';

/**
 * `sheaf log` (a completed entry: --hours, or --from/--to wall-clock times)
 * and `sheaf entries` (the time entries list with its filters, by default
 * your own of this week, as the workspace counts weeks). `sheaf export`
 * shares the filters.
 */

const log: ClientCommand<{ project: string; task?: string; date: string; hours?: number; from?: string; to?: string; notes?: string; billable?: boolean }> = {
  name: 'log',
  usage: '--project ID|CODE|NAME [--task ID|NAME] (--hours H | --from HH:MM --to HH:MM) [--date YYYY-MM-DD|today|yesterday] [--notes TEXT] [--billable true|false]',
  summary: 'log completed time (source cli): --hours as decimal hours (1.5), or --from/--to in the workspace\'s time zone; --date defaults to today',
  options: { project: str, task: str, hours: str, from: str, to: str, date: str, notes: str, billable: str },
  parse(v) {
    if (!v.project) throw new UsageError('--project is required (an id, a code or a name; see "sheaf projects").');
    const from = parseClock(v.from, '--from');
    const to = parseClock(v.to, '--to');
    if (v.hours !== undefined && (from || to)) throw new UsageError('Give --hours, or --from and --to, not both.');
    if (v.hours === undefined && !(from && to)) throw new UsageError('Give --hours H, or --from HH:MM and --to HH:MM.');
    let hours: number | undefined;
    if (v.hours !== undefined) {
      if (!/^\d{1,2}(\.\d{1,6})?$/.test(v.hours) || new Decimal(v.hours).gt(24)) {
        throw new UsageError(`--hours must be decimal hours from 0 to 24 (at most 6 decimals), such as 1.5, not '${v.hours}'.`);
      }
      hours = Number(v.hours);
    }
    if (from && to && to <= from) throw new UsageError(`--to (${to}) must be after --from (${from}).`);
    return { project: v.project, task: v.task, date: parseDate(v.date ?? 'today', '--date')!, hours, from, to, notes: v.notes, billable: boolOption(v.billable, '--billable') };
  },
  async run({ api, output, calendar }, input) {
    const client = await api();
    const project = await findProject(client, input.project);
    const task = await findTask(client, project.id, input.task);
    const entry = await client.json<Entry>('POST', '/api/v2/time_entries', {
      json: {
        project_id: project.id,
        task_id: task.id,
        spent_date: await dateOn(input.date, calendar),
        source: 'cli',
        ...(input.hours !== undefined ? { hours: input.hours } : { started_time: input.from, ended_time: input.to }),
        ...(input.notes !== undefined ? { notes: input.notes } : {}),
        ...(input.billable !== undefined ? { billable: input.billable } : {}),
      },
    });
    show(output, entry, () => `Logged: ${entrySentence(entry, project.name)}`);
  },
};

/** The list filters `entries` and `export` take (the API's time entries filters, by name where a person has one). */
export const FILTER_OPTIONS: Options = {
  week: str,
  from: str,
  to: str,
  date: str,
  project: str,
  task: str,
  client: str,
  user: str,
  billed: str,
  running: str,
  source: str,
};
export const FILTER_USAGE =
  '[--week current|last|YYYY-Www | --date D | --from D --to D] [--project P] [--task ID|NAME] [--client C] [--user me|all|ID|EMAIL] [--billed B] [--running B] [--source S]';

export interface EntryFilters {
  range: RangeInput;
  project?: string;
  task?: string;
  client?: string;
  user: string;
  billed?: boolean;
  running?: boolean;
  source?: string;
}

export function parseFilters(v: Values, fallback: 'week' | 'none'): EntryFilters {
  if (v.task && !/^[0-9a-f-]{36}$/i.test(v.task) && !v.project) throw new UsageError('--task by name needs --project (or give the task id).');
  if (v.user && v.user !== 'me' && v.user !== 'all' && !isUserRef(v.user)) throw new UsageError(`--user must be me, all, a user id or an e-mail address, not '${v.user}'.`);
  return {
    range: dateRange(v, fallback),
    project: v.project,
    task: v.task,
    client: v.client,
    user: v.user ?? 'me',
    billed: boolOption(v.billed, '--billed'),
    running: boolOption(v.running, '--running'),
    source: v.source,
  };
}

/** The filters as the API's query (names looked up; --user me is the key's user). */
export async function filterQuery(api: ApiClient, calendar: CalendarSource, f: EntryFilters): Promise<Record<string, string | boolean | undefined>> {
  const range = await rangeOn(f.range, calendar);
  const project = f.project ? await findProject(api, f.project) : undefined;
  const task = f.task ? (/^[0-9a-f-]{36}$/i.test(f.task) ? { id: f.task } : await findTask(api, project!.id, f.task)) : undefined;
  const client = f.client ? await findClient(api, f.client) : undefined;
  const userId = f.user === 'all' ? undefined : f.user === 'me' ? (await me(api)).id : await findUserId(api, f.user, '--user');
  return {
    from: range.from,
    to: range.to,
    project_id: project?.id,
    task_id: task?.id,
    client_id: client?.id,
    user_id: userId,
    is_billed: f.billed,
    is_running: f.running,
    source: f.source,
  };
}

const entries: ClientCommand<EntryFilters> = {
  name: 'entries',
  usage: FILTER_USAGE,
  summary: 'list time entries (default: your own of this week; --user all for everyone you may see), with the total hours',
  options: FILTER_OPTIONS,
  parse: (v) => parseFilters(v, 'week'),
  async run({ api, output, calendar }, input) {
    const client = await api();
    const query = await filterQuery(client, calendar, input);
    const list = await client.all<Entry>('/api/v2/time_entries', 'time_entries', query);
    if (output.json) return show(output, list, () => '');
    const projects = new Map((await client.all<{ id: string; name: string }>('/api/v2/projects', 'projects')).map((p) => [p.id, p.name]));
    // Someone else's or everyone's entries say whose they are (entries carry only user_id).
    const people =
      input.user === 'me'
        ? null
        : new Map(
            (await client.all<{ id: string; first_name: string; last_name: string }>('/api/v2/users', 'users')).map((u) => [u.id, `${u.first_name} ${u.last_name}`.trim()]),
          );
    const range = query.from || query.to ? ` (${query.from ?? '…'} to ${query.to ?? '…'})` : '';
    const table = grid(
      list,
      [
        { title: 'date', value: (e) => e.spent_date },
        ...(people ? [{ title: 'person', value: (e: Entry) => people.get(e.user_id) ?? e.user_id }] : []),
        { title: 'time', value: (e) => span(e) },
        { title: 'hours', value: (e) => `${hours(e.hours)}${e.is_running ? '*' : ''}`, align: 'right' },
        { title: 'project', value: (e) => projects.get(e.project_id) ?? e.project_id },
        { title: 'task', value: (e) => e.task?.name },
        { title: 'notes', value: (e) => e.notes, shrink: true },
        { title: 'billable', value: (e) => (e.billable ? 'yes' : 'no') },
        { title: 'status', value: (e) => e.approval_status },
        { title: 'id', value: (e) => e.id },
      ],
      terminalWidth(output),
    );
    const billable = hours(sum(list.filter((e) => e.billable).map((e) => e.hours)));
    output.out(
      list.length
        ? `${table}\n\n${list.length} ${list.length === 1 ? 'entry' : 'entries'}${range}: ${hours(sum(list.map((e) => e.hours)))} h, billable ${billable} h${list.some((e) => e.is_running) ? ' (* running)' : ''}`
        : `No entries${range}.`,
    );
  },
};

export const timeCommands: ClientCommand<any>[] = [log, entries];
