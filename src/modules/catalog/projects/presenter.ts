import { clientRef } from '../clients/index.ts';
import { shownEffectiveFrom } from '../rates/index.ts';
import { decimalNumber } from '../../../money.ts';
import { personName } from './rules.ts';
import type { projectRateRows } from './web-queries.ts';
import type { findProject, listProjectTasks } from './queries.ts';

/**
 * A project as the queries load it, with its client (`client_currency`: the client's, else the
 * workspace's), owner, the caller's own assignment (`own_*`, null: none), `updated_at` the latest
 * of the project's, its client's and its owner's change (all three are in the body), and, when
 * loaded for a caller who may see rates, the project's billable rate in force today.
 */
type LoadedProject = NonNullable<Awaited<ReturnType<typeof findProject>>>;
export type ProjectRow = Omit<LoadedProject, 'hourly_rate' | 'hourly_rate_effective_from'> & {
  hourly_rate?: string | null;
  hourly_rate_effective_from?: string | null;
};

/** A task assignment of the project, nested in item reads. */
export type ProjectTaskRow = Awaited<ReturnType<typeof listProjectTasks>>[number];

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
    client: clientRef(row),
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
    notify_when_over_budget: row.notify_when_over_budget,
    over_budget_notification_percentage: decimalNumber(row.over_budget_notification_percentage)!,
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
