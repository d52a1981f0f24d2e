import type { Choices, CreateBody, PatchBody, Project } from './api.ts';

/**
 * The project form's values and what it sends (pure, tested in values.test.ts). Amounts are
 * numbers, NaN when empty (React Aria's NumberField); dates YYYY-MM-DD or null. A create sends
 * what is filled in; a change sends only what differs from the project as loaded, and the
 * billing and budget properties only to callers who may set them (the API's 403 otherwise).
 */

export type BillBy = Project['bill_by'];
export type BudgetBy = Project['budget_by'];

export interface Values {
  client_id: string | null;
  name: string;
  code: string;
  notes: string;
  owner_id: string | null;
  starts_on: string | null;
  ends_on: string | null;
  is_billable: boolean;
  bill_by: BillBy;
  hourly_rate: number;
  /** When a new rate takes effect: required for a change of rate, optional (from the start) on create. */
  hourly_rate_effective_from: string | null;
  is_fixed_fee: boolean;
  fee: number;
  cost_budget: number;
  budget_by: BudgetBy;
  budget: number;
  budget_is_monthly: boolean;
  show_budget_to_all: boolean;
  /** The budget alert (an e-mail to the project's managers) and its share of the budget in percent. */
  notify_when_over_budget: boolean;
  over_budget_notification_percentage: number;
}

/** budget_by modes whose budget is the project's own (the API's PROJECT_LEVEL_BUDGETS). */
export const PROJECT_LEVEL: readonly BudgetBy[] = ['project', 'project_cost'];

const num = (value: number | null | undefined) => (value === null || value === undefined ? NaN : value);
const has = (value: number) => !Number.isNaN(value);

export function valuesOf(project?: Project): Values {
  return {
    client_id: project?.client.id ?? null,
    name: project?.name ?? '',
    code: project?.code ?? '',
    notes: project?.notes ?? '',
    owner_id: project?.owner_id ?? null,
    starts_on: project?.starts_on ?? null,
    ends_on: project?.ends_on ?? null,
    is_billable: project?.is_billable ?? true,
    bill_by: project?.bill_by ?? 'project',
    hourly_rate: num(project?.hourly_rate),
    hourly_rate_effective_from: null,
    is_fixed_fee: project?.is_fixed_fee ?? false,
    fee: num(project?.fee),
    cost_budget: num(project?.cost_budget),
    budget_by: project?.budget_by ?? 'none',
    budget: num(project?.budget),
    budget_is_monthly: project?.budget_is_monthly ?? false,
    show_budget_to_all: project?.show_budget_to_all ?? false,
    notify_when_over_budget: project?.notify_when_over_budget ?? false,
    over_budget_notification_percentage: project?.over_budget_notification_percentage ?? 80,
  };
}

type May = Pick<Choices['may'], 'set_commercial' | 'see_internal_costs'>;

/** Whether the form's rate differs from the project's current one (a change asks from which date). */
export const rateChanged = (values: Values, project: Project | undefined) =>
  values.bill_by !== 'none' && has(values.hourly_rate) && values.hourly_rate !== num(project?.hourly_rate);

/** The body of a new project: the filled-in fields (task_ids omitted: the workspace's default tasks). */
export function createBody(values: Values, may: May): CreateBody {
  const body: CreateBody = { client_id: values.client_id ?? '', name: values.name };
  if (values.code.trim()) body.code = values.code;
  if (values.notes.trim()) body.notes = values.notes;
  if (values.owner_id) body.owner_id = values.owner_id;
  if (values.starts_on) body.starts_on = values.starts_on;
  if (values.ends_on) body.ends_on = values.ends_on;
  if (!may.set_commercial) return body;
  body.is_billable = values.is_billable;
  body.bill_by = values.bill_by;
  if (values.bill_by !== 'none' && has(values.hourly_rate)) {
    body.hourly_rate = values.hourly_rate;
    if (values.hourly_rate_effective_from) body.hourly_rate_effective_from = values.hourly_rate_effective_from;
  }
  body.is_fixed_fee = values.is_fixed_fee;
  if (values.is_fixed_fee) body.fee = has(values.fee) ? values.fee : null;
  if (may.see_internal_costs && has(values.cost_budget)) body.cost_budget = values.cost_budget;
  body.budget_by = values.budget_by;
  if (PROJECT_LEVEL.includes(values.budget_by)) body.budget = has(values.budget) ? values.budget : null;
  if (values.budget_by !== 'none') body.budget_is_monthly = values.budget_is_monthly;
  body.show_budget_to_all = values.show_budget_to_all;
  if (values.notify_when_over_budget) {
    body.notify_when_over_budget = true;
    if (has(values.over_budget_notification_percentage)) body.over_budget_notification_percentage = values.over_budget_notification_percentage;
  }
  return body;
}

const textOrNull = (text: string) => (text.trim() ? text : null);
const amountOrNull = (value: number) => (has(value) ? value : null);

/** The changed fields of an existing project (an empty object: nothing to save). */
export function patchBody(values: Values, project: Project, may: May): PatchBody {
  const body: PatchBody = {};
  if (values.client_id && values.client_id !== project.client.id) body.client_id = values.client_id;
  if (values.name !== project.name) body.name = values.name;
  if (textOrNull(values.code) !== project.code) body.code = textOrNull(values.code);
  if (textOrNull(values.notes) !== project.notes) body.notes = textOrNull(values.notes);
  if (values.owner_id !== project.owner_id) body.owner_id = values.owner_id;
  if (values.starts_on !== project.starts_on) body.starts_on = values.starts_on;
  if (values.ends_on !== project.ends_on) body.ends_on = values.ends_on;
  if (!may.set_commercial) return body;
  if (values.is_billable !== project.is_billable) body.is_billable = values.is_billable;
  if (values.bill_by !== project.bill_by) body.bill_by = values.bill_by;
  if (rateChanged(values, project)) {
    body.hourly_rate = values.hourly_rate;
    if (values.hourly_rate_effective_from) body.hourly_rate_effective_from = values.hourly_rate_effective_from;
  }
  if (values.is_fixed_fee !== project.is_fixed_fee) body.is_fixed_fee = values.is_fixed_fee;
  if (values.is_fixed_fee && amountOrNull(values.fee) !== (project.fee ?? null)) body.fee = amountOrNull(values.fee);
  if (may.see_internal_costs && amountOrNull(values.cost_budget) !== (project.cost_budget ?? null)) body.cost_budget = amountOrNull(values.cost_budget);
  if (values.budget_by !== project.budget_by) body.budget_by = values.budget_by;
  if (PROJECT_LEVEL.includes(values.budget_by) && amountOrNull(values.budget) !== (project.budget ?? null)) body.budget = amountOrNull(values.budget);
  if (values.budget_by !== 'none' && values.budget_is_monthly !== project.budget_is_monthly) body.budget_is_monthly = values.budget_is_monthly;
  if (values.show_budget_to_all !== project.show_budget_to_all) body.show_budget_to_all = values.show_budget_to_all;
  if (values.notify_when_over_budget !== project.notify_when_over_budget) body.notify_when_over_budget = values.notify_when_over_budget;
  if (has(values.over_budget_notification_percentage) && values.over_budget_notification_percentage !== project.over_budget_notification_percentage) {
    body.over_budget_notification_percentage = values.over_budget_notification_percentage;
  }
  return body;
}

/** A task or person assignment's budget and rate as the dialog holds them (NaN: empty). */
export interface AssignmentTerms {
  budget: number;
  rate: number;
  /** The date a new rate applies from (null: the API's default). */
  from: string | null;
}

interface TermsBody {
  budget?: number | null;
  hourly_rate?: number;
  hourly_rate_effective_from?: string;
}

/** Whether the dialog's rate differs from the assignment's (a new rate, effective from a date). */
export const termsRateChanged = (terms: AssignmentTerms, before?: { hourly_rate?: number | null }) =>
  !Number.isNaN(terms.rate) && terms.rate !== (before?.hourly_rate ?? NaN);

/** A new assignment's budget and rate: what is set and may be set. */
export function newTermsBody(terms: AssignmentTerms, can: { budget: boolean; rate: boolean }): TermsBody {
  return {
    ...(can.budget && !Number.isNaN(terms.budget) ? { budget: terms.budget } : {}),
    ...(can.rate && !Number.isNaN(terms.rate) ? { hourly_rate: terms.rate, ...(terms.from ? { hourly_rate_effective_from: terms.from } : {}) } : {}),
  };
}

/** An assignment's changed budget (cleared: null) and rate (from its date, today by default): only what changed. */
export function changedTermsBody(terms: AssignmentTerms, can: { budget: boolean; rate: boolean }, before: { budget?: number | null; hourly_rate?: number | null }, today: string): TermsBody {
  const body: TermsBody = {};
  const budget = Number.isNaN(terms.budget) ? null : terms.budget;
  if (can.budget && budget !== (before.budget ?? null)) body.budget = budget;
  if (can.rate && termsRateChanged(terms, before)) {
    body.hourly_rate = terms.rate;
    body.hourly_rate_effective_from = terms.from ?? today;
  }
  return body;
}
