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

/**
 * Rates are looked up set-based, not by calling billable_rate() / effective_rate()
 * per entry (each call is a query of its own: a year of a large workspace took
 * minutes). Three CTEs turn the workspace's effective-dated `rates` rows into
 * [effective_from, effective_to) periods per scope, and the joins below pick, for
 * an entry `te` of project `p`, exactly the row those two functions pick:
 *
 * - `br` (project_rates): the project's scope following bill_by (project: the
 *   project rate; tasks: the project's rate for the entry's task; people: the
 *   person's rate on the project);
 * - `bu` (default_rates): bill_by people only, the person's default billable rate
 *   (the fallback when the project has no rate for the person on that date);
 * - `cr` (cost_rates): the person's internal cost rate.
 *
 * Scope columns are compared through coalesce(…, the nil UUID) so the joins hash.
 * The CTEs filter the base table (one scope kind each) so the planner estimates
 * them from its statistics: filtering one shared CTE in each join made it guess a
 * row or two and pick nested loops over hundreds of thousands of entries.
 */
const NIL = sql`'00000000-0000-0000-0000-000000000000'::uuid`;

const periods = (companyId: string, where: RawBuilder<unknown>) => sql`
      select coalesce(project_id, ${NIL}) as project_key, coalesce(task_id, ${NIL}) as task_key, user_id, hourly_rate, effective_from,
        lead(effective_from, 1, 'infinity'::date) over (partition by project_id, task_id, user_id order by effective_from) as effective_to
      from rates where company_id = ${companyId} and ${where}`;

const rateCtes = (companyId: string) => sql`
    project_rates as (${periods(companyId, sql`kind = 'billable' and project_id is not null`)}),
    default_rates as (${periods(companyId, sql`kind = 'billable' and project_id is null`)}),
    cost_rates as (${periods(companyId, sql`kind = 'cost'`)})`;

const IN_PERIOD = (alias: string) => sql`te.spent_date >= ${sql.ref(`${alias}.effective_from`)} and te.spent_date < ${sql.ref(`${alias}.effective_to`)}`;

const BILLABLE_RATE_JOINS = sql`
      left join project_rates br on br.project_key = te.project_id
        and br.task_key = case when p.bill_by = 'tasks' then te.task_id else ${NIL} end
        and coalesce(br.user_id, ${NIL}) = case when p.bill_by = 'people' then te.user_id else ${NIL} end
        and ${IN_PERIOD('br')}
      left join default_rates bu on p.bill_by = 'people' and bu.user_id = te.user_id and ${IN_PERIOD('bu')}`;

/** billable_rate(te.company_id, te.project_id, te.task_id, te.user_id, te.spent_date), from the joins above. */
const BILLABLE_RATE = sql`case when p.is_billable then case p.bill_by
        when 'project' then br.hourly_rate when 'tasks' then br.hourly_rate
        when 'people' then coalesce(br.hourly_rate, bu.hourly_rate) end end`;

const COST_RATE_JOIN = sql`
      left join cost_rates cr on cr.user_id = te.user_id and ${IN_PERIOD('cr')}`;

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
    with co as not materialized (
      select id, rounding, rounding_minutes from companies where id = ${companyId}
    ),
    page as (
      select p.*, count(*) over () as total
      from projects p
      where p.company_id = ${companyId} and ${scope} and ${active}
      order by p.name, p.id
      limit ${options.limit} offset ${options.offset}
    ),
    ${rateCtes(companyId)},
    -- Hours budgets (and none) need no price; fee and cost budgets are priced entry by entry.
    spent as (
      select te.project_id, sum(${ROUNDED_HOURS}) as budget_spent
      from time_entries te
      join co on co.id = te.company_id
      join page p on p.company_id = te.company_id and p.id = te.project_id
      where te.company_id = ${companyId} and not te.is_running
        and (not p.budget_is_monthly or te.spent_date between ${options.month.start}::date and ${options.month.end}::date) and p.budget_by not in ('task_fees', 'project_cost')
      group by te.project_id
      union all
      select te.project_id, sum(case
          when p.budget_by = 'task_fees' then case when te.billable then round(${ROUNDED_HOURS} * ${BILLABLE_RATE}, 2) end
          else round(${ROUNDED_HOURS} * coalesce(cr.hourly_rate, 0), 2)
        end)
      from time_entries te
      join co on co.id = te.company_id
      join page p on p.company_id = te.company_id and p.id = te.project_id
      ${BILLABLE_RATE_JOINS}
      ${COST_RATE_JOIN}
      where te.company_id = ${companyId} and not te.is_running
        and (not p.budget_is_monthly or te.spent_date between ${options.month.start}::date and ${options.month.end}::date) and p.budget_by in ('task_fees', 'project_cost') and (p.budget_by = 'project_cost' or te.billable)
      group by te.project_id
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
      coalesce(s.budget_spent, 0) as budget_spent
    from page p
    join clients c on c.company_id = p.company_id and c.id = p.client_id
    left join spent s on s.project_id = p.id
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

/**
 * Time that can still be invoiced (what an invoice import would take): billable, on a
 * billable project, unbilled, and in an approval state the workspace invoices.
 */
const OPEN_TIME = sql`te.billable and p.is_billable and not te.is_billed and te.approval_status = any(co.statuses)`;

export async function uninvoicedRows(
  trx: Tx,
  companyId: string,
  scope: RawBuilder<boolean>,
  options: { from: string; to: string; includeFixedFee: boolean; limit: number; offset: number },
): Promise<UninvoicedRow[]> {
  const { from, to } = options;
  const fixedFee = options.includeFixedFee ? sql`true` : sql`not p.is_fixed_fee`;
  const result = await sql<UninvoicedRow>`
    with co as not materialized (
      select id, rounding, rounding_minutes, currency, timezone,
        case when invoice_before_approval or not approvals_enabled then array['unsubmitted', 'submitted', 'approved'] else array['approved'] end as statuses
      from companies where id = ${companyId}
    ),
    projects_in_scope as not materialized (
      select p.* from projects p
      where p.company_id = ${companyId} and ${scope} and ${fixedFee}
    ),
    ${rateCtes(companyId)},
    -- Hours need no price: every entry of the range, without the rate joins.
    time_totals as (
      select te.project_id,
        sum(${ROUNDED_HOURS}) as total_hours,
        sum(${ROUNDED_HOURS}) filter (where ${OPEN_TIME}) as uninvoiced_hours
      from time_entries te
      join co on co.id = te.company_id
      join projects_in_scope p on p.company_id = te.company_id and p.id = te.project_id
      where te.company_id = ${companyId} and te.spent_date between ${from}::date and ${to}::date
        and not te.is_running and te.approval_status <> 'rejected'
      group by te.project_id
    ),
    -- Only the uninvoiced time of time-and-materials projects is priced (most of a year is billed).
    time_amounts as (
      select te.project_id, sum(round(${ROUNDED_HOURS} * ${BILLABLE_RATE}, 2)) as time_amount
      from time_entries te
      join co on co.id = te.company_id
      join projects_in_scope p on p.company_id = te.company_id and p.id = te.project_id
      ${BILLABLE_RATE_JOINS}
      where te.company_id = ${companyId} and te.spent_date between ${from}::date and ${to}::date
        and not te.is_running and ${OPEN_TIME} and not p.is_fixed_fee
      group by te.project_id
    ),
    expense_totals as (
      select ex.project_id, sum(ex.total_cost) as uninvoiced_expenses
      from expenses ex
      join co on co.id = ex.company_id
      join projects_in_scope p on p.company_id = ex.company_id and p.id = ex.project_id
      where ex.company_id = ${companyId} and ex.spent_date between ${from}::date and ${to}::date
        and ex.billable and p.is_billable and not ex.is_billed and ex.approval_status = any(co.statuses)
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
        coalesce(a.time_amount, 0) + coalesce(f.balance, 0) + coalesce(e.uninvoiced_expenses, 0) as uninvoiced_amount
      from projects_in_scope p
      join co on co.id = p.company_id
      join clients c on c.company_id = p.company_id and c.id = p.client_id
      left join time_totals t on t.project_id = p.id
      left join time_amounts a on a.project_id = p.id
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
    ${rateCtes(companyId)},
    totals as (
      select te.user_id,
        sum(${ROUNDED_HOURS}) as total_hours,
        sum(${ROUNDED_HOURS}) filter (where te.billable) as billable_hours,
        sum(round(${ROUNDED_HOURS} * ${BILLABLE_RATE}, 2)) filter (where te.billable) as billable_amount
      from time_entries te
      join companies co on co.id = te.company_id
      join projects p on p.company_id = te.company_id and p.id = te.project_id
      ${BILLABLE_RATE_JOINS}
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
