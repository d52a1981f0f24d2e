import { sql, type Expression } from 'kysely';
import type { ApprovalStatus, WeekStart } from '../../../db/types.ts';
import type { Tx } from '../../../db/tenant.ts';
import { ApiError, conflict } from '../../../errors.ts';
import { weekEndOf, weekStartOf } from './rules.ts';

/**
 * Locks on time and expenses, shared by time entries, expenses and approvals.
 *
 * - A record is locked once approved or billed: it cannot be changed, restarted
 *   or deleted. A billed one answers 409 `time_entry_locked` / `expense_locked`
 *   (`reason: billed`): billing is not approval, and only releasing it from its
 *   draft invoice opens it. An approved one answers the week lock's 409, the
 *   spec's code for changed time in an approved week.
 * - The week lock: a person's week (from the workspace's `week_start`) that holds
 *   any approved time entry or expense of theirs refuses new or changed time and
 *   expenses in it (409 `approved_timesheet_week_locked`), until an approver
 *   withdraws the approval.
 */

export const WEEK_LOCKED = 'approved_timesheet_week_locked';

export type LockableKind = 'time_entry' | 'expense';

/**
 * Throws when the record is locked: billed, 409 `<kind>_locked` with `reason:
 * billed` (checked first: withdrawing an approval would not release it);
 * approved, 409 `approved_timesheet_week_locked` of its week (weekLockedError),
 * the same answer as any other change of time in that week.
 */
export function assertNotLocked(
  record: { approval_status: ApprovalStatus; is_billed: boolean; spent_date: string },
  kind: LockableKind,
  weekStart: WeekStart,
  action = 'changed',
) {
  const noun = kind === 'time_entry' ? 'time entry' : 'expense';
  if (record.is_billed) {
    throw new ApiError(`${kind}_locked`, `This ${noun} is billed on an invoice and cannot be ${action}.`, { reason: 'billed' });
  }
  if (record.approval_status === 'approved') throw weekLockedError(weekStartOf(record.spent_date, weekStart));
}

/** The first day of each distinct week the dates fall in. */
export function weeksOf(dates: readonly string[], weekStart: WeekStart): string[] {
  return [...new Set(dates.map((d) => weekStartOf(d, weekStart)))].sort();
}

/**
 * SQL: whether the person's days from `from` to `to` (a week) hold approved time
 * entries or expenses. The one definition of the week lock's test, used by
 * lockedWeek and by the create's context query (queries.ts).
 */
export function holdsApproved(companyId: string, userId: Expression<unknown>, from: Expression<unknown>, to: Expression<unknown>) {
  return sql<boolean>`(exists (
        select 1 from time_entries te
        where te.company_id = ${companyId} and te.user_id = ${userId}
          and te.approval_status = 'approved' and te.spent_date between ${from} and ${to})
      or exists (
        select 1 from expenses ex
        where ex.company_id = ${companyId} and ex.user_id = ${userId}
          and ex.approval_status = 'approved' and ex.spent_date between ${from} and ${to}))`;
}

/**
 * The first of the person's weeks (given by their first day) that holds approved
 * time or expenses, or null when all are open. One query whatever the number of weeks.
 */
export async function lockedWeek(trx: Tx, companyId: string, userId: string, weekStarts: readonly string[]): Promise<string | null> {
  if (weekStarts.length === 0) return null;
  const ranges = weekStarts.map((ws) => sql`(${ws}::date, ${weekEndOf(ws)}::date)`);
  const result = await sql<{ week_start: string }>`
    select w.ws::text as week_start
    from (values ${sql.join(ranges)}) as w (ws, we)
    where ${holdsApproved(companyId, sql.val(userId), sql.ref('w.ws'), sql.ref('w.we'))}
    order by w.ws
    limit 1`.execute(trx);
  return result.rows[0]?.week_start ?? null;
}

/** The 409 `approved_timesheet_week_locked` of a week (its first day) that holds approved time or expenses. */
export function weekLockedError(week: string): ApiError {
  return new ApiError(
    WEEK_LOCKED,
    `The week of ${week} holds approved time, so its time and expenses cannot change until an approver withdraws the approval.`,
    { week_start: week, week_end: weekEndOf(week) },
  );
}

/**
 * The advisory-lock key of a person's time and expenses in a workspace. The ids are
 * inlined as literals (sql.lit), so the shared lock can ride in a tenant
 * transaction's first statement (withTenant's prelude). `purpose` gives another
 * lock of the same person its own key (the timer starts' lock below).
 */
const personTimeKey = (companyId: string, userId: string, purpose = '') =>
  sql`hashtextextended(${sql.lit(`${purpose}${companyId}/${userId}`)}, 0)`;

/**
 * Writes of a person's time or expenses against an approval of them. A write
 * holds this shared, transaction-scoped advisory lock from before it reads the
 * week lock until it commits; an approval takes it exclusively
 * (lockPersonTimeForApproval) before its final read. So an approval waits for
 * the writes in flight and sees them (409 `approval_conflict` when they changed
 * the period), and a write that starts while an approval runs is a 409
 * `conflict` instead of slipping an unsubmitted entry into the week being
 * approved. It must be a statement before the week-lock read: in READ
 * COMMITTED a statement's snapshot is taken when it starts. Writers only try,
 * never wait, so a write holding row locks cannot deadlock with an approval
 * waiting for them.
 *
 * The expression is true when the lock was taken; see enteredPersonTime.
 */
export const tryEnterPersonTime = (companyId: string, userId: string) =>
  sql<boolean>`pg_try_advisory_xact_lock_shared(${personTimeKey(companyId, userId.toLowerCase())})`;

/**
 * tryEnterPersonTime for a write whose checks and write are one statement after it
 * (the time entry create): the outcome is noted in a transaction-local setting, which
 * that statement reads with ENTERED_PERSON_TIME (it cannot see this statement's row).
 */
export const enterPersonTimeNoted = (companyId: string, userId: string) =>
  sql<string>`set_config('sheaf.entered_person_time', case when ${tryEnterPersonTime(companyId, userId)} then 'on' else 'off' end, true)`;

/** SQL: whether this transaction took the shared lock with enterPersonTimeNoted. */
export const ENTERED_PERSON_TIME = sql<boolean>`coalesce(current_setting('sheaf.entered_person_time', true) = 'on', false)`;

/** Throws the 409 of a write that met an approval of the person's time in progress (tryEnterPersonTime false). */
export function enteredPersonTime(entered: boolean | undefined): void {
  if (!entered) throw conflict("An approval of this person's time is in progress; retry in a moment.", { refusal: 'approval_in_progress' });
}

/** Takes the shared lock of a person's time in its own statement (see tryEnterPersonTime). */
export async function enterPersonTime(trx: Tx, companyId: string, userId: string): Promise<void> {
  const result = await sql<{ ok: boolean }>`select ${tryEnterPersonTime(companyId, userId)} as ok`.execute(trx);
  enteredPersonTime(result.rows[0]?.ok);
}

/** Taken by an approval, exclusively, before it locks and re-reads the period (see enterPersonTime). */
export async function lockPersonTimeForApproval(trx: Tx, companyId: string, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${personTimeKey(companyId, userId.toLowerCase())})`.execute(trx);
}

/**
 * Serializes the timer starts of one person that replace the running timer
 * (`replace_running`): each waits for the one before it to commit, then stops the
 * timer it started. Without it two simultaneous replacing starts both find no
 * timer to stop and one loses to the one-running-timer index. A key of its own:
 * it never meets the approval lock above.
 */
export async function lockPersonTimers(trx: Tx, companyId: string, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${personTimeKey(companyId, userId.toLowerCase(), 'timer/')})`.execute(trx);
}

/**
 * Throws 409 `approved_timesheet_week_locked` (with `week_start` and `week_end`)
 * when any of the dates falls in a week of the person's that holds approved time
 * or expenses.
 */
export async function assertWeeksOpen(
  trx: Tx,
  companyId: string,
  userId: string,
  dates: readonly string[],
  weekStart: WeekStart,
): Promise<void> {
  await enterPersonTime(trx, companyId, userId);
  const week = await lockedWeek(trx, companyId, userId, weeksOf(dates, weekStart));
  if (week !== null) throw weekLockedError(week);
}
