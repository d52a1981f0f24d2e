import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { hearOtherTabs, tellOtherTabs } from './channel.ts';

/**
 * What a change makes stale (WEB-STYLE 2): one table from each kind of change the web app
 * makes to the query keys whose answers it alters, so no mutation picks its own keys. A key
 * here is a prefix: `['time_entries']` stales every view of entries (the week, the day, the
 * calendar, the running timer), as query keys are rooted at the API collection. Every
 * mutation calls `markStale` when it settles; the same change reaches this app's other tabs
 * through the one channel (channel.ts), which mark the same keys stale there.
 *
 * The keys, by whose answer carries what: `home` shows the week's time, recent work,
 * approvals, budgets, uninvoiced work and overdue invoices; `reports` sum time and expenses
 * (budgets, uninvoiced); `approvals` review entries and expenses; entries and expenses carry
 * their approval state, lock and invoice; the time and expense forms offer projects, tasks
 * and categories (`time_choices`, `['expenses', 'choices']`).
 */
export const STALE = {
  /** A time entry made, changed or deleted (the week grid, the day, the calendar, Add entry). */
  time_entry: [['time_entries'], ['home'], ['reports'], ['approvals']],
  /** A timer started, stopped or continued: an entry made or changed. */
  timer: [['time_entries'], ['home'], ['reports'], ['approvals']],
  /** An entry's private notes: only the web app's views of entries show them. */
  private_notes: [['time_entries']],
  /** An expense made, changed or deleted. */
  expense: [['expenses'], ['home'], ['reports'], ['approvals']],
  /** An expense category made or changed: the list and the expense form's choices. */
  expense_category: [['expense-categories'], ['expenses', 'choices']],
  /** A week submitted, approved, rejected or withdrawn: its entries and expenses lock or unlock. */
  approval: [['approvals'], ['time_entries'], ['expenses'], ['home']],
  /** An invoice's own change: its fields, a message sent, a payment, closed or voided. */
  invoice: [['invoices'], ['home'], ['retainers']],
  /** A file attached to an invoice or removed, a client link made: the invoice page's sharing panels. */
  invoice_sharing: [['invoices', 'sharing']],
  /** An invoice made or deleted: its time and expenses billed or released. */
  billing: [['invoices'], ['time_entries'], ['expenses'], ['reports'], ['home'], ['retainers']],
  /** A project, its tasks, people or rates: the choices of the forms, budgets, the planner's bars (their names). */
  project: [['projects'], ['time_choices'], ['expenses', 'choices'], ['reports'], ['home'], ['schedule']],
  /** A client made, changed or deleted: its contacts and projects carry its name. */
  client: [['clients'], ['contacts'], ['projects'], ['time_choices']],
  contact: [['contacts']],
  /** A task of the catalog: projects' task lists and the time choices name it. */
  task: [['tasks'], ['projects'], ['time_choices']],
  /** A member changed or an agent made: the member list and the people pickers; saved reports name their owner; the planner's rows. */
  member: [['members'], ['people'], ['saved-reports'], ['schedule']],
  invitation: [['invitations']],
  api_key: [['keys']],
  /** The workspace's settings: its name in the session; week start, rounding and zone in every sum of time, and in saved reports' dates. */
  settings: [['workspace'], ['session'], ['time_entries'], ['home'], ['reports'], ['approvals'], ['saved-reports']],
  /** The person's own profile: name and preferences come with the session too; saved reports name their owner. */
  profile: [['profile'], ['session'], ['saved-reports']],
  /** The person's own sign-ins ended. */
  own_sessions: [['profile', 'sessions']],
  /** A bank account added, changed, made default or deleted (Settings → Bank accounts). */
  bank_account: [['bank-accounts']],
  /** A recurring invoice schedule made, changed, paused or deleted. */
  recurring_invoice: [['recurring-invoices']],
  /** An invoice item category added, renamed, archived or restored: its list and the line editors' kind choices. */
  item_category: [['item-categories'], ['invoices', 'kinds']],
  /** An estimate made, changed, sent, answered or deleted; converted, it makes a draft invoice. */
  estimate: [['estimates'], ['invoices'], ['home']],
  /** A retainer made, renamed, archived, funded (a retainer invoice) or drawn on (a credit line on a draft). */
  retainer: [['retainers'], ['invoices'], ['home']],
  /** A saved report made, renamed, shared, scheduled or deleted: the saved reports list. */
  saved_report: [['saved-reports']],
  /** A plan made, moved, resized, changed or deleted, a placeholder added or staffed: the planner's schedule, the home page's plan, planned against tracked. */
  planning: [['schedule'], ['home'], ['reports']],
  /** A webhook endpoint added, changed, turned on or off, its secret rotated, deleted, or a delivery sent again: the endpoints, their counts and logs. */
  webhook_endpoint: [['webhook-endpoints']],
  /** Time off or a public holiday recorded, changed or deleted: the lists, the capacity it lowers, the approval check that weighs it. */
  time_off: [['time_off'], ['capacity'], ['approvals'], ['schedule']],
  /** A working pattern set, changed or deleted: a person's capacity and the approval check. */
  working_pattern: [['working_patterns'], ['capacity'], ['approvals'], ['schedule']],
  /** The workspace's break rules: the approval check warns by them. */
  break_rules: [['break_rules'], ['approvals']],
} as const satisfies Record<string, readonly (readonly string[])[]>;

/** A kind of change (a row of the table). */
export type Change = keyof typeof STALE;

const isChange = (name: string): name is Change => Object.hasOwn(STALE, name);

/** Whether `change` makes the query under `queryKey` stale (a key of its row is a prefix of it). */
export function stales(change: Change, queryKey: QueryKey): boolean {
  return STALE[change].some((prefix) => prefix.every((part, i) => queryKey[i] === part));
}

export interface StaleOptions {
  /**
   * Queries this tab keeps as they are: their answer is already in the cache (the mutation's
   * own), or the page shows a version the person chose to keep (after a 412). Other tabs
   * still mark them stale.
   */
  except?: (queryKey: QueryKey) => boolean;
}

/** Marks what `change` makes stale, here (active queries refetch) and in this app's other tabs. */
export function markStale(queryClient: QueryClient, change: Change, { except }: StaleOptions = {}): Promise<void> {
  tellOtherTabs({ stale: change });
  return staleHere(queryClient, change, except);
}

function staleHere(queryClient: QueryClient, change: Change, except?: (queryKey: QueryKey) => boolean) {
  return queryClient.invalidateQueries({ predicate: (q) => stales(change, q.queryKey) && !except?.(q.queryKey) });
}

/** Marks stale here what other tabs' changes make stale; returns the way to stop. */
export function followOtherTabs(queryClient: QueryClient): () => void {
  return hearOtherTabs((message) => {
    if ('stale' in message && isChange(message.stale)) void staleHere(queryClient, message.stale);
  });
}

/** A test for `except`: the query under exactly `key`. */
export const sameKey = (key: QueryKey) => (queryKey: QueryKey) => queryKey.length === key.length && key.every((part, i) => queryKey[i] === part);
