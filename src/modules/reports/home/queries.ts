import { sql } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { mayRecordOnProject } from '../../../access/time.ts';
import type { Tx } from '../../../db/tenant.ts';
import { invoiceTotals, linesOf, listInvoiceRows } from '../../billing/invoices/index.ts';

/** Reads of the home page; each takes the workspace (the caller's) first and filters on it. */

/** Seconds of the person's completed time per day of from..to (running timers are counted by the page, live). */
export async function secondsByDay(trx: Tx, companyId: string, userId: string, from: string, to: string): Promise<Map<string, number>> {
  const { rows } = await sql<{ day: string; seconds: number }>`
    select spent_date::text as day, sum(duration_seconds)::int as seconds
    from time_entries
    where company_id = ${companyId} and user_id = ${userId} and spent_date between ${from}::date and ${to}::date and not is_running
    group by spent_date`.execute(trx);
  return new Map(rows.map((r) => [r.day, r.seconds]));
}

export interface RecentWork {
  project_id: string;
  project_name: string;
  project_code: string | null;
  client_name: string;
  task_id: string;
  task_name: string;
  notes: string | null;
  last_date: string;
}

/**
 * The caller's most recent distinct (project, task, notes) of completed entries, newest
 * first, only where a timer could start again now: the project active, the task actively
 * assigned and active, and the caller allowed to record there (mayRecordOnProject, the
 * rule a create checks).
 */
export async function recentWork(trx: Tx, p: Principal, limit: number): Promise<RecentWork[]> {
  const { rows } = await sql<RecentWork & { assignment_active: boolean | null }>`
    select te.project_id, p.name as project_name, p.code as project_code, c.name as client_name,
      te.task_id, t.name as task_name, te.notes, max(te.spent_date)::text as last_date, pua.is_active as assignment_active
    from time_entries te
    join projects p on p.company_id = te.company_id and p.id = te.project_id and p.is_active
    join clients c on c.company_id = p.company_id and c.id = p.client_id
    join project_task_assignments pta on pta.company_id = te.company_id and pta.project_id = te.project_id and pta.task_id = te.task_id and pta.is_active
    join tasks t on t.company_id = te.company_id and t.id = te.task_id and t.is_active
    left join project_user_assignments pua on pua.company_id = te.company_id and pua.project_id = te.project_id and pua.user_id = te.user_id
    where te.company_id = ${p.companyId} and te.user_id = ${p.userId} and not te.is_running
    group by te.project_id, p.name, p.code, c.name, te.task_id, t.name, te.notes, pua.is_active
    order by max(te.created_at) desc, max(te.spent_date) desc
    limit ${limit * 4}`.execute(trx);
  return rows
    .filter((r) => mayRecordOnProject({ role: p.role }, { is_active: r.assignment_active }))
    .slice(0, limit)
    .map(({ assignment_active: _, ...r }) => r);
}

/** Open invoices of the workspace due before `today`, each with its currency and due amount (computeTotals, the one invoice arithmetic). */
export async function overdueInvoices(trx: Tx, companyId: string, today: string) {
  const overdue: { currency: string; amount: string }[] = [];
  const perPage = 2000;
  for (let page = 1; ; page++) {
    const { rows } = await listInvoiceRows(trx, companyId, { state: 'open' }, { page, perPage });
    const due = rows.filter((r) => r.due_date < today);
    // Grouped once: filtering every line per invoice was quadratic (1,500 overdue invoices took seconds).
    const linesByInvoice = new Map<string, Awaited<ReturnType<typeof linesOf>>>();
    for (const l of await linesOf(trx, companyId, due.map((r) => r.id))) {
      const list = linesByInvoice.get(l.invoice_id);
      if (list) list.push(l);
      else linesByInvoice.set(l.invoice_id, [l]);
    }
    for (const r of due) {
      const totals = invoiceTotals(r, linesByInvoice.get(r.id) ?? []);
      overdue.push({ currency: r.currency, amount: totals.dueAmount.toFixed() });
    }
    if (rows.length < perPage) return overdue;
  }
}
