import { Decimal } from 'decimal.js';
import { sameDecimal } from '../../../money.ts';
import { updatedSinceOf } from '../../../http/route-kit.ts';
import type { BillBy, BudgetBy } from '../../../db/types.ts';
import { changedColumns as changedOf } from '../../../db/rows.ts';
import { badRequest } from '../../../errors.ts';
import { isIsoDate } from '../../../time/workspace-time.ts';
import { budgetAmount, effectiveDate, hourlyRate, type RateChange } from '../rates/index.ts';
import type { ProjectInput } from './schemas.ts';
import type { ProjectFilter } from './queries.ts';

/**
 * Pure rules for projects: which properties may be written, which of them are
 * commercial, what values they take, how billing and budget settings must fit
 * together, and archive/restore. No I/O: the service applies them inside its
 * transaction, so each rule lives here and nowhere else.
 */

export const BILL_BY = ['project', 'tasks', 'people', 'none'] as const satisfies readonly BillBy[];
export const BUDGET_BY = ['project', 'project_cost', 'task', 'task_fees', 'person', 'none'] as const satisfies readonly BudgetBy[];

/** budget_by modes whose budget is the project's own `budget` (hours, or money for project_cost). */
export const PROJECT_LEVEL_BUDGETS: readonly BudgetBy[] = ['project', 'project_cost'];


/** Response properties a request body may not set (a 400 naming the property). */
export const PROJECT_READ_ONLY = ['id', 'client', 'owner', 'tasks', 'created_at', 'updated_at'] as const;

/** Only on create: later changes of a project's tasks go through its task assignments. */
export const CREATE_ONLY = ['task_ids'] as const;

/**
 * Commercial properties: every billing and budget setting. Sending any of them
 * (on create or update, whatever the value) needs maySetCommercialFields; the
 * check is on presence, not on a change, so a 403-or-200 answer never reveals a
 * value the caller may not see.
 */
export const COMMERCIAL_FIELDS = [
  'is_billable',
  'bill_by',
  'hourly_rate',
  'hourly_rate_effective_from',
  'is_fixed_fee',
  'fee',
  'cost_budget',
  'budget_by',
  'budget',
  'budget_is_monthly',
  'show_budget_to_all',
  'notify_when_over_budget',
  'over_budget_notification_percentage',
] as const;

/** Every writable property: the project's own, then the commercial ones. */
export const PROJECT_WRITABLE = ['client_id', 'name', 'code', 'notes', 'owner_id', 'starts_on', 'ends_on', 'is_active', ...COMMERCIAL_FIELDS] as const;

export const NAME_MAX = 255;
export const CODE_MAX = 64;
export const NOTES_MAX = 10_000;

/** The stored form of a project's writable state (amounts as exact decimal strings). */
export interface ProjectState {
  client_id: string;
  name: string;
  code: string | null;
  notes: string | null;
  owner_id: string | null;
  starts_on: string | null;
  ends_on: string | null;
  is_active: boolean;
  is_billable: boolean;
  bill_by: BillBy;
  is_fixed_fee: boolean;
  fee: string | null;
  cost_budget: string | null;
  budget_by: BudgetBy;
  budget: string | null;
  budget_is_monthly: boolean;
  show_budget_to_all: boolean;
  notify_when_over_budget: boolean;
  /** Percent, a decimal string of at most 2 places, above 0 and at most 1,000. */
  over_budget_notification_percentage: string;
}

/** A new project before its input is applied. `bill_by` follows `is_billable` unless given. */
export function newProjectState(input: ProjectInput): ProjectState {
  const billable = input.is_billable ?? true;
  return {
    client_id: '',
    name: '',
    code: null,
    notes: null,
    owner_id: null,
    starts_on: null,
    ends_on: null,
    is_active: true,
    is_billable: billable,
    bill_by: billable ? 'project' : 'none',
    is_fixed_fee: false,
    fee: null,
    cost_budget: null,
    budget_by: 'none',
    budget: null,
    budget_is_monthly: false,
    show_budget_to_all: false,
    notify_when_over_budget: false,
    over_budget_notification_percentage: '80',
  };
}

/** A rate to set for the project's scope; `from` undefined means the default date (see rateStartOnCreate). */
export type { RateChange };

function text(field: string, value: unknown, max: number, { required }: { required: boolean }): string | null {
  if (value === null && !required) return null;
  if (typeof value !== 'string') throw badRequest(`${field} must be text.`, { field });
  const trimmed = value.trim();
  if (trimmed === '') {
    if (required) throw badRequest(`${field} must not be blank.`, { field });
    return null;
  }
  // Names and codes are trimmed; notes keep their text as written.
  const kept = field === 'notes' ? value : trimmed;
  if (kept.length > max) throw badRequest(`${field} must be at most ${max} characters.`, { field });
  return kept;
}

function date(field: string, value: unknown): string | null {
  if (value === null) return null;
  if (!isIsoDate(value)) throw badRequest(`${field} must be a date in the form YYYY-MM-DD, or null.`, { field });
  return value;
}

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    throw badRequest(`${field} must be one of ${allowed.join(', ')}.`, { field });
  }
  return value as T;
}

function flag(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw badRequest(`${field} must be true or false.`, { field });
  return value;
}

const amount = (field: string, value: unknown) => (value === null ? null : budgetAmount(field, value));

/** The budget alert's threshold: a share of the budget in percent, above 0, at most 1,000 (ten times over), 2 places. */
function percentage(value: unknown): string {
  const field = 'over_budget_notification_percentage';
  const d = typeof value === 'number' && Number.isFinite(value) ? new Decimal(value) : null;
  if (!d || d.lte(0) || d.gt(1000) || d.decimalPlaces() > 2) {
    throw badRequest(`${field} must be a number above 0 and at most 1000, with at most 2 decimal places.`, { field });
  }
  return d.toFixed();
}

/**
 * Applies a create or update body to the current state and returns the next
 * state and the rate change it asks for. Throws a 400 naming the field for any
 * bad value or inconsistent combination. The rules, checked on the merged state:
 *
 * - `name` 1..255 after trimming; `code` up to 64 (blank: null); `notes` up to 10,000.
 * - `starts_on`/`ends_on` real YYYY-MM-DD dates or null, `ends_on` ≥ `starts_on`.
 * - Amounts (`hourly_rate`, `fee`, `cost_budget`, `budget`): ≥ 0, at most 2
 *   decimal places, at most the column's range (rates 9,999,999,999.99, the
 *   others 999,999,999,999.99).
 * - A non-billable project bills by `none` and is not fixed-fee.
 * - `hourly_rate` (never null: a rate is superseded from a date, not removed)
 *   needs a `bill_by` other than `none`; `hourly_rate_effective_from` needs
 *   `hourly_rate`.
 * - `is_fixed_fee` needs a `fee`; a `fee` needs `is_fixed_fee`. Turning fixed
 *   fee off clears the stored fee (unless the same body sends one: 400).
 * - `budget` belongs to `budget_by` project (hours) or project_cost (money) and
 *   is required there; with task, task_fees or person the budgets live on the
 *   assignments, with none there is none, so a `budget` is a 400. Changing
 *   `budget_by` away from a project-level mode clears the stored budget.
 * - `budget_is_monthly` needs a `budget_by` other than none (changing to none
 *   clears it).
 */
export function applyProjectInput(current: ProjectState, input: ProjectInput): { state: ProjectState; rate: RateChange | null } {
  const next: ProjectState = { ...current };
  if (input.client_id !== undefined) next.client_id = input.client_id;
  if (input.name !== undefined) next.name = text('name', input.name, NAME_MAX, { required: true })!;
  if (input.code !== undefined) next.code = text('code', input.code, CODE_MAX, { required: false });
  if (input.notes !== undefined) next.notes = text('notes', input.notes, NOTES_MAX, { required: false });
  if (input.owner_id !== undefined) next.owner_id = input.owner_id;
  if (input.starts_on !== undefined) next.starts_on = date('starts_on', input.starts_on);
  if (input.ends_on !== undefined) next.ends_on = date('ends_on', input.ends_on);
  if (input.is_active !== undefined) next.is_active = flag('is_active', input.is_active);

  if (next.starts_on !== null && next.ends_on !== null && next.ends_on < next.starts_on) {
    const field = input.ends_on !== undefined ? 'ends_on' : 'starts_on';
    throw badRequest('ends_on must be on or after starts_on.', { field });
  }

  // ---- billing ----
  if (input.is_billable !== undefined) next.is_billable = flag('is_billable', input.is_billable);
  if (input.bill_by !== undefined) next.bill_by = oneOf('bill_by', input.bill_by, BILL_BY);
  if (input.is_fixed_fee !== undefined) {
    next.is_fixed_fee = flag('is_fixed_fee', input.is_fixed_fee);
    if (!next.is_fixed_fee && input.fee === undefined) next.fee = null;
  }
  if (input.fee !== undefined) next.fee = amount('fee', input.fee);
  if (input.cost_budget !== undefined) next.cost_budget = amount('cost_budget', input.cost_budget);

  if (!next.is_billable && next.bill_by !== 'none') {
    throw badRequest("A non-billable project bills by 'none'; send bill_by: 'none' with is_billable: false.", { field: 'bill_by' });
  }
  if (!next.is_billable && next.is_fixed_fee) {
    throw badRequest('A non-billable project cannot be fixed-fee.', { field: 'is_fixed_fee' });
  }
  if (!next.is_fixed_fee && next.fee !== null) {
    throw badRequest('fee applies only to fixed-fee projects (is_fixed_fee: true).', { field: 'fee' });
  }
  if (next.is_fixed_fee && next.fee === null) {
    throw badRequest('A fixed-fee project needs a fee.', { field: 'fee' });
  }

  let rate: RateChange | null = null;
  if (input.hourly_rate_effective_from !== undefined && input.hourly_rate === undefined) {
    throw badRequest('hourly_rate_effective_from applies only together with hourly_rate.', { field: 'hourly_rate_effective_from' });
  }
  if (input.hourly_rate !== undefined) {
    if (input.hourly_rate === null) {
      throw badRequest('hourly_rate must be a number of at least 0 (a rate applies until the next one; set a new one from a date).', {
        field: 'hourly_rate',
      });
    }
    rate = { hourlyRate: hourlyRate('hourly_rate', input.hourly_rate) };
    if (input.hourly_rate_effective_from !== undefined) {
      rate.from = effectiveDate('hourly_rate_effective_from', input.hourly_rate_effective_from);
    }
    if (next.bill_by === 'none') {
      throw badRequest("hourly_rate does not apply to a project billed by 'none'.", { field: 'hourly_rate' });
    }
  }

  // ---- budget ----
  if (input.budget_by !== undefined) {
    next.budget_by = oneOf('budget_by', input.budget_by, BUDGET_BY);
    if (!PROJECT_LEVEL_BUDGETS.includes(next.budget_by) && input.budget === undefined) next.budget = null;
    if (next.budget_by === 'none' && input.budget_is_monthly === undefined) next.budget_is_monthly = false;
  }
  if (input.budget !== undefined) next.budget = amount('budget', input.budget);
  if (input.budget_is_monthly !== undefined) next.budget_is_monthly = flag('budget_is_monthly', input.budget_is_monthly);
  if (input.show_budget_to_all !== undefined) next.show_budget_to_all = flag('show_budget_to_all', input.show_budget_to_all);
  // Kept whatever the budget (Harvest's, permissive): a project without one is never alerted.
  if (input.notify_when_over_budget !== undefined) next.notify_when_over_budget = flag('notify_when_over_budget', input.notify_when_over_budget);
  if (input.over_budget_notification_percentage !== undefined) next.over_budget_notification_percentage = percentage(input.over_budget_notification_percentage);

  if (PROJECT_LEVEL_BUDGETS.includes(next.budget_by)) {
    if (next.budget === null) {
      throw badRequest(`A project budgeted by '${next.budget_by}' needs a budget.`, { field: 'budget' });
    }
  } else if (next.budget !== null) {
    throw badRequest(
      next.budget_by === 'none'
        ? "budget does not apply to a project with budget_by 'none'."
        : `With budget_by '${next.budget_by}' the budgets are set on the project's ${next.budget_by === 'person' ? 'user' : 'task'} assignments, not on the project.`,
      { field: 'budget' },
    );
  }
  if (next.budget_by === 'none' && next.budget_is_monthly) {
    throw badRequest("budget_is_monthly does not apply to a project with budget_by 'none'.", { field: 'budget_is_monthly' });
  }
  return { state: next, rate };
}

/** The columns whose value differs between two states (an unchanged PATCH writes nothing). */
export const changedColumns = (before: ProjectState, after: ProjectState) =>
  changedOf(before, after, { fee: sameDecimal, cost_budget: sameDecimal, budget: sameDecimal, over_budget_notification_percentage: sameDecimal });

/** The commercial properties a body sends (see COMMERCIAL_FIELDS). */
export function commercialFieldsIn(input: object): string[] {
  return COMMERCIAL_FIELDS.filter((f) => Object.hasOwn(input, f));
}

/** What an `is_active` change means: archive, restore, or nothing. */
export function archiveTransition(wasActive: boolean, willBeActive: boolean): 'archive' | 'restore' | null {
  if (wasActive === willBeActive) return null;
  return willBeActive ? 'restore' : 'archive';
}

/** The name shown for a person: first and last name. */
export const personName = (first: string, last: string) => `${first} ${last}`.trim();

/** The project list's query parameters (the API's, or the web app's with `search`) as the queries' filter. */
export function projectListFilter(query: {
  is_active?: 'true' | 'false';
  client_id?: string;
  owner_id?: string;
  updated_since?: string;
  search?: string;
}): ProjectFilter {
  return {
    isActive: query.is_active === undefined ? undefined : query.is_active === 'true',
    clientId: query.client_id,
    ownerId: query.owner_id,
    updatedSince: updatedSinceOf(query.updated_since),
    search: query.search,
  };
}
