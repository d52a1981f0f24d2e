import { sql } from 'kysely';
import type { ApprovalStatus, WeekStart } from '../../../db/types.ts';
import type { Tx } from '../../../db/tenant.ts';
import { teammateOf } from '../../../access/teammates.ts';
import { activeHumanMembers } from '../../people/users/index.ts';
import type { Period, PeriodItem } from './preflight.ts';
import type { ApprovedItem } from './withdrawal.ts';

/** The approval-related workspace settings. */
export async function loadApprovalSettings(trx: Tx, companyId: string) {
  return trx
    .selectFrom('companies')
    .select(['name', 'approvals_enabled', 'week_start'])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow() as Promise<{ name: string; approvals_enabled: boolean; week_start: WeekStart }>;
}

/** A member of the workspace (any role, active or not) with what approvals need (their language for the mail); undefined when there is none. */
export function findPerson(trx: Tx, companyId: string, userId: string) {
  return trx
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'm.role', 'm.is_active', 'm.expected_weekly_hours', 'u.email', 'u.first_name', 'u.last_name', 'u.language'])
    .where('m.company_id', '=', companyId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
}

/** A member by id or e-mail (for the CLI). */
export function findPersonByRef(trx: Tx, companyId: string, ref: string, byId: boolean) {
  return trx
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'm.role', 'm.is_active', 'm.expected_weekly_hours', 'u.email', 'u.first_name', 'u.last_name'])
    .where('m.company_id', '=', companyId)
    .where(byId ? 'u.id' : 'u.email', '=', ref.trim().toLowerCase())
    .executeTakeFirst();
}

export async function projectExists(trx: Tx, companyId: string, projectId: string): Promise<boolean> {
  const row = await trx.selectFrom('projects').select('id').where('company_id', '=', companyId).where('id', '=', projectId).executeTakeFirst();
  return row !== undefined;
}

/**
 * Every time entry and expense of the person dated in the period, locked
 * `FOR UPDATE` when `lock` (a concurrent approval or edit of them waits).
 */
export async function periodItems(trx: Tx, companyId: string, userId: string, period: Period, lock: boolean): Promise<PeriodItem[]> {
  let time = trx
    .selectFrom('time_entries')
    .select([
      'id',
      'project_id',
      'task_id',
      'spent_date',
      'approval_status',
      'is_billed',
      'updated_at',
      'notes',
      'billable',
      'duration_seconds',
      'hours_entered',
      'is_running',
      'started_time',
      'ended_time',
    ])
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('spent_date', '>=', period.from)
    .where('spent_date', '<=', period.to)
    .orderBy('id');
  let expenses = trx
    .selectFrom('expenses')
    .select(['id', 'project_id', 'expense_category_id', 'spent_date', 'approval_status', 'is_billed', 'updated_at', 'notes', 'billable', 'total_cost', 'units'])
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('spent_date', '>=', period.from)
    .where('spent_date', '<=', period.to)
    .orderBy('id');
  if (lock) {
    time = time.forUpdate();
    expenses = expenses.forUpdate();
  }
  const [timeRows, expenseRows] = [await time.execute(), await expenses.execute()];
  return [...timeRows.map((t) => ({ kind: 'time' as const, ...t })), ...expenseRows.map((e) => ({ kind: 'expense' as const, ...e }))];
}

/**
 * The person's approved time entries and expenses dated from..to (any project),
 * with the invoice of the billed ones: what holds their weeks locked (the same
 * test as holdsApproved in tracking/week/lock.ts), for the withdrawal's report.
 */
export async function approvedItemsBetween(trx: Tx, companyId: string, userId: string, from: string, to: string): Promise<ApprovedItem[]> {
  // Time entries and expenses through one select (the filters are pushed into both branches).
  const { rows } = await sql<ApprovedItem>`
    select r.kind, r.id, r.spent_date, r.project_id, r.is_billed, r.invoice_id, i.number as invoice_number, i.state as invoice_state
    from (
      select 'time' as kind, company_id, id, user_id, approval_status, spent_date, project_id, is_billed, invoice_id from time_entries
      union all
      select 'expense', company_id, id, user_id, approval_status, spent_date, project_id, is_billed, invoice_id from expenses
    ) r
    left join invoices i on i.company_id = r.company_id and i.id = r.invoice_id
    where r.company_id = ${companyId} and r.user_id = ${userId} and r.approval_status = 'approved'
      and r.spent_date between ${from}::date and ${to}::date
    order by r.kind = 'expense', r.id`.execute(trx);
  return rows;
}

/** Moves the given items to `to`, touching updated_at (approval_status is part of their bodies). */
export async function setApprovalStatus(trx: Tx, companyId: string, items: readonly PeriodItem[], to: ApprovalStatus, now: Date) {
  const timeIds = items.filter((i) => i.kind === 'time').map((i) => i.id);
  const expenseIds = items.filter((i) => i.kind === 'expense').map((i) => i.id);
  if (timeIds.length) {
    await trx.updateTable('time_entries').set({ approval_status: to, updated_at: now }).where('company_id', '=', companyId).where('id', 'in', timeIds).execute();
  }
  if (expenseIds.length) {
    await trx.updateTable('expenses').set({ approval_status: to, updated_at: now }).where('company_id', '=', companyId).where('id', 'in', expenseIds).execute();
  }
  return { time_entry_count: timeIds.length, expense_count: expenseIds.length };
}

/**
 * Who may approve the person's time, to be told of a submission: active human
 * members other than the person who are owners or administrators, the person's
 * managers (teammate assignments), and managers with approve_managed_projects
 * who actively manage one of `projectIds`. Ordered by e-mail; with each one's
 * language, as the mail is written in it.
 */
export function approversOf(trx: Tx, companyId: string, personId: string, projectIds: readonly string[]) {
  return activeHumanMembers(trx, companyId)
    .select(['u.email', 'u.first_name', 'u.last_name', 'u.language'])
    .where('m.user_id', '<>', personId)
    .where((eb) =>
      eb.or([
        eb('m.role', 'in', ['owner', 'administrator']),
        eb.and([
          eb('m.role', '=', 'manager'),
          eb.or([
            teammateOf(eb, sql.ref('m.company_id'), sql.ref('m.user_id'), personId),
            ...(projectIds.length
              ? [
                  eb.and([
                    sql<boolean>`'approve_managed_projects' = any(m.permissions)`,
                    eb.exists(
                      eb
                        .selectFrom('project_user_assignments as pm')
                        .select(sql`1`.as('one'))
                        .whereRef('pm.company_id', '=', 'm.company_id')
                        .whereRef('pm.user_id', '=', 'm.user_id')
                        .where('pm.is_active', '=', true)
                        .where('pm.is_project_manager', '=', true)
                        .where('pm.project_id', 'in', [...projectIds]),
                    ),
                  ]),
                ]
              : []),
          ]),
        ]),
      ]),
    )
    .orderBy('u.email')
    .execute();
}
