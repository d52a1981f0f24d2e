import type { BillBy, BudgetBy } from '../../../db/types.ts';
import { shownEffectiveFrom } from '../rates/rules.ts';
import { decimalNumber } from '../../../money.ts';
import { personName } from './rules.ts';
import type { projectRateRows } from './web-queries.ts';

/** A project as the queries load it, with its client, owner, the caller's own assignment and today's rate. */
export interface ProjectRow {
  id: string;
  name: string;
  code: string | null;
  notes: string | null;
  is_active: boolean;
  client_id: string;
  client_name: string;
  /** The client's currency, else the workspace's. */
  client_currency: string;
  owner_id: string | null;
  owner_first_name: string | null;
  owner_last_name: string | null;
  owner_email: string | null;
  is_billable: boolean;
  bill_by: BillBy;
  is_fixed_fee: boolean;
  fee: string | null;
  cost_budget: string | null;
  budget_by: BudgetBy;
  budget: string | null;
  budget_is_monthly: boolean;
  show_budget_to_all: boolean;
  starts_on: string | null;
  ends_on: string | null;
  created_at: Date;
  /** The latest of the project's, its client's and its owner's change (all three are in the body). */
  updated_at: Date;
  /** The caller's own project assignment (null: none). */
  own_is_active: boolean | null;
  own_is_project_manager: boolean | null;
  /** The project's billable rate in force today (workspace zone), when loaded for a caller who may see rates. */
  hourly_rate?: string | null;
  hourly_rate_effective_from?: string | null;
}

/** A task assignment of the project, nested in item reads. */
export interface ProjectTaskRow {
  task_id: string;
  name: string;
  is_active: boolean;
  billable: boolean;
  budget: string | null;
}

/**
 * What the caller may see of one project (see projectView in the service):
 * `directory` is the personal sync key's minimal item; otherwise `rates` adds the
 * hourly rate and fee, `internalCosts` the cost budget, `budget` the budget and
 * the nested task budgets.
 */
export interface ProjectView {
  directory: boolean;
  rates: boolean;
  internalCosts: boolean;
  budget: boolean;
}

function owner(row: ProjectRow) {
  if (row.owner_id === null) return null;
  return { id: row.owner_id, name: personName(row.owner_first_name ?? '', row.owner_last_name ?? ''), email: row.owner_email ?? '' };
}

/** The project directory item (personal sync key): exactly these seven properties. */
export function presentDirectoryProject(row: ProjectRow) {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    is_active: row.is_active,
    owner_id: row.owner_id,
    owner: owner(row),
    client: { id: row.client_id, name: row.client_name },
  };
}

/**
 * A nested task assignment: `budget` (may be 0 or null) only when the assignment
 * is active and the caller may see the project's budget (the Task rule).
 */
export function presentProjectTask(row: ProjectTaskRow, view: ProjectView) {
  return {
    task_id: row.task_id,
    name: row.name,
    is_active: row.is_active,
    billable: row.billable,
    ...(view.budget && row.is_active ? { budget: decimalNumber(row.budget) } : {}),
  };
}

/**
 * The project as the API shows it. Properties the caller may not see are absent,
 * not null. Item reads pass `tasks` (the nested task assignments); lists do not.
 * Key order is the serializer's (the schema's required properties, then its
 * optional ones), so the ETag, a hash of this object's JSON, is a hash of the
 * exact bytes sent.
 */
export function presentProject(row: ProjectRow, view: ProjectView, tasks?: ProjectTaskRow[]) {
  return view.directory ? presentDirectoryProject(row) : presentFullProject(row, view, tasks);
}

/**
 * The full project, whatever `view.directory` says: what a write (create, update) returns, as a
 * personal sync key, the only caller that gets the directory item, never writes.
 */
export function presentFullProject(row: ProjectRow, view: ProjectView, tasks?: ProjectTaskRow[]) {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    notes: row.notes,
    is_active: row.is_active,
    client: { id: row.client_id, name: row.client_name, currency: row.client_currency },
    owner_id: row.owner_id,
    owner: owner(row),
    is_billable: row.is_billable,
    bill_by: row.bill_by,
    is_fixed_fee: row.is_fixed_fee,
    budget_by: row.budget_by,
    budget_is_monthly: row.budget_is_monthly,
    show_budget_to_all: row.show_budget_to_all,
    starts_on: row.starts_on,
    ends_on: row.ends_on,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    // optional, by permission
    ...(view.rates
      ? { hourly_rate: decimalNumber(row.hourly_rate ?? null), hourly_rate_effective_from: shownEffectiveFrom(row.hourly_rate_effective_from ?? null) }
      : {}),
    ...(view.rates ? { fee: decimalNumber(row.fee) } : {}),
    ...(view.internalCosts ? { cost_budget: decimalNumber(row.cost_budget) } : {}),
    ...(view.budget ? { budget: decimalNumber(row.budget) } : {}),
    ...(tasks ? { tasks: tasks.map((t) => presentProjectTask(t, view)) } : {}),
  };
}

export type PresentedProject = ReturnType<typeof presentProject>;

type RateHistoryRow = Awaited<ReturnType<typeof projectRateRows>>[number];

/**
 * A project's rate history: its own rates, then its task assignments' and its people's, each
 * group by name, each list of rates as loaded (oldest first).
 */
export function presentRateHistory(currency: string, rows: RateHistoryRow[]) {
  const rate = (r: RateHistoryRow) => ({ effective_from: shownEffectiveFrom(r.effective_from), hourly_rate: decimalNumber(r.hourly_rate)! });
  const tasks = new Map<string, { task_id: string; name: string; rates: ReturnType<typeof rate>[] }>();
  const people = new Map<string, { user_id: string; name: string; rates: ReturnType<typeof rate>[] }>();
  const own: ReturnType<typeof rate>[] = [];
  for (const r of rows) {
    if (r.task_id !== null) {
      const t = tasks.get(r.task_id) ?? { task_id: r.task_id, name: r.task_name ?? '', rates: [] };
      t.rates.push(rate(r));
      tasks.set(r.task_id, t);
    } else if (r.user_id !== null) {
      const u = people.get(r.user_id) ?? { user_id: r.user_id, name: personName(r.first_name ?? '', r.last_name ?? ''), rates: [] };
      u.rates.push(rate(r));
      people.set(r.user_id, u);
    } else own.push(rate(r));
  }
  const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);
  return { currency, project: own, tasks: [...tasks.values()].sort(byName), people: [...people.values()].sort(byName) };
}
