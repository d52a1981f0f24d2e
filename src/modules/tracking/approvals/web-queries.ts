import { sql } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';

/**
 * Reads of the web app's approval screens: the periods people submitted (or had
 * approved), grouped later by week, and the reason of a person's last rejection.
 */

export interface StatusDay {
  user_id: string;
  project_id: string;
  spent_date: string;
  approval_status: 'submitted' | 'approved';
  item_count: number;
  seconds: number;
}

/**
 * Submitted (any date) and approved (dated from `approvedSince`) time entries and
 * expenses of the workspace, counted per person, project, day and state. Excludes
 * `exceptUserId` (a manager never reviews their own time).
 */
export async function reviewableDays(trx: Tx, companyId: string, approvedSince: string, exceptUserId: string | null): Promise<StatusDay[]> {
  const { rows } = await sql<StatusDay>`
    select user_id, project_id, spent_date::text as spent_date, approval_status,
           count(*)::int as item_count, coalesce(sum(seconds), 0)::int as seconds
    from (
      select user_id, project_id, spent_date, approval_status, duration_seconds as seconds from time_entries
      where company_id = ${companyId} and (approval_status = 'submitted' or (approval_status = 'approved' and spent_date >= ${approvedSince}::date))
      union all
      select user_id, project_id, spent_date, approval_status, 0 from expenses
      where company_id = ${companyId} and (approval_status = 'submitted' or (approval_status = 'approved' and spent_date >= ${approvedSince}::date))
    ) r
    where ${exceptUserId === null ? sql`true` : sql`user_id <> ${exceptUserId}`}
    group by user_id, project_id, spent_date, approval_status
    order by spent_date`.execute(trx);
  return rows;
}

/**
 * The person's latest rejection that returned one of `itemIds` (from the audit
 * log, where reject records the reason and the ids it moved), with who rejected.
 */
export async function lastRejectionOf(trx: Tx, companyId: string, userId: string, itemIds: ReadonlySet<string>) {
  if (itemIds.size === 0) return null;
  const rows = await trx
    .selectFrom('audit_logs as a')
    .leftJoin('users as u', 'u.id', 'a.actor_user_id')
    .select(['a.occurred_at', 'a.details', 'u.first_name', 'u.last_name'])
    .where('a.company_id', '=', companyId)
    .where('a.action', '=', 'timesheet.rejected')
    .where('a.subject_type', '=', 'user')
    .where('a.subject_id', '=', userId)
    .orderBy('a.occurred_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(50)
    .execute();
  for (const row of rows) {
    const details = row.details as { reason?: unknown; time_entry_ids?: unknown; expense_ids?: unknown };
    const ids = [...(Array.isArray(details.time_entry_ids) ? details.time_entry_ids : []), ...(Array.isArray(details.expense_ids) ? details.expense_ids : [])];
    if (!ids.some((id) => itemIds.has(id as string))) continue;
    return {
      reason: typeof details.reason === 'string' ? details.reason : null,
      rejected_at: new Date(row.occurred_at).toISOString(),
      rejected_by: row.first_name === null ? null : `${row.first_name} ${row.last_name ?? ''}`.trim(),
    };
  }
  return null;
}

/**
 * What the review shows beside the period's items: each time entry's task name and
 * stored billable rate, each expense's category, and each project's name, client
 * and currency (the client's, else the workspace's). Ids are the period's own, read
 * just before in the same transaction.
 */
export async function reviewDetails(
  trx: Tx,
  companyId: string,
  ids: { time: readonly string[]; expenses: readonly string[]; projects: readonly string[] },
) {
  const entries = ids.time.length
    ? await trx
        .selectFrom('time_entries as te')
        .leftJoin('tasks as t', (j) => j.onRef('t.company_id', '=', 'te.company_id').onRef('t.id', '=', 'te.task_id'))
        .select(['te.id', 't.name as task_name', 'te.billable_rate'])
        .where('te.company_id', '=', companyId)
        .where('te.id', 'in', [...ids.time])
        .execute()
    : [];
  const expenses = ids.expenses.length
    ? await trx
        .selectFrom('expenses as ex')
        .innerJoin('expense_categories as ec', (j) => j.onRef('ec.company_id', '=', 'ex.company_id').onRef('ec.id', '=', 'ex.expense_category_id'))
        .select(['ex.id', 'ec.name as category_name', 'ec.unit_name'])
        .where('ex.company_id', '=', companyId)
        .where('ex.id', 'in', [...ids.expenses])
        .execute()
    : [];
  const projects = ids.projects.length
    ? await trx
        .selectFrom('projects as p')
        .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 'p.company_id').onRef('c.id', '=', 'p.client_id'))
        .innerJoin('companies as co', 'co.id', 'p.company_id')
        .select(['p.id', 'p.name', 'p.code', 'c.name as client_name', sql<string>`coalesce(c.currency, co.currency)`.as('currency')])
        .where('p.company_id', '=', companyId)
        .where('p.id', 'in', [...ids.projects])
        .orderBy('c.name')
        .orderBy('p.name')
        .execute()
    : [];
  return {
    entries: new Map(entries.map((e) => [e.id, e])),
    expenses: new Map(expenses.map((e) => [e.id, e])),
    projects,
  };
}
