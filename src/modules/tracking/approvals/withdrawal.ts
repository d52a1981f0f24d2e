import type { WeekStart } from '../../../db/types.ts';
import { weekEndOf, weekStartOf } from '../week/index.ts';
import type { Period } from './preflight.ts';

/**
 * Pure rules of the withdrawal's report (`sheaf admin approvals withdraw`, and the
 * web app later): which of the weeks it touched unlocked, and for each week that
 * stays locked, the approved items still holding it and why. No I/O.
 */

/** An approved time entry or expense of the person, left after the withdrawal. */
export interface ApprovedItem {
  kind: 'time' | 'expense';
  id: string;
  spent_date: string;
  project_id: string;
  is_billed: boolean;
  invoice_id: string | null;
  invoice_number: string | null;
  invoice_state: string | null;
}

/**
 * Why an approved item outlived the withdrawal: `billed` (a withdrawal keeps
 * billed work approved: the invoice holds it), `outside_period` (dated in the
 * week but outside from..to), `other_project` (the withdrawal named another project).
 */
export type HoldReason = 'billed' | 'outside_period' | 'other_project';

export interface WeekHold {
  reason: HoldReason;
  message: string;
  time_entry_ids: string[];
  expense_ids: string[];
  /** For `billed`: the invoices holding the items (those known; none for items billed without an invoice link). */
  invoice_ids?: string[];
}

export interface WeekReport {
  week_start: string;
  week_end: string;
}

export interface LockedWeekReport extends WeekReport {
  held_by: WeekHold[];
}

export interface WithdrawalScope extends Period {
  projectId?: string;
}

export function holdReasonOf(item: ApprovedItem, scope: WithdrawalScope): HoldReason {
  if (item.is_billed) return 'billed';
  if (item.spent_date < scope.from || item.spent_date > scope.to) return 'outside_period';
  return 'other_project';
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function itemsPhrase(time: number, expenses: number): { text: string; plural: boolean } {
  const parts = [time ? count(time, 'time entry', 'time entries') : '', expenses ? count(expenses, 'expense', 'expenses') : ''].filter(Boolean);
  return { text: parts.join(' and '), plural: time + expenses > 1 };
}

function holdMessage(reason: HoldReason, items: ApprovedItem[], scope: WithdrawalScope): string {
  const { text, plural } = itemsPhrase(items.filter((i) => i.kind === 'time').length, items.filter((i) => i.kind === 'expense').length);
  const is = plural ? 'are' : 'is';
  switch (reason) {
    case 'billed': {
      const invoices = [...new Map(items.filter((i) => i.invoice_id).map((i) => [i.invoice_id, i])).values()]
        .map((i) => `${i.invoice_number} (${i.invoice_state})`)
        .sort();
      const on = invoices.length ? `on invoice${invoices.length > 1 ? 's' : ''} ${invoices.join(', ')}` : 'on an invoice';
      return (
        `${text} ${is} billed ${on}: a withdrawal keeps billed work approved. ` +
        'Deleting a draft invoice releases its work; withdraw again after that.'
      );
    }
    case 'outside_period':
      return `${text} ${is} approved in this week but dated outside ${scope.from}..${scope.to}; withdraw the whole week to unlock it.`;
    case 'other_project':
      return scope.projectId === undefined
        ? `${text} ${is} approved in this week on a project whose time you do not approve; an owner or administrator can withdraw it.`
        : `${text} ${is} approved in this week on another project than ${scope.projectId}; withdraw without --project to unlock it.`;
  }
}

/**
 * The report of the weeks a withdrawal touched (`weeks`, first days): a week with
 * no approved item left is unlocked; any other stays locked, held by the
 * approved items left in it, grouped by reason (billed first).
 */
export function reportWeeks(
  weeks: readonly string[],
  left: readonly ApprovedItem[],
  scope: WithdrawalScope,
  weekStart: WeekStart,
): { unlocked_weeks: WeekReport[]; still_locked_weeks: LockedWeekReport[] } {
  const unlocked: WeekReport[] = [];
  const stillLocked: LockedWeekReport[] = [];
  for (const week of [...weeks].sort()) {
    const inWeek = left.filter((i) => weekStartOf(i.spent_date, weekStart) === week);
    const range = { week_start: week, week_end: weekEndOf(week) };
    if (inWeek.length === 0) {
      unlocked.push(range);
      continue;
    }
    const held_by: WeekHold[] = [];
    for (const reason of ['billed', 'outside_period', 'other_project'] as const) {
      const items = inWeek.filter((i) => holdReasonOf(i, scope) === reason);
      if (items.length === 0) continue;
      held_by.push({
        reason,
        message: holdMessage(reason, items, scope),
        time_entry_ids: items.filter((i) => i.kind === 'time').map((i) => i.id).sort(),
        expense_ids: items.filter((i) => i.kind === 'expense').map((i) => i.id).sort(),
        ...(reason === 'billed' ? { invoice_ids: [...new Set(items.flatMap((i) => (i.invoice_id ? [i.invoice_id] : [])))].sort() } : {}),
      });
    }
    stillLocked.push({ ...range, held_by });
  }
  return { unlocked_weeks: unlocked, still_locked_weeks: stillLocked };
}
