import { sql, type RawBuilder } from 'kysely';
import type { Tx } from '../../db/tenant.ts';

/**
 * The report queries. Every entry is rounded on its own by the workspace rule
 * (rounded_seconds, the SQL twin of rules.roundSeconds) and priced by the rate in
 * force on its work date (billable_rate / effective_rate over the effective-dated
 * `rates` table), so a later rate change never reprices earlier work. An entry's
 * amount is its rounded hours (six places) × rate, rounded to cents; report
 * amounts are sums of entry amounts.
 */

const ROUNDED_HOURS = sql`seconds_to_hours(rounded_seconds(te.duration_seconds, co.rounding, co.rounding_minutes))`;
const ENTRY_FEE = sql`round(${ROUNDED_HOURS} * billable_rate(te.company_id, te.project_id, te.task_id, te.user_id, te.spent_date), 2)`;
const ENTRY_COST = sql`round(${ROUNDED_HOURS} * coalesce(effective_rate(te.company_id, 'cost', null, null, te.user_id, te.spent_date), 0), 2)`;

export interface BudgetRow {
  project_id: string;
  project_name: string;
  client_id: string;
  client_name: string;
  budget_is_monthly: boolean;
  budget_by: string;
  is_active: boolean;
  budget: string | null;
  budget_spent: string;
  total: string;
}

export async function projectBudgetRows(
  trx: Tx,
  companyId: string,
  scope: RawBuilder<boolean>,
  options: { isActive?: boolean; month: { start: string; end: string }; limit: number; offset: number },
): Promise<BudgetRow[]> {
  const active = options.isActive === undefined ? sql`true` : sql`p.is_active = ${options.isActive}`;
  const result = await sql<BudgetRow>`
    with page as (
      select p.*, count(*) over () as total
      from projects p
      where p.company_id = ${companyId} and ${scope} and ${active}
      order by p.name, p.id
      limit ${options.limit} offset ${options.offset}
    )
    select p.id as project_id, p.name as project_name, c.id as client_id, c.name as client_name,
      p.budget_is_monthly, p.budget_by, p.is_active, p.total::text as total,
      case
        when p.budget_by in ('project', 'project_cost') then p.budget
        when p.budget_by in ('task', 'task_fees') then (
          select sum(pta.budget) from project_task_assignments pta
          where pta.company_id = p.company_id and pta.project_id = p.id and pta.is_active)
        when p.budget_by = 'person' then (
          select sum(pua.budget) from project_user_assignments pua
          where pua.company_id = p.company_id and pua.project_id = p.id and pua.is_active)
      end as budget,
      coalesce((
        select sum(case
          when p.budget_by = 'task_fees' then case when te.billable then ${ENTRY_FEE} end
          when p.budget_by = 'project_cost' then ${ENTRY_COST}
          else ${ROUNDED_HOURS}
        end)
        from time_entries te
        join companies co on co.id = te.company_id
        where te.company_id = p.company_id and te.project_id = p.id and not te.is_running
          and (not p.budget_is_monthly or te.spent_date between ${options.month.start}::date and ${options.month.end}::date)
      ), 0) as budget_spent
    from page p
    join clients c on c.company_id = p.company_id and c.id = p.client_id
    order by p.name, p.id`.execute(trx);
  return result.rows;
}

export async function countScopedProjects(trx: Tx, companyId: string, scope: RawBuilder<boolean>, isActive?: boolean) {
  const active = isActive === undefined ? sql`true` : sql`p.is_active = ${isActive}`;
  const r = await sql<{ n: string }>`select count(*) as n from projects p where p.company_id = ${companyId} and ${scope} and ${active}`.execute(trx);
  return Number(r.rows[0].n);
}

export interface UninvoicedRow {
  client_id: string;
  client_name: string;
  project_id: string;
  project_name: string;
  currency: string;
  total_hours: string;
  uninvoiced_hours: string;
  uninvoiced_expenses: string;
  uninvoiced_amount: string;
  total: string;
}

export async function uninvoicedRows(
  trx: Tx,
  companyId: string,
  scope: RawBuilder<boolean>,
  options: { from: string; to: string; includeFixedFee: boolean; limit: number; offset: number },
): Promise<UninvoicedRow[]> {
  const { from, to } = options;
  const fixedFee = options.includeFixedFee ? sql`true` : sql`not p.is_fixed_fee`;
  const result = await sql<UninvoicedRow>`
    with co as (
      select id, rounding, rounding_minutes, currency, timezone,
        case when invoice_before_approval then array['unsubmitted', 'submitted', 'approved'] else array['approved'] end as statuses
      from companies where id = ${companyId}
    ),
    projects_in_scope as (
      select p.* from projects p
      where p.company_id = ${companyId} and ${scope} and ${fixedFee}
    ),
    time_totals as (
      select te.project_id,
        sum(${ROUNDED_HOURS}) as total_hours,
        sum(${ROUNDED_HOURS}) filter (where te.billable and not te.is_billed and te.approval_status = any(co.statuses)) as uninvoiced_hours,
        sum(${ENTRY_FEE}) filter (where te.billable and not te.is_billed and te.approval_status = any(co.statuses) and not p.is_fixed_fee) as time_amount
      from time_entries te
      join co on co.id = te.company_id
      join projects_in_scope p on p.company_id = te.company_id and p.id = te.project_id
      where te.company_id = ${companyId} and te.spent_date between ${from}::date and ${to}::date
        and not te.is_running and te.approval_status <> 'rejected'
      group by te.project_id
    ),
    expense_totals as (
      select ex.project_id, sum(ex.total_cost) as uninvoiced_expenses
      from expenses ex
      join co on co.id = ex.company_id
      join projects_in_scope p on p.company_id = ex.company_id and p.id = ex.project_id
      where ex.company_id = ${companyId} and ex.spent_date between ${from}::date and ${to}::date
        and ex.billable and not ex.is_billed and ex.approval_status = any(co.statuses)
      group by ex.project_id
    ),
    fixed_fee as (
      select p.id as project_id,
        greatest(p.fee - coalesce((
          select sum(case when li.effect = 'credit' then -1 else 1 end * round(li.quantity * li.unit_price, 2))
          from invoice_line_items li
          join invoices i on i.company_id = li.company_id and i.id = li.invoice_id
          where li.company_id = p.company_id and li.project_id = p.id and i.state <> 'voided' and lower(li.kind) = 'service'
        ), 0), 0) as balance
      from projects_in_scope p
      join co on co.id = p.company_id
      where p.is_fixed_fee
        and ${to}::date >= coalesce(p.starts_on, (p.created_at at time zone co.timezone)::date)
    ),
    report as (
      select p.id as project_id, p.name as project_name, c.id as client_id, c.name as client_name,
        coalesce(c.currency, co.currency) as currency,
        coalesce(t.total_hours, 0) as total_hours,
        coalesce(t.uninvoiced_hours, 0) as uninvoiced_hours,
        coalesce(e.uninvoiced_expenses, 0) as uninvoiced_expenses,
        coalesce(t.time_amount, 0) + coalesce(f.balance, 0) + coalesce(e.uninvoiced_expenses, 0) as uninvoiced_amount
      from projects_in_scope p
      join co on co.id = p.company_id
      join clients c on c.company_id = p.company_id and c.id = p.client_id
      left join time_totals t on t.project_id = p.id
      left join expense_totals e on e.project_id = p.id
      left join fixed_fee f on f.project_id = p.id
    )
    select *, count(*) over () as total from report
    where total_hours > 0 or uninvoiced_expenses > 0 or uninvoiced_amount > 0
    order by client_name, project_name, project_id
    limit ${options.limit} offset ${options.offset}`.execute(trx);
  return result.rows;
}

export interface TeamRow {
  user_id: string;
  first_name: string;
  last_name: string;
  is_contractor: boolean;
  currency: string;
  total_hours: string;
  billable_hours: string;
  billable_amount: string;
  total: string;
}

export async function teamRows(
  trx: Tx,
  companyId: string,
  scope: RawBuilder<boolean>,
  options: { from: string; to: string; limit: number; offset: number },
): Promise<TeamRow[]> {
  const result = await sql<TeamRow>`
    with people as (
      select m.user_id, u.first_name, u.last_name, m.is_contractor, m.is_active
      from memberships m join users u on u.id = m.user_id
      where m.company_id = ${companyId} and m.role <> 'client' and ${scope}
    ),
    totals as (
      select te.user_id,
        sum(${ROUNDED_HOURS}) as total_hours,
        sum(${ROUNDED_HOURS}) filter (where te.billable) as billable_hours,
        sum(${ENTRY_FEE}) filter (where te.billable) as billable_amount
      from time_entries te
      join companies co on co.id = te.company_id
      where te.company_id = ${companyId} and te.spent_date between ${options.from}::date and ${options.to}::date
        and not te.is_running
      group by te.user_id
    )
    select p.user_id, p.first_name, p.last_name, p.is_contractor, co.currency,
      coalesce(t.total_hours, 0) as total_hours, coalesce(t.billable_hours, 0) as billable_hours,
      coalesce(t.billable_amount, 0) as billable_amount, count(*) over () as total
    from people p
    join companies co on co.id = ${companyId}
    left join totals t on t.user_id = p.user_id
    where p.is_active or t.user_id is not null
    order by p.last_name, p.first_name, p.user_id
    limit ${options.limit} offset ${options.offset}`.execute(trx);
  return result.rows;
}
