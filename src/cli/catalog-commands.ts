import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { ApiError } from '../errors.ts';
import { isId } from '../ids.ts';
import { isIsoDate } from '../time/workspace-time.ts';
import { presentTask, NEW_TASK, applyTaskInput, type TaskInput, createTask, listTasks, resolveTask, updateTask } from '../modules/catalog/tasks/index.ts';
import { presentAssignment, type PresentedAssignment, parseAssignmentInput, type AssignmentInput, assignTask, listTaskAssignments, unassignTask } from '../modules/catalog/task-assignments/index.ts';
import { hourlyRate, rateScope, changeRate, listRates } from '../modules/catalog/rates/index.ts';
import { type ProjectAssignmentRow, validateProjectAssignmentInput, type ProjectAssignmentInput, addProjectAssignment, listProjectAssignments, deleteProjectUserAssignment, updateProjectAssignment } from '../modules/catalog/project-assignments/index.ts';
import { operatorPrincipal } from '../access/operator.ts';
import type { AdminCommand } from './admin.ts';
import { str, type Options, type Values } from './command.ts';
import { fields, print, table, UsageError, withMoney } from './output.ts';
import { formatMoney } from '../money.ts';
import { bool, required, workspaceOption } from './options.ts';
import { requireWorkspace, resolveUser } from './lookups.ts';

/**
 * `sheaf admin task|rate|assignment ...`: the operator's commands for workspace
 * tasks, task assignments (with their budgets and rates), effective-dated rates
 * and project user assignments. They call the same services as the API, as the
 * operator (src/access/operator.ts). Options are checked by the services' own
 * pure rules before the database is opened, so bad input exits 2 and changes
 * nothing.
 */

// ---------------------------------------------------------------- option parsing (no database)

function projectOption(values: Values, optional: true): string | undefined;
function projectOption(values: Values): string;
function projectOption(values: Values, optional = false): string | undefined {
  const id = optional ? values.project : required(values, 'project');
  if (id === undefined) return undefined;
  if (!isId(id)) throw new UsageError(`--project must be a project id, not '${id}'.`);
  return id;
}

/** A user reference: a user id or an e-mail address. */
function userOption(values: Values, optional: true): string | undefined;
function userOption(values: Values): string;
function userOption(values: Values, optional = false): string | undefined {
  const ref = optional ? values.user : required(values, 'user');
  if (ref === undefined) return undefined;
  if (!ref.includes('@') && !isId(ref)) throw new UsageError(`--user must be a user id or an e-mail address, not '${ref}'.`);
  return ref;
}

/** A task reference: its id or its name (ignoring case). */
function taskOption(values: Values, optional: true): string | undefined;
function taskOption(values: Values): string;
function taskOption(values: Values, optional = false): string | undefined {
  const ref = optional ? values.task : required(values, 'task');
  if (ref !== undefined && !ref.trim()) throw new UsageError('--task needs a task id or name.');
  return ref;
}

function dateOption(values: Values, name: string): string | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  if (!isIsoDate(v)) throw new UsageError(`--${name} must be a date YYYY-MM-DD, not '${v}'.`);
  return v;
}

/** Empty, `none` or `-` clears a value. */
const isClear = (v: string) => v === '' || v === 'none' || v === '-';

/**
 * Runs a service rule on command-line input; its 400 becomes a usage error that
 * names the option the user typed instead of the API field.
 */
function checked<T>(options: Record<string, string>, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 400) {
      const field = typeof err.extras.field === 'string' ? err.extras.field : '';
      const option = options[field] ?? `--${field.replaceAll('_', '-')}`;
      const message = field && err.message.startsWith(`${field} `) ? `${option}${err.message.slice(field.length)}` : err.message;
      throw new UsageError(message);
    }
    throw err;
  }
}

/** Names an API error's field by the option it came from (for errors raised while running). */
function optionError<T>(options: Record<string, string>) {
  return (err: unknown): T => {
    if (err instanceof ApiError && typeof err.extras.field === 'string' && options[err.extras.field]) {
      const field = err.extras.field;
      const option = options[field];
      const message = err.message.startsWith(`${field} `) ? `${option}${err.message.slice(field.length)}` : err.message;
      throw new ApiError(err.code, message, { ...err.extras, field: option.replace(/^--/, '') });
    }
    throw err;
  };
}

const TASK_FIELD_OPTIONS = {
  name: '--name',
  billable_by_default: '--billable-by-default',
  default_hourly_rate: '--default-hourly-rate',
  is_default: '--is-default',
  is_active: '--active',
};

const ASSIGNMENT_FIELD_OPTIONS = {
  budget: '--budget',
  billable: '--billable',
  hourly_rate: '--rate',
  hourly_rate_effective_from: '--from',
  task_id: '--task',
  is_active: '--active',
};

const TASK_OPTIONS = {
  workspace: str,
  name: str,
  'billable-by-default': str,
  'default-hourly-rate': str,
  'is-default': str,
  active: str,
} satisfies Options;

const TASK_USAGE = '[--billable-by-default B] [--default-hourly-rate R|none] [--is-default B] [--active B]';

function taskFrom(values: Values): TaskInput {
  const t: TaskInput = {};
  if (values.name !== undefined) t.name = values.name;
  const billable = bool(values, 'billable-by-default');
  if (billable !== undefined) t.billable_by_default = billable;
  const isDefault = bool(values, 'is-default');
  if (isDefault !== undefined) t.is_default = isDefault;
  const active = bool(values, 'active');
  if (active !== undefined) t.is_active = active;
  const rate = values['default-hourly-rate'];
  if (rate !== undefined) t.default_hourly_rate = isClear(rate) ? null : rate;
  checked(TASK_FIELD_OPTIONS, () => applyTaskInput({ ...NEW_TASK, name: 'x' }, t));
  return t;
}

function assignmentFrom(values: Values): AssignmentInput {
  const a: AssignmentInput = {};
  const budget = values.budget;
  if (budget !== undefined) a.budget = isClear(budget) ? null : budget;
  const billable = bool(values, 'billable');
  if (billable !== undefined) a.billable = billable;
  if (values.rate !== undefined) a.hourly_rate = values.rate;
  const from = dateOption(values, 'from');
  if (from !== undefined) {
    if (values.rate === undefined) throw new UsageError('--from applies only together with --rate.');
    a.hourly_rate_effective_from = from;
  }
  checked(ASSIGNMENT_FIELD_OPTIONS, () => parseAssignmentInput(a));
  return a;
}

type Kind = 'billable' | 'cost';

interface ScopeRefs {
  kind: Kind;
  project?: string;
  task?: string;
  user?: string;
}

/** --kind with --project/--task/--user: checked against the allowed scopes before the database is opened. */
function scopeFrom(values: Values): ScopeRefs {
  const kind = required(values, 'kind');
  if (kind !== 'billable' && kind !== 'cost') throw new UsageError(`--kind must be billable or cost, not '${kind}'.`);
  const refs: ScopeRefs = { kind, project: projectOption(values, true), task: taskOption(values, true), user: userOption(values, true) };
  try {
    rateScope(kind, { projectId: refs.project, taskId: refs.task, userId: refs.user });
  } catch {
    throw new UsageError(
      kind === 'cost'
        ? 'A cost rate belongs to a person: give --user and neither --project nor --task.'
        : 'A billable rate takes --project; --project and --task; --project and --user; or --user alone.',
    );
  }
  return refs;
}

const SCOPE_USAGE = '--kind billable|cost [--project ID] [--task ID|NAME] [--user ID|EMAIL]';

// ---------------------------------------------------------------- database look-ups

/**
 * The currency a rate is charged in, for its amounts in text output: a
 * project's work is in its client's currency (else the workspace's, as the
 * reports price it); a task's or a person's default rate is in the workspace's.
 */
async function rateCurrency(db: Kysely<DB>, id: string, projectId: string | undefined): Promise<string> {
  const { currency } = await requireWorkspace(db, id);
  if (!projectId || !isId(projectId)) return currency;
  const row = await db
    .selectFrom('projects as p')
    .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 'p.company_id').onRef('c.id', '=', 'p.client_id'))
    .select('c.currency')
    .where('p.company_id', '=', id)
    .where('p.id', '=', projectId.toLowerCase())
    .executeTakeFirst();
  return row?.currency ?? currency;
}

async function resolveTaskId(db: Kysely<DB>, companyId: string, ref: string): Promise<string> {
  try {
    return (await resolveTask(db, companyId, ref)).id;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') {
      throw new ApiError('not_found', `No task '${ref}' in this workspace (see "sheaf admin task list").`, { field: 'task' });
    }
    throw err;
  }
}

/** Not-found errors of the services, said in the command's terms. */
function explainNotFound(err: unknown): never {
  if (err instanceof ApiError && err.code === 'not_found' && err.extras.field === undefined) {
    const what = /^The (.+) was not found\.$/.exec(err.message)?.[1];
    const hint =
      what === 'project'
        ? 'No such project in this workspace.'
        : what === 'task assignment'
          ? 'The task is not assigned to this project (see "sheaf admin task list --project").'
          : what === 'project assignment'
            ? 'The member is not assigned to this project (see "sheaf admin assignment list").'
            : err.message;
    throw new ApiError('not_found', hint, err.extras);
  }
  throw err;
}

// ---------------------------------------------------------------- views

const operatorTaskView = { rates: true, budget: false };

const TASK_COLUMNS = ['id', 'name', 'billable_by_default', 'default_hourly_rate', 'is_default', 'is_active'];
const ASSIGNMENT_COLUMNS = ['task_id', 'task_name', 'is_active', 'billable', 'budget', 'hourly_rate', 'hourly_rate_effective_from'];
const PROJECT_ASSIGNMENT_COLUMNS = ['project_id', 'project_name', 'user_id', 'email', 'role', 'is_project_manager', 'is_active', 'budget'];

/** A task assignment for human output; its rate in the minor units of the project's currency. */
const assignmentLine = (a: PresentedAssignment, currency: string) => {
  const { task, ...rest } = a;
  return withMoney({ ...rest, task_name: task.name }, currency, ['hourly_rate']);
};

const projectAssignmentView = (a: ProjectAssignmentRow) => ({
  project_id: a.project_id,
  project_name: a.project_name,
  user_id: a.user_id,
  email: a.email,
  first_name: a.first_name,
  last_name: a.last_name,
  role: a.role,
  is_project_manager: a.is_project_manager,
  is_active: a.is_active,
  budget: number(a.budget),
  created_at: a.created_at,
  updated_at: a.updated_at,
});

const number = (v: string | null) => (v === null ? null : Number(v));

// ---------------------------------------------------------------- commands

const admin = <T>(c: AdminCommand<T>) => c;

const commands = [
  admin({
    name: 'admin task create',
    usage: `--workspace ID --name N ${TASK_USAGE}`,
    summary: 'create a workspace task',
    options: TASK_OPTIONS,
    parse: (values) => {
      const id = workspaceOption(values);
      required(values, 'name');
      return { id, task: taskFrom(values) as TaskInput & { name: string } };
    },
    async run({ db, output, clock }, { id, task }) {
      const { currency } = await requireWorkspace(db, id);
      const { row } = await createTask(db, id, operatorPrincipal(id), task, clock()).catch(optionError<never>(TASK_FIELD_OPTIONS));
      const view = presentTask(row, operatorTaskView);
      print(output, view, () => fields(withMoney(view, currency, ['default_hourly_rate'])));
    },
  }),
  admin({
    name: 'admin task update',
    usage: `--workspace ID --task ID|NAME [--name N] ${TASK_USAGE}`,
    summary: 'change a task (--active false archives it)',
    options: { ...TASK_OPTIONS, task: str },
    parse: (values) => {
      const id = workspaceOption(values);
      const task = taskOption(values);
      const changes = taskFrom(values);
      if (Object.keys(changes).length === 0) throw new UsageError('Name at least one thing to change.');
      return { id, task, changes };
    },
    async run({ db, output, clock }, { id, task, changes }) {
      const { currency } = await requireWorkspace(db, id);
      const taskId = await resolveTaskId(db, id, task);
      const { row } = await updateTask(db, id, operatorPrincipal(id), taskId, changes, { now: clock() }).catch(optionError<never>(TASK_FIELD_OPTIONS));
      const view = presentTask(row, operatorTaskView);
      print(output, view, () => fields(withMoney(view, currency, ['default_hourly_rate'])));
    },
  }),
  admin({
    name: 'admin task list',
    usage: '--workspace ID [--project ID] [--active B]',
    summary: "list the workspace's tasks, or with --project that project's task assignments",
    options: { workspace: str, project: str, active: str },
    parse: (values) => ({ id: workspaceOption(values), project: projectOption(values, true), active: bool(values, 'active') }),
    async run({ db, output, clock }, { id, project, active }) {
      const currency = await rateCurrency(db, id, project);
      const all = { page: 1, perPage: 1_000_000 };
      if (!project) {
        const { rows } = await listTasks(db, id, operatorPrincipal(id), { isActive: active }, all);
        const tasks = rows.map((r) => presentTask(r, operatorTaskView));
        print(output, tasks, () => table(tasks.map((t) => withMoney(t, currency, ['default_hourly_rate'])), TASK_COLUMNS));
        return;
      }
      const { rows, view } = await listTaskAssignments(db, id, operatorPrincipal(id), project, { isActive: active }, all, clock()).catch(explainNotFound);
      const assignments = rows.map((r) => presentAssignment(r, view));
      print(output, assignments, () => table(assignments.map((a) => assignmentLine(a, currency)), ASSIGNMENT_COLUMNS));
    },
  }),
  admin({
    name: 'admin task assign',
    usage: '--workspace ID --project ID --task ID|NAME [--budget N|none] [--billable B] [--rate R [--from YYYY-MM-DD]]',
    summary: 'assign a task to a project, or change and reactivate its assignment (--rate applies from --from, default today)',
    options: { workspace: str, project: str, task: str, budget: str, billable: str, rate: str, from: str },
    parse: (values) => ({
      id: workspaceOption(values),
      project: projectOption(values),
      task: taskOption(values),
      input: assignmentFrom(values),
    }),
    async run({ db, output, clock }, { id, project, task, input }) {
      const currency = await rateCurrency(db, id, project);
      const taskId = await resolveTaskId(db, id, task);
      const result = await assignTask(db, id, operatorPrincipal(id), project, taskId, input, clock())
        .catch(optionError<never>(ASSIGNMENT_FIELD_OPTIONS))
        .catch(explainNotFound);
      const view = presentAssignment(result.row, result.view);
      print(output, { ...view, created: result.created }, () =>
        [fields(assignmentLine(view, currency)), '', result.created ? 'Assigned.' : 'The assignment existed: updated and active.'].join('\n'),
      );
    },
  }),
  admin({
    name: 'admin task unassign',
    usage: '--workspace ID --project ID --task ID|NAME',
    summary: "deactivate a task's assignment to a project (its budget and rate history are kept)",
    options: { workspace: str, project: str, task: str },
    parse: (values) => ({ id: workspaceOption(values), project: projectOption(values), task: taskOption(values) }),
    async run({ db, output, clock }, { id, project, task }) {
      const currency = await rateCurrency(db, id, project);
      const taskId = await resolveTaskId(db, id, task);
      const { row, view } = await unassignTask(db, id, operatorPrincipal(id), project, taskId, clock()).catch(explainNotFound);
      const presented = presentAssignment(row, view);
      print(output, presented, () => fields(assignmentLine(presented, currency)));
    },
  }),
  admin({
    name: 'admin rate set',
    usage: `--workspace ID ${SCOPE_USAGE} --rate N|none [--from YYYY-MM-DD]`,
    summary: 'set an hourly rate from a date on (default today); earlier dates keep their rate; --rate none removes that date\'s rate',
    options: { workspace: str, kind: str, project: str, task: str, user: str, rate: str, from: str },
    parse: (values) => {
      const id = workspaceOption(values);
      const scope = scopeFrom(values);
      const raw = required(values, 'rate');
      const rate = isClear(raw) ? null : checked({ rate: '--rate' }, () => hourlyRate('rate', raw));
      return { id, scope, rate, from: dateOption(values, 'from') };
    },
    async run({ db, output, clock }, { id, scope, rate, from }) {
      const currency = await rateCurrency(db, id, scope.project);
      const resolved = await resolveScope(db, id, scope);
      const result = await changeRate(db, operatorPrincipal(id), resolved, from, rate, clock()).catch(explainNotFound);
      const shown = { ...result, hourly_rate: number(result.hourly_rate), history: result.history.map(historyLine) };
      print(output, shown, () =>
        [
          rate === null
            ? `Removed the rate from ${result.effective_from}.`
            : `Rate ${formatMoney(result.hourly_rate!, currency)} from ${result.effective_from} on (earlier dates keep their rate).`,
          '',
          historyTable(result.history, currency),
        ].join('\n'),
      );
    },
  }),
  admin({
    name: 'admin rate list',
    usage: `--workspace ID ${SCOPE_USAGE} [--on YYYY-MM-DD]`,
    summary: "show a rate scope's history and the rate in force today (or on --on)",
    options: { workspace: str, kind: str, project: str, task: str, user: str, on: str },
    parse: (values) => ({ id: workspaceOption(values), scope: scopeFrom(values), on: dateOption(values, 'on') }),
    async run({ db, output, clock }, { id, scope, on }) {
      const currency = await rateCurrency(db, id, scope.project);
      const resolved = await resolveScope(db, id, scope);
      const result = await listRates(db, operatorPrincipal(id), resolved, { on, now: clock() }).catch(explainNotFound);
      const shown = {
        ...result,
        rate_today: number(result.rate_today),
        ...(result.rate_on !== undefined ? { rate_on: number(result.rate_on) } : {}),
        history: result.history.map(historyLine),
      };
      print(output, shown, () =>
        [
          `In force today (${result.today}): ${result.rate_today === null ? 'none' : formatMoney(result.rate_today, currency)}`,
          ...(on ? [`In force on ${on}: ${result.rate_on == null ? 'none' : formatMoney(result.rate_on, currency)}`] : []),
          '',
          historyTable(result.history, currency),
        ].join('\n'),
      );
    },
  }),
  admin({
    name: 'admin assignment add',
    usage: '--workspace ID --project ID --user ID|EMAIL [--manager B] [--active B] [--budget N|none]',
    summary: 'assign a member to a project (they see it and track time on it); --manager true makes a manager its manager',
    options: { workspace: str, project: str, user: str, manager: str, active: str, budget: str },
    parse: (values) => ({
      id: workspaceOption(values),
      project: projectOption(values),
      user: userOption(values),
      input: projectAssignmentFrom(values),
    }),
    async run({ db, output, clock }, { id, project, user, input }) {
      await requireWorkspace(db, id);
      const userId = await resolveUser(db, id, user);
      const row = await addProjectAssignment(db, operatorPrincipal(id), project, userId, input, clock())
        .catch(optionError<never>({ is_project_manager: '--manager' }))
        .catch(explainNotFound);
      const view = projectAssignmentView(row);
      print(output, view, () => fields(view));
    },
  }),
  admin({
    name: 'admin assignment update',
    usage: '--workspace ID --project ID --user ID|EMAIL [--manager B] [--active B] [--budget N|none]',
    summary: "change a member's project assignment (--active false hides the project from them)",
    options: { workspace: str, project: str, user: str, manager: str, active: str, budget: str },
    parse: (values) => {
      const input = projectAssignmentFrom(values);
      if (Object.keys(input).length === 0) throw new UsageError('Name at least one thing to change (--manager, --active, --budget).');
      return { id: workspaceOption(values), project: projectOption(values), user: userOption(values), input };
    },
    async run({ db, output, clock }, { id, project, user, input }) {
      await requireWorkspace(db, id);
      const userId = await resolveUser(db, id, user);
      const row = await updateProjectAssignment(db, operatorPrincipal(id), project, userId, input, clock())
        .catch(optionError<never>({ is_project_manager: '--manager' }))
        .catch(explainNotFound);
      const view = projectAssignmentView(row);
      print(output, view, () => fields(view));
    },
  }),
  admin({
    name: 'admin assignment remove',
    usage: '--workspace ID --project ID --user ID|EMAIL',
    summary: 'remove a member from a project (they lose sight of it on their next request)',
    options: { workspace: str, project: str, user: str },
    parse: (values) => ({ id: workspaceOption(values), project: projectOption(values), user: userOption(values) }),
    async run({ db, output }, { id, project, user }) {
      await requireWorkspace(db, id);
      const userId = await resolveUser(db, id, user);
      const removed = await deleteProjectUserAssignment(db, operatorPrincipal(id), project, userId).catch(explainNotFound);
      print(output, { ...removed, removed: true }, () => `Removed ${user} from project ${project}.`);
    },
  }),
  admin({
    name: 'admin assignment list',
    usage: '--workspace ID [--project ID] [--user ID|EMAIL]',
    summary: 'list project user assignments',
    options: { workspace: str, project: str, user: str },
    parse: (values) => ({ id: workspaceOption(values), project: projectOption(values, true), user: userOption(values, true) }),
    async run({ db, output }, { id, project, user }) {
      await requireWorkspace(db, id);
      const userId = user ? await resolveUser(db, id, user) : undefined;
      const rows = (await listProjectAssignments(db, operatorPrincipal(id), { projectId: project, userId }).catch(explainNotFound)).map(projectAssignmentView);
      print(output, rows, () => table(rows, PROJECT_ASSIGNMENT_COLUMNS));
    },
  }),
];

function projectAssignmentFrom(values: Values): ProjectAssignmentInput {
  const input: ProjectAssignmentInput = {};
  const manager = bool(values, 'manager');
  if (manager !== undefined) input.is_project_manager = manager;
  const active = bool(values, 'active');
  if (active !== undefined) input.is_active = active;
  const budget = values.budget;
  if (budget !== undefined) input.budget = isClear(budget) ? null : budget;
  checked({ budget: '--budget' }, () => validateProjectAssignmentInput(input));
  return input;
}

function historyLine(r: { effective_from: string | null; hourly_rate: string; created_at: Date }) {
  return { effective_from: r.effective_from, hourly_rate: Number(r.hourly_rate), created_at: r.created_at };
}

/** A rate history for human output: the stored decimals in the minor units of the rate's currency. */
function historyTable(history: Array<{ effective_from: string | null; hourly_rate: string; created_at: Date }>, currency: string) {
  return table(
    history.map((r) => ({ ...r, effective_from: r.effective_from ?? 'the start', hourly_rate: formatMoney(r.hourly_rate, currency) })),
    ['effective_from', 'hourly_rate', 'created_at'],
  );
}

async function resolveScope(db: Kysely<DB>, companyId: string, refs: ScopeRefs) {
  const userId = refs.user ? await resolveUser(db, companyId, refs.user) : undefined;
  const taskId = refs.task ? await resolveTaskId(db, companyId, refs.task) : undefined;
  return rateScope(refs.kind, { projectId: refs.project, taskId, userId });
}

/**
 * The catalog commands by name (`admin task create`, ...), for the command table
 * of src/cli/main.ts: `...Object.values(catalogCommands)` next to adminCommands.
 */
export const catalogCommands: Record<string, AdminCommand<any>> = Object.fromEntries(commands.map((c) => [c.name, c]));
