import type { ApprovalStatus, TimeSource } from '../../../db/types.ts';
import type { EntryRow } from './queries.ts';
import { decimalNumber } from '../../../money.ts';
import { currentSeconds } from './rules.ts';
import { roundHoursNumber, secondsToHoursNumber, type RoundingRule } from '../week/index.ts';

/**
 * What the caller may see: `full` (a full-access credential) adds
 * external_reference, approval_status, metadata, task, budgeted; `rates` adds the
 * stored historical billable_rate. A personal sync key gets neither.
 */
export interface EntryView {
  full: boolean;
  rates: boolean;
}

/** Everything presenting needs besides the row: the view, the workspace rounding rule and the app clock's now. */
export interface PresentContext {
  view: EntryView;
  rounding: RoundingRule;
  now: Date;
}

/** An entry is locked once approved or billed; closed once approved. */
export const isLocked = (row: Pick<EntryRow, 'approval_status' | 'is_billed'>) => row.approval_status === 'approved' || row.is_billed;
export const isClosed = (row: Pick<EntryRow, 'approval_status'>) => row.approval_status === 'approved';

/** The hours of an entry now, as a JSON number: as entered, else from its seconds (a running timer's include the current run). */
export function entryHours(row: Pick<EntryRow, 'hours_entered' | 'duration_seconds' | 'timer_started_at'>, now: Date) {
  if (row.hours_entered !== null && row.timer_started_at === null) {
    return { hours: Number(row.hours_entered), seconds: row.duration_seconds };
  }
  const seconds = currentSeconds(row, now);
  return { hours: secondsToHoursNumber(seconds), seconds };
}

/** The fields every credential sees. */
export interface PresentedBase {
  id: string;
  user_id: string;
  project_id: string;
  task_id: string;
  spent_date: string;
  hours: number;
  duration_seconds: number;
  rounded_hours: number;
  notes: string | null;
  is_running: boolean;
  timer_started_at: string | null;
  started_time: string | null;
  ended_time: string | null;
  is_locked: boolean;
  is_closed: boolean;
  is_billed: boolean;
  billable: boolean;
  source: TimeSource;
  created_at: string;
  updated_at: string;
}

/** What a full-access credential sees besides; billable_rate only with the permission to view rates. */
export interface PresentedFull extends PresentedBase {
  external_reference: Record<string, string> | null;
  approval_status: ApprovalStatus;
  metadata: Record<string, unknown> | null;
  task: { id: string; name: string };
  budgeted: boolean;
  billable_rate?: number | null;
}

/**
 * The entry as the API shows it: the fields every credential sees, then (full
 * access) the rest. Never a calculated billable_amount; there are no private
 * internal notes to leak (only `notes`, the description of the work).
 *
 * The list presents thousands of rows per request: the object is built as one
 * literal and then extended, never with object spread (spreading the base into a
 * new literal, with a conditional spread for the rate, cost tens of microseconds
 * per row and most of the list's garbage).
 */
export function presentEntry(row: EntryRow, { view, rounding, now }: PresentContext): PresentedBase | PresentedFull {
  const { hours, seconds } = entryHours(row, now);
  const entry: PresentedBase = {
    id: row.id,
    user_id: row.user_id,
    project_id: row.project_id,
    task_id: row.task_id,
    spent_date: row.spent_date,
    hours,
    duration_seconds: seconds,
    rounded_hours: roundHoursNumber(hours, rounding),
    notes: row.notes,
    is_running: row.is_running,
    timer_started_at: row.timer_started_at ? row.timer_started_at.toISOString() : null,
    started_time: row.started_time,
    ended_time: row.ended_time,
    is_locked: isLocked(row),
    is_closed: isClosed(row),
    is_billed: row.is_billed,
    billable: row.billable,
    source: row.source,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
  if (!view.full) return entry;
  const full = entry as PresentedFull;
  full.external_reference = row.external_reference;
  full.approval_status = row.approval_status;
  full.metadata = row.metadata;
  full.task = { id: row.task_id, name: row.task_name };
  full.budgeted = row.project_budget_by !== 'none';
  if (view.rates) full.billable_rate = decimalNumber(row.billable_rate);
  return full;
}

export type PresentedEntry = ReturnType<typeof presentEntry>;
