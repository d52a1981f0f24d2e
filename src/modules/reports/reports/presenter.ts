import { Decimal } from 'decimal.js';
import type { BudgetRow, TeamRow, UninvoicedRow } from './queries.ts';
import type { HoursTotalsRow } from './table-totals.ts';
import type { TimeEntryRow, TimeGroupRow } from './web-queries.ts';

/** Report rows as the API and the web app show them; the downloads write the same numbers. */

const num = (v: string | null) => (v === null ? null : Number(v));

const amountLine = (a: { currency: string; billable_hours: number | string; billable_amount: number | string }) => ({
  currency: a.currency,
  billable_hours: Number(a.billable_hours),
  billable_amount: Number(a.billable_amount),
});

/**
 * A person's amounts in the team report: one line per currency, never a sum
 * across currencies. `currency`/`billable_amount` keep their single-currency
 * meaning: the one currency's figures (the workspace currency and 0 without
 * billable time), and null for both when the work is in several currencies.
 */
function teamAmounts(r: TeamRow) {
  const lines = r.billable_amounts.map(amountLine);
  if (lines.length > 1) return { currency: null, billable_amount: null, billable_amounts: lines };
  return { currency: lines[0]?.currency ?? r.workspace_currency, billable_amount: lines[0]?.billable_amount ?? 0, billable_amounts: lines };
}

/** A project budget result as the API presents it (the exports write the same numbers). */
export function presentBudgetRow(r: BudgetRow, costVisible: boolean) {
  const hidden = r.budget_by === 'project_cost' && !costVisible;
  return {
    project_id: r.project_id,
    project_name: r.project_name,
    client_id: r.client_id,
    client_name: r.client_name,
    budget_is_monthly: r.budget_is_monthly,
    budget_by: r.budget_by,
    is_active: r.is_active,
    budget: hidden ? null : num(r.budget),
    budget_spent: hidden ? null : num(r.budget_spent),
    budget_remaining: hidden || r.budget === null ? null : new Decimal(r.budget).sub(r.budget_spent).toNumber(),
    currency: r.currency,
  };
}

/** An uninvoiced result as the API presents it. */
export function presentUninvoicedRow(r: UninvoicedRow) {
  return {
    client_id: r.client_id,
    client_name: r.client_name,
    project_id: r.project_id,
    project_name: r.project_name,
    currency: r.currency,
    total_hours: Number(r.total_hours),
    uninvoiced_hours: Number(r.uninvoiced_hours),
    uninvoiced_expenses: Number(r.uninvoiced_expenses),
    uninvoiced_amount: Number(r.uninvoiced_amount),
  };
}

/** A team result as the API presents it: amounts only for callers who see billable rates. */
export function presentTeamRow(r: TeamRow, amounts: boolean) {
  return {
    user_id: r.user_id,
    user_name: `${r.first_name} ${r.last_name}`.trim(),
    is_contractor: r.is_contractor,
    total_hours: Number(r.total_hours),
    billable_hours: Number(r.billable_hours),
    ...(amounts ? teamAmounts(r) : {}),
  };
}

/** A group of the web app's time report: amounts only for callers who see billable rates. */
export function presentTimeGroup(r: TimeGroupRow, amounts: boolean) {
  return {
    id: r.id,
    name: r.name,
    client_name: r.client_name,
    hours: Number(r.hours),
    billable_hours: Number(r.billable_hours),
    ...(amounts ? { billable_amounts: r.billable_amounts.map(amountLine) } : {}),
  };
}

/** An entry of the time report's download (rows=entries). */
export function presentTimeEntry(r: TimeEntryRow) {
  return {
    spent_date: r.spent_date,
    person: r.person,
    client_name: r.client_name,
    project_name: r.project_name,
    task_name: r.task_name,
    notes: r.notes,
    hours: Number(r.hours),
    rounded_hours: Number(r.rounded_hours),
    billable: r.billable,
    currency: r.currency,
    billable_amount: r.billable_amount === null ? null : Number(r.billable_amount),
  };
}

/** No rows, no time: the total row of an empty report. */
const NO_TOTALS: HoursTotalsRow = { hours: '0', billable_hours: '0', billable_amounts: [] };

/**
 * A time or team report's total row (table-totals.ts) as the web app shows it: hours, billable
 * hours and, only for callers who see billable rates, the amounts per currency (never added
 * across currencies).
 */
export function presentHoursTotals(r: HoursTotalsRow | undefined, amounts: boolean) {
  const t = r ?? NO_TOTALS;
  return {
    hours: Number(t.hours),
    billable_hours: Number(t.billable_hours),
    ...(amounts ? { billable_amounts: t.billable_amounts.map(amountLine) } : {}),
  };
}

/** The total of one client table of the uninvoiced report (a client and its currency), over all the client's rows. */
function clientTotal(r: UninvoicedRow & Required<Pick<UninvoicedRow, 'client_totals'>>) {
  return {
    client_id: r.client_id,
    currency: r.currency,
    total_hours: Number(r.client_totals.total_hours),
    uninvoiced_hours: Number(r.client_totals.uninvoiced_hours),
    uninvoiced_expenses: Number(r.client_totals.uninvoiced_expenses),
    uninvoiced_amount: Number(r.client_totals.uninvoiced_amount),
  };
}

/** The total rows of the uninvoiced report's client tables: one per client and currency of the page. */
export function presentUninvoicedTotals(rows: UninvoicedRow[]) {
  const totals = new Map<string, ReturnType<typeof clientTotal>>();
  for (const r of rows) {
    const key = `${r.client_id}:${r.currency}`;
    if (r.client_totals && !totals.has(key)) totals.set(key, clientTotal({ ...r, client_totals: r.client_totals }));
  }
  return [...totals.values()];
}
