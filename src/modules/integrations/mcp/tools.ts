import { z } from 'zod';
import { isIsoDate } from '../../../time/workspace-time.ts';
import { LLM_USAGE_CATEGORY } from '../../tracking/expense-categories/index.ts';
import { path, type ApiCaller } from './api-caller.ts';
import { ApiRefusal, ToolRefusal, allPages, flag, myUserId, ok, workspaceCalendar } from './calls.ts';
import { WEEK_STARTS, summarizeWeek, today, weekContaining, type EntryLike, type ProjectLike, type WeekStartDay } from './rules.ts';

/**
 * The MCP tools. Each one is a call (or a few) of the public API with the caller's own
 * credential: the API's schemas validate the arguments, the access module decides, and
 * a refusal carries the API's message. The schemas here describe the arguments for an
 * agent (names, types, what they mean); the rules (formats, ranges, what exists) are the
 * API's, so they are not repeated here. What the MCP server adds: `source: "agent"` on
 * everything it records, finding the caller's running timer, the LLM-usage category, a
 * week's sums.
 */

export interface ToolContext {
  api: ApiCaller;
  now: () => Date;
}

interface ToolDef<S extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** Reads only (no change in Sheaf). */
  readOnly: boolean;
  /** The tool's argument behind an API field a refusal names, where the names differ (total_cost is cost). */
  argumentOf?: Record<string, string>;
  run(ctx: ToolContext, args: z.infer<S>): Promise<unknown>;
}

const tool = <S extends z.ZodObject>(def: ToolDef<S>) => def;
/** Unknown arguments are refused (a misspelt `hour` would otherwise be dropped silently). */
const args = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

const id = (what: string) => z.string().describe(what);
const date = (what: string) => z.string().describe(`${what} (YYYY-MM-DD).`);
const page = {
  page: z.number().int().optional().describe('Page number, from 1 (default 1).'),
  per_page: z.number().int().optional().describe('Records per page (default 100, at most 2000).'),
};
/** The reports page by project or person: the API's default page is its largest. */
const reportPage = {
  page: page.page,
  per_page: z.number().int().optional().describe('Rows per page (default and at most 2000).'),
};
const timeZone = z
  .string()
  .optional()
  .describe("IANA time zone for 'today' (e.g. Europe/Berlin); default the workspace's, in which Sheaf dates entries.");

/** Today in the zone the agent named, else in the workspace's (read only when needed). */
const todayFor = async (ctx: ToolContext, timeZone: string | undefined) => today(ctx.now(), timeZone ?? (await workspaceCalendar(ctx.api)).timeZone);

const projectAndTask = {
  project_id: id('The project (list_projects).'),
  task_id: id('A task actively assigned to that project (list_tasks with project_id).'),
};

export const TOOLS = [
  tool({
    name: 'start_timer',
    title: 'Start a timer',
    description:
      'Starts a running timer for you on a project and task (a time entry with is_running true, source "agent"). Only one timer runs per person: if one runs already, the answer is a 409 running_timer_conflict naming it, unless replace_running is true (then that one is stopped first). Returns the new time entry.',
    input: args({
      ...projectAndTask,
      notes: z.string().optional().describe('What the work is.'),
      spent_date: date('Day of the work; default today in the workspace time zone').optional(),
      started_time: z.string().optional().describe('HH:mm in the workspace time zone when the work started; default now.'),
      billable: z.boolean().optional().describe('Overrides whether the time is billable (default: as the project and task say).'),
      replace_running: z.boolean().optional().describe('Stop your running timer first instead of refusing.'),
    }),
    readOnly: false,
    run: ({ api }, a) => ok(api, 'POST', '/time_entries', { body: { ...a, is_running: true, source: 'agent' } }),
  }),
  tool({
    name: 'stop_timer',
    title: 'Stop a timer',
    description:
      'Stops a running timer; the server measures the elapsed time. Without time_entry_id it stops your own running timer. Returns the stopped time entry (hours, started_time, ended_time).',
    input: args({
      time_entry_id: id('The running entry; default your own running timer.').optional(),
      notes: z.string().optional().describe('Replaces the entry notes.'),
    }),
    readOnly: false,
    async run({ api }, a) {
      let entryId = a.time_entry_id;
      if (entryId === undefined) {
        const me = await myUserId(api);
        const running = await ok<{ time_entries: { id: string }[] }>(api, 'GET', '/time_entries', { query: { user_id: me, is_running: 'true', per_page: 1 } });
        if (!running.time_entries.length) throw new ToolRefusal('No timer of yours is running: start one with start_timer.');
        entryId = running.time_entries[0].id;
      }
      return ok(api, 'PATCH', path`/time_entries/${entryId}/stop`, { body: a.notes === undefined ? {} : { notes: a.notes } });
    },
  }),
  tool({
    name: 'log_time',
    title: 'Log time',
    description:
      'Records completed work as a time entry with source "agent": either hours, or started_time and ended_time (HH:mm, workspace time zone). The entry is yours unless user_id names someone whose time you may enter. Returns the new time entry.',
    input: args({
      ...projectAndTask,
      spent_date: date('Day of the work'),
      hours: z.number().optional().describe('Decimal hours, e.g. 1.5.'),
      started_time: z.string().optional().describe('HH:mm, with ended_time instead of hours.'),
      ended_time: z.string().optional().describe('HH:mm, with started_time.'),
      notes: z.string().optional().describe('What was done.'),
      billable: z.boolean().optional().describe('Overrides whether the time is billable.'),
      user_id: id("Whose time (default yours); administrators and managers may enter others' time.").optional(),
      metadata: z.record(z.string(), z.unknown()).optional().describe('Any JSON object of at most 4 KB, kept with the entry (e.g. the agent run).'),
      external_reference: z.record(z.string(), z.unknown()).optional().describe('The item in another system: {id, permalink?, service?, display_name?, …}.'),
    }),
    readOnly: false,
    run: ({ api }, a) => ok(api, 'POST', '/time_entries', { body: { ...a, source: 'agent' } }),
  }),
  tool({
    name: 'record_llm_usage',
    title: 'Record LLM usage',
    description: `Records what a language model cost as an expense on a project, in the workspace's "${LLM_USAGE_CATEGORY}" expense category, with source "agent". The model and token counts are kept in the expense's metadata and notes. cost is the amount in the currency of the project's client (else the workspace's), at most two decimals. Returns the new expense.`,
    input: args({
      project_id: id('The project the usage is for (list_projects).'),
      model: z.string().min(1).describe('The model, e.g. claude-sonnet-4.'),
      cost: z.number().describe('The amount, e.g. 0.42.'),
      input_tokens: z.number().int().nonnegative().optional().describe('Prompt tokens.'),
      output_tokens: z.number().int().nonnegative().optional().describe('Completion tokens.'),
      spent_date: date('Day of the usage; default today').optional(),
      time_zone: timeZone,
      notes: z.string().optional().describe('Default: the model and token counts.'),
      billable: z.boolean().optional().describe('Whether the client is charged for it.'),
    }),
    readOnly: false,
    argumentOf: { total_cost: 'cost', metadata: 'model' },
    async run(ctx, a) {
      const { api } = ctx;
      const categories = await allPages<{ id: string; name: string }>(api, '/expense_categories', 'expense_categories', { is_active: 'true' });
      const category = categories.find((c) => c.name.toLowerCase() === LLM_USAGE_CATEGORY.toLowerCase());
      if (!category) {
        throw new ToolRefusal(`The workspace has no active expense category named "${LLM_USAGE_CATEGORY}": an administrator can create it (or make it active) under Settings, Expense categories.`);
      }
      const tokens = [a.input_tokens !== undefined && `${a.input_tokens} input`, a.output_tokens !== undefined && `${a.output_tokens} output`].filter(Boolean);
      return ok(api, 'POST', '/expenses', {
        body: {
          project_id: a.project_id,
          expense_category_id: category.id,
          spent_date: a.spent_date ?? (await todayFor(ctx, a.time_zone)),
          total_cost: a.cost,
          notes: a.notes ?? `${a.model}${tokens.length ? `: ${tokens.join(' + ')} tokens` : ''}`,
          billable: a.billable,
          source: 'agent',
          metadata: { model: a.model, input_tokens: a.input_tokens, output_tokens: a.output_tokens },
        },
      });
    },
  }),
  tool({
    name: 'list_projects',
    title: 'List projects',
    description:
      'The projects you may see (members: the ones assigned to them), with their client. Rates, fees and budgets appear only when your role may see them. Use the ids with the other tools.',
    input: args({
      is_active: z.boolean().optional().describe('true: active only; false: archived only; default both.'),
      client_id: id("Only this client's projects.").optional(),
      ...page,
    }),
    readOnly: true,
    run: ({ api }, a) => ok(api, 'GET', '/projects', { query: { ...a, is_active: flag(a.is_active) } }),
  }),
  tool({
    name: 'list_tasks',
    title: 'List tasks',
    description: 'Tasks of the workspace; with project_id, the tasks actively assigned to that project (the ones time on it may use), with their budget where you may see it.',
    input: args({
      project_id: id('Only tasks assigned to this project.').optional(),
      is_active: z.boolean().optional().describe('true: active only; false: archived only.'),
      ...page,
    }),
    readOnly: true,
    run: ({ api }, a) => ok(api, 'GET', '/tasks', { query: { ...a, is_active: flag(a.is_active) } }),
  }),
  tool({
    name: 'list_people',
    title: 'List people',
    description:
      'The people of the workspace with their ids (for user_id in the other tools) and names. Administrators and managers also get e-mail addresses, roles and agent identities; members get the directory of people.',
    input: args({ is_active: z.boolean().optional().describe('true: active only; false: deactivated only; default both.'), ...page }),
    readOnly: true,
    run: ({ api }, a) => ok(api, 'GET', '/users', { query: { ...a, is_active: flag(a.is_active) } }),
  }),
  tool({
    name: 'list_time_entries',
    title: 'List time entries',
    description:
      'Time entries you may see (members: their own; managers: their teammates\u2019 and those on projects they manage too; administrators: everyone\u2019s), newest first, filtered. from and to are inclusive work dates. The envelope (page, total_pages, total_entries) says whether to ask for the next page. Another person\u2019s user_id is refused when you may not read their time, and not found when you cannot see them (list_people has the ids).',
    input: args({
      from: date('First work day').optional(),
      to: date('Last work day').optional(),
      user_id: id("Only this person's entries.").optional(),
      project_id: id('Only this project.').optional(),
      task_id: id('Only this task.').optional(),
      client_id: id("Only this client's projects.").optional(),
      is_running: z.boolean().optional().describe('true: running timers only.'),
      is_billed: z.boolean().optional().describe('true: invoiced only; false: not yet invoiced.'),
      source: z.string().optional().describe('Only entries from this source: web, cli, api, agent, calendar or desktop.'),
      ...page,
    }),
    readOnly: true,
    async run(ctx, a) {
      const { api } = ctx;
      if (a.user_id !== undefined && a.user_id.toLowerCase() !== (await myUserId(api))) {
        const day = a.to ?? a.from ?? (await todayFor(ctx, undefined));
        await mayReadTimeOf(api, a.user_id, { from: day, to: day }, { whole: false });
      }
      return ok(api, 'GET', '/time_entries', { query: { ...a, is_running: flag(a.is_running), is_billed: flag(a.is_billed) } });
    },
  }),
  tool({
    name: 'summarize_week',
    title: 'Summarize a week',
    description:
      'One person\u2019s week (default yours, default this week): hours per day and per project, billable and not billable, and how many timers run (counted with their hours so far). Hours are as tracked, before the workspace rounding. Another person\u2019s week needs a role that reads all their time (administrators: everyone\u2019s; managers: their teammates\u2019); list_people has the ids.',
    input: args({
      date: date('Any day of the week; default today').optional(),
      week_start: z.enum(WEEK_STARTS).optional().describe("The first day of a week (default the workspace's)."),
      time_zone: timeZone,
      user_id: id('Whose week (default yours; list_people has the ids).').optional(),
    }),
    readOnly: true,
    run: async ({ api, now }, a) => weekOf(api, now(), a),
  }),
  tool({
    name: 'draft_invoice',
    title: 'Draft an invoice from uninvoiced work',
    description:
      "Creates a DRAFT invoice for a client from its billable, not yet invoiced time and expenses (nothing is sent). Project rates, the workspace rounding and the approval policy apply; the work imported is marked billed, so it is never invoiced twice. Without from/to all outstanding work is imported; without project_ids all of the client's projects. Needs a role that may create invoices. Returns the invoice with its line_items.",
    input: args({
      client_id: id('The client to invoice (list_projects shows each project\u2019s client).'),
      project_ids: z.array(z.string()).optional().describe('Only these projects of the client.'),
      from: date('Work from this day').optional(),
      to: date('Work up to this day').optional(),
      include_time: z.boolean().optional().describe('Import time (default true).'),
      include_expenses: z.boolean().optional().describe('Import expenses (default true).'),
      time_summary_type: z.string().optional().describe('One line per project (default), task, people, or detailed (one per entry).'),
      expenses_summary_type: z.string().optional().describe('One line per project (default), category, people, or detailed (one per expense).'),
      subject: z.string().optional(),
      issue_date: date('Issue date; default today').optional(),
      due_date: date('Due date; default from the payment term').optional(),
      payment_term: z.string().optional().describe('upon_receipt, net_15, net_30, net_45, net_60 or custom.'),
      purchase_order: z.string().optional(),
      notes: z.string().optional(),
    }),
    readOnly: false,
    argumentOf: {
      'line_items_import.project_ids': 'project_ids',
      'line_items_import.time.from': 'from',
      'line_items_import.time.to': 'to',
      'line_items_import.expenses.from': 'from',
      'line_items_import.expenses.to': 'to',
      'line_items_import.time.summary_type': 'time_summary_type',
      'line_items_import.expenses.summary_type': 'expenses_summary_type',
    },
    run({ api }, a) {
      const { project_ids, from, to, include_time, include_expenses, time_summary_type, expenses_summary_type, ...invoice } = a;
      const part = (summary: string) => ({ summary_type: summary, from, to });
      return ok(api, 'POST', '/invoices', {
        body: {
          ...invoice,
          line_items_import: {
            project_ids,
            time: include_time === false ? undefined : part(time_summary_type ?? 'project'),
            expenses: include_expenses === false ? undefined : part(expenses_summary_type ?? 'project'),
          },
        },
      });
    },
  }),
  tool({
    name: 'report_uninvoiced',
    title: 'Report: uninvoiced work',
    description:
      'Per project: billable work not yet invoiced between from and to (inclusive, at most 365 days): hours, expenses and the amount at the rates in force on each work day; fixed-fee projects their remaining fee. Needs a role that may view billable rates and invoices.',
    input: args({
      from: date('First work day'),
      to: date('Last work day'),
      include_fixed_fee: z.boolean().optional().describe('Include fixed-fee projects (default true).'),
      ...reportPage,
    }),
    readOnly: true,
    run: ({ api }, a) => ok(api, 'GET', '/reports/uninvoiced', { query: { ...a, include_fixed_fee: flag(a.include_fixed_fee) } }),
  }),
  tool({
    name: 'report_project_budget',
    title: 'Report: project budgets',
    description: 'Per project: budget, spent and remaining (hours or money, as budget_by says). Needs a role that may view billable rates.',
    input: args({ is_active: z.boolean().optional().describe('Only active (true) or archived (false) projects.'), ...reportPage }),
    readOnly: true,
    run: ({ api }, a) => ok(api, 'GET', '/reports/project_budget', { query: { ...a, is_active: flag(a.is_active) } }),
  }),
  tool({
    name: 'report_time_team',
    title: 'Report: time per person',
    description:
      'Per person between from and to (inclusive): total and billable hours (rounded by the workspace rule) and, for roles that may view billable rates, billable amounts per currency. Administrators see everyone, managers themselves and their teammates.',
    input: args({ from: date('First work day'), to: date('Last work day'), ...reportPage }),
    readOnly: true,
    run: ({ api }, a) => ok(api, 'GET', '/reports/time/team', { query: a }),
  }),
];

/** A person's week: the summary and the entries it sums (the summarize_week tool and the current-week resource). */
/** The summary of the week holding `date` (default today), with the workspace's zone and week start for what the agent did not name. */
export async function weekOf(api: ApiCaller, now: Date, a: { date?: string; time_zone?: string; week_start?: WeekStartDay; user_id?: string }) {
  const workspace = await workspaceCalendar(api);
  return weekSummary(api, a.date ?? today(now, a.time_zone ?? workspace.timeZone), a.week_start ?? workspace.weekStart ?? 'monday', a.user_id);
}

async function weekSummary(api: ApiCaller, day: string, weekStart: WeekStartDay, userId?: string) {
  if (!isIsoDate(day)) throw new ToolRefusal(`date must be a day as YYYY-MM-DD, not '${day}'.`);
  const me = await myUserId(api);
  const user = userId ?? me;
  const week = weekContaining(day, weekStart);
  if (user.toLowerCase() !== me) await mayReadTimeOf(api, user, { from: week.from, to: week.to });
  const [entries, projects] = await Promise.all([
    allPages<EntryLike & { id: string }>(api, '/time_entries', 'time_entries', { user_id: user, from: week.from, to: week.to }),
    allPages<ProjectLike>(api, '/projects', 'projects'),
  ]);
  return { user_id: user, ...summarizeWeek(week, entries, projects), entries };
}

/**
 * The time entries list leaves out what the caller may not see, so someone else's week would
 * be an empty or partial week for a person who does not exist, is out of sight, or whose time
 * the caller sees only on the projects they manage, and an agent would report it as the
 * person's week. So the API is asked first: the team report lists whose time the caller reads
 * whole (administrators: everyone; managers: themselves and their teammates; members: a 403),
 * and the users list whether the person is there at all (else not found). With `whole: false`
 * (a list of entries, which may be narrowed to a managed project) only those two are asked.
 */
async function mayReadTimeOf(api: ApiCaller, userId: string, period: { from: string; to: string }, { whole } = { whole: true }) {
  const id = userId.toLowerCase();
  const othersRefused = (err: unknown): never => {
    if (err instanceof ApiRefusal && err.answer.status === 403) throw new ToolRefusal('You may read only your own time: leave user_id out (or give your own id).');
    throw err;
  };
  if (whole) {
    const team = await allPages<{ user_id: string }>(api, '/reports/time/team', 'results', period).catch(othersRefused);
    if (team.some((r) => r.user_id === id)) return;
  } else {
    // Whether any other person's time may be read at all: the report's 403 alone, one row asked for.
    await ok(api, 'GET', '/reports/time/team', { query: { ...period, per_page: 1 } }).catch(othersRefused);
  }
  const people = await allPages<{ id: string; first_name: string; last_name: string }>(api, '/users', 'users');
  const person = people.find((p) => p.id === id);
  if (!person) throw new ToolRefusal(`Not found: no person with user_id '${userId}' in this workspace that you can see (field: user_id).`);
  if (!whole) return;
  // Administrators' team report lists everyone active and anyone with time in the period: a
  // person missing from it has no time there, so 0 hours is their week.
  const { roles } = await ok<{ roles: string[] }>(api, 'GET', '/users/me');
  if (roles.includes('administrator')) return;
  throw new ToolRefusal(
    `${person.first_name} ${person.last_name} is not your teammate: you see their time only on the projects you manage, so this would not be their week. Use list_time_entries with user_id and project_id for a project you manage.`,
  );
}
