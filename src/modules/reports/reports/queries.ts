import { sql, type RawBuilder } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';
import { FIXED_FEE_BALANCE, fixedFeeEligible } from '../../billing/invoices/index.ts';
import { ensureTimeTotals, splitByHorizon } from './totals.ts';
import { hoursTotalsSql, type HoursTotalsRow } from './table-totals.ts';
import {
  BILLABLE_RATE,
  BILLABLE_RATE_CENTS,
  BILLABLE_RATE_JOINS,
  COST_RATE,
  COST_RATE_CENTS,
  entryCents,
  IN_PERIOD,
  NIL,
  OPEN_TIME,
  periods,
  rateCtes,
  reportSettings,
  roundedHoursSql,
  roundedMicroHours,
  amountDigits,
  centsPerUnit,
  centsStep,
  workCurrency,
} from './pricing.ts';

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
  /** A money budget's currency: fees the project's work currency, internal cost the workspace's; null for hours. */
  currency: string | null;
  total: string;
}

type PageRow = Omit<BudgetRow, 'budget_spent' | 'currency'>;

/**
 * The budget report in two steps. The page (projects in scope, their budget and the total) comes
 * first; then what each project of the page has spent, one branch per kind of budget and period,
 * each over `te.project_id = any(<the page's ids of that kind>)`. The ids are parameters, so the
 * planner (custom plans, see service.ts's reportPlanning) estimates each branch from the column statistics instead
 * of guessing a row or two through a CTE (which made it join the page to the sums in a nested
 * loop: 2,000 × 2,000 comparisons). Hours need no price; task_fees need only the billable rate
 * joins and project_cost only the cost rate join (and nothing at all when the caller may not see
 * costs: the route hides them). The workspace rounding rule is a parameter too, so the planner
 * folds rounded_seconds() to the workspace's one branch. A budget over all time adds the kept
 * totals of the months before the horizon (totals.ts) to the entries it reads from the horizon on;
 * a monthly budget reads its month.
 */
export async function projectBudgetRows(
  trx: Tx,
  companyId: string,
  scope: RawBuilder<boolean>,
  options: { isActive?: boolean; month: { start: string; end: string }; limit: number; offset: number; costVisible?: boolean },
): Promise<BudgetRow[]> {
  const active = options.isActive === undefined ? sql`true` : sql`p.is_active = ${options.isActive}`;
  const horizon = await ensureTimeTotals(trx, companyId, scope);
  // The page carries the workspace's rounding rule too (on every row; one round trip less).
  const page = await sql<PageRow & { bill_by: string; is_billable: boolean; rounding: string; rounding_minutes: number; work_currency: string; workspace_currency: string }>`
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
      p.bill_by, p.is_billable, co.rounding, co.rounding_minutes,
      coalesce(c.currency, co.currency) as work_currency, co.currency as workspace_currency
    from (
      select p.*, count(*) over () as total
      from projects p
      where p.company_id = ${companyId} and ${scope} and ${active}
      order by p.name, p.id
      limit ${options.limit} offset ${options.offset}
    ) p
    join clients c on c.company_id = p.company_id and c.id = p.client_id
    join companies co on co.id = p.company_id
    order by p.name, p.id`.execute(trx);
  if (!page.rows.length) return [];

  const micro = roundedMicroHours(page.rows[0]);

  // The page's projects by what their spend sums (hours; fees by bill_by; cost) and over which
  // period. Fees of a project without billable rates (not billable, bill_by none) are null per
  // entry, so 0: nothing to read.
  type Kind = 'hours' | 'cost' | 'fees:project' | 'fees:tasks' | 'fees:people';
  // Each entry's amount is rounded to its currency's unit (`step` cents, centsPerUnit; the
  // currency: budgetCurrency); a group has one step.
  const groups = new Map<string, { kind: Kind; monthly: boolean; step: number; ids: string[] }>();
  for (const r of page.rows) {
    let kind: Kind = 'hours';
    if (r.budget_by === 'project_cost') {
      if (options.costVisible === false) continue;
      kind = 'cost';
    } else if (r.budget_by === 'task_fees') {
      if (!r.is_billable || !['project', 'tasks', 'people'].includes(r.bill_by)) continue;
      kind = `fees:${r.bill_by as 'project' | 'tasks' | 'people'}`;
    }
    const currency = budgetCurrency(r);
    const step = currency ? centsPerUnit(currency) : 1;
    const key = `${kind}:${r.budget_is_monthly}:${step}`;
    const group = groups.get(key) ?? { kind, monthly: r.budget_is_monthly, step, ids: [] };
    group.ids.push(r.project_id);
    groups.set(key, group);
  }
  const cents = (rateCents: RawBuilder<unknown>, rate: RawBuilder<unknown>, step: number) => sql`sum(${entryCents(micro, rateCents, rate, sql.lit(step))})`;
  // The joins of BILLABLE_RATE_JOINS with bill_by known: plain column equalities the planner hashes.
  // The rate periods are subqueries over the branch's own projects and scope kind (a filter on the
  // columns the periods are partitioned by, so each period keeps its end), estimated from `rates`'
  // statistics: CTEs of every project's periods made the planner guess and loop over all of them.
  const ratePeriods = (ids: string, where: RawBuilder<unknown>) =>
    sql`(${periods(companyId, sql`kind = 'billable' and project_id = any(${ids}::uuid[]) and ${where}`)})`;
  const projectRate = (ids: string, task: RawBuilder<unknown>, user: RawBuilder<unknown>, scopeWhere: RawBuilder<unknown>) => sql`
      join ${ratePeriods(ids, scopeWhere)} br on br.project_key = te.project_id and br.task_key = ${task}
        and coalesce(br.user_id, ${NIL}) = ${user} and ${IN_PERIOD('br')}`;
  const branches: RawBuilder<unknown>[] = [];
  for (const g of groups.values()) {
    const ids = `{${g.ids.join(',')}}`;
    // A monthly budget reads its month live; the others add the kept totals before the horizon.
    const where = sql`te.company_id = ${companyId} and te.project_id = any(${ids}::uuid[]) and not te.is_running${
      g.monthly ? sql` and te.spent_date between ${options.month.start}::date and ${options.month.end}::date` : sql` and te.spent_date >= ${horizon}::date`
    }`;
    let from: RawBuilder<unknown>;
    let spent: RawBuilder<unknown>;
    let kept: RawBuilder<unknown>;
    if (g.kind === 'hours') {
      [from, spent, kept] = [sql``, sql`sum(${micro})`, sql`t.spent_micro`];
    } else if (g.kind === 'cost') {
      from = sql`
      left join (${periods(companyId, sql`kind = 'cost'`)}) cr on cr.user_id = te.user_id and ${IN_PERIOD('cr')}`;
      [spent, kept] = [cents(COST_RATE_CENTS, COST_RATE, g.step), sql`t.cost_cents`];
    } else if (g.kind === 'fees:project') {
      [from, spent, kept] = [projectRate(ids, NIL, NIL, sql`coalesce(task_id, ${NIL}) = ${NIL} and coalesce(user_id, ${NIL}) = ${NIL}`), cents(sql`br.rate_cents`, sql`br.hourly_rate`, g.step), sql`t.fee_cents`];
    } else if (g.kind === 'fees:tasks') {
      [from, spent, kept] = [projectRate(ids, sql`te.task_id`, NIL, sql`coalesce(user_id, ${NIL}) = ${NIL}`), cents(sql`br.rate_cents`, sql`br.hourly_rate`, g.step), sql`t.fee_cents`];
    } else {
      from = sql`
      left ${projectRate(ids, NIL, sql`te.user_id`, sql`coalesce(task_id, ${NIL}) = ${NIL}`)}
      left join (${periods(companyId, sql`kind = 'billable' and project_id is null`)}) bu on bu.user_id = te.user_id and ${IN_PERIOD('bu')}`;
      [spent, kept] = [cents(sql`case when br.hourly_rate is not null then br.rate_cents else bu.rate_cents end`, sql`coalesce(br.hourly_rate, bu.hourly_rate)`, g.step), sql`t.fee_cents`];
    }
    const total = sql`coalesce(live.spent, 0)${g.monthly ? sql`` : sql` + ${kept}`}`;
    branches.push(sql`
      select t.project_id, ${g.kind === 'hours' ? sql`round((${total})::numeric / 1000000, 6)` : sql`round((${total})::numeric / 100, 2)`} as budget_spent
      from project_time_totals t
      left join (
        select te.project_id, ${spent} as spent
        from time_entries te ${from}
        where ${where}${g.kind.startsWith('fees') ? sql` and te.billable` : sql``}
        group by te.project_id
      ) live on live.project_id = t.project_id
      where t.company_id = ${companyId} and t.project_id = any(${ids}::uuid[])`);
  }
  const spentBy = new Map<string, string | null>();
  if (branches.length) {
    const spent = await sql<{ project_id: string; budget_spent: string | null }>`
      ${sql.join(branches, sql`\n      union all`)}`.execute(trx);
    for (const s of spent.rows) spentBy.set(s.project_id, s.budget_spent);
  }
  return page.rows.map(({ bill_by: _billBy, is_billable: _isBillable, rounding: _rounding, rounding_minutes: _minutes, work_currency, workspace_currency, ...r }) => ({
    ...r,
    budget_spent: spentBy.get(r.project_id) ?? '0',
    currency: budgetCurrency({ budget_by: r.budget_by, work_currency, workspace_currency }),
  }));
}

/** The currency a money budget is counted in: internal cost the workspace's, fees the project's work currency; none for hours. */
function budgetCurrency(r: { budget_by: string; work_currency: string; workspace_currency: string }): string | null {
  return r.budget_by === 'project_cost' ? r.workspace_currency : r.budget_by === 'task_fees' ? r.work_currency : null;
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
  /** With `clientTotals`: the sums of every row of the report of this row's client and currency (the client's table). */
  client_totals?: { total_hours: string; uninvoiced_hours: string; uninvoiced_expenses: string; uninvoiced_amount: string };
}

/**
 * The uninvoiced report in one statement after a read of the workspace's settings. The settings
 * (rounding rule, invoiceable approval states, currency, zone) are parameters rather than a join,
 * so the planner (custom plans, see service.ts's reportPlanning) folds rounded_seconds() to the
 * workspace's one branch and the approval test to a constant array, where a join evaluated both for
 * every entry of the year.
 *
 * Time is read twice, from two indexes:
 * - `time_totals`: total_hours, every completed, non-rejected entry of the range
 *   (time_entries_report_idx, index-only);
 * - `open_time`: what an invoice import would take (billable, on a billable project, unbilled,
 *   completed, in an invoiceable approval state), from the partial index time_entries_open_idx
 *   (0078) that holds only billable, unbilled, completed entries: a tenth of a year's entries once
 *   most of it is billed. uninvoiced_hours and, for time-and-materials projects, the amount: each
 *   entry's rounded micro-hours × the rate in force on its date, in exact integer cents (entryCents,
 *   as the budget report does), summed per project.
 * Both read only the days of the range that are not whole months before the horizon, and add
 * those months' kept totals (totals.ts, project_month_time_totals).
 */
export async function uninvoicedRows(
  trx: Tx,
  companyId: string,
  scope: RawBuilder<boolean>,
  options: { from: string; to: string; includeFixedFee: boolean; limit: number; offset: number; clientTotals?: boolean },
): Promise<UninvoicedRow[]> {
  const { from, to } = options;
  const fixedFee = options.includeFixedFee ? sql`true` : sql`not p.is_fixed_fee`;
  const range = splitByHorizon(from, to, await ensureTimeTotals(trx, companyId, scope));
  const co = await reportSettings(trx, companyId);
  const micro = roundedMicroHours(co);
  const statuses = `{${co.statuses.join(',')}}`;
  // Each project's step of an entry's amount: its client is read only when a currency needs it
  // (a join in every use of projects_in_scope, measurable on the million-entry report).
  const step = centsStep(workCurrency(co), co);
  // One sum's rows: those of each live day range, and the kept months' (when the range has any).
  const liveAndKept = (live: (r: { from: string; to: string }) => RawBuilder<unknown>, kept: RawBuilder<unknown>) =>
    sql.join([...range.live.map(live), ...(range.kept ? [kept] : [])], sql`
        union all`);
  const result = await sql<UninvoicedRow>`
    with projects_in_scope as not materialized (
      select p.*, ${step} as cents_step from projects p
      ${step.isConstant ? sql`` : sql`join clients c on c.company_id = p.company_id and c.id = p.client_id`}
      where p.company_id = ${companyId} and ${scope} and ${fixedFee}
    ),
    ${rateCtes(companyId)},
    -- The whole months of the range before the horizon, kept (totals.ts); unread when there are none.
    kept_months as (
      select m.project_id, p.is_fixed_fee, m.total_micro, m.open_micro, m.open_cents
      from project_month_time_totals m
      join projects_in_scope p on p.company_id = m.company_id and p.id = m.project_id
      where m.company_id = ${companyId} and m.month >= ${range.kept?.from ?? to}::date and m.month < ${range.kept?.until ?? to}::date
    ),
    -- Hours need no price: every entry of the range, without the rate joins.
    time_totals as (
      select project_id, round(sum(micro)::numeric / 1000000, 6) as total_hours from (${liveAndKept(
        (r) => sql`
        select te.project_id, ${micro} as micro
        from time_entries te
        join projects_in_scope p on p.company_id = te.company_id and p.id = te.project_id
        where te.company_id = ${companyId} and te.spent_date between ${r.from}::date and ${r.to}::date
          and not te.is_running and te.approval_status <> 'rejected'`,
        sql`
        select m.project_id, m.total_micro as micro from kept_months m`,
      )}
      ) t group by project_id
    ),
    -- Open time (the partial index's predicate, then the project and the approval policy); only
    -- time-and-materials projects are priced.
    open_time as (
      select project_id,
        round(sum(micro)::numeric / 1000000, 6) as uninvoiced_hours,
        round((sum(cents) filter (where not is_fixed_fee))::numeric / 100, 2) as time_amount
      from (${liveAndKept(
        (r) => sql`
        select te.project_id, p.is_fixed_fee, ${micro} as micro, ${entryCents(micro, BILLABLE_RATE_CENTS, BILLABLE_RATE, sql`p.cents_step`)} as cents
        from time_entries te
        join projects_in_scope p on p.company_id = te.company_id and p.id = te.project_id
        ${BILLABLE_RATE_JOINS}
        where te.company_id = ${companyId} and te.spent_date between ${r.from}::date and ${r.to}::date
          and not te.is_running and ${OPEN_TIME(statuses)}`,
        sql`
        select m.project_id, m.is_fixed_fee, m.open_micro as micro, m.open_cents as cents from kept_months m
        where m.open_micro > 0 or m.open_cents is not null`,
      )}
      ) o group by project_id
    ),
    expense_totals as (
      select ex.project_id, sum(ex.total_cost) as uninvoiced_expenses
      from expenses ex
      join projects_in_scope p on p.company_id = ex.company_id and p.id = ex.project_id
      where ex.company_id = ${companyId} and ex.spent_date between ${from}::date and ${to}::date
        and ex.billable and p.is_billable and not ex.is_billed and ex.approval_status = any(${statuses}::text[])
      group by ex.project_id
    ),
    fixed_fee as (
      select p.id as project_id, ${FIXED_FEE_BALANCE} as balance
      from projects_in_scope p
      where p.is_fixed_fee
        and ${fixedFeeEligible(to, co.timezone)}
    ),
    report as (
      select p.id as project_id, p.name as project_name, c.id as client_id, c.name as client_name,
        coalesce(c.currency, ${co.currency}::text) as currency,
        coalesce(t.total_hours, 0) as total_hours,
        coalesce(o.uninvoiced_hours, 0) as uninvoiced_hours,
        coalesce(e.uninvoiced_expenses, 0) as uninvoiced_expenses,
        coalesce(o.time_amount, 0) + coalesce(f.balance, 0) + coalesce(e.uninvoiced_expenses, 0) as uninvoiced_amount
      from projects_in_scope p
      join clients c on c.company_id = p.company_id and c.id = p.client_id
      left join time_totals t on t.project_id = p.id
      left join open_time o on o.project_id = p.id
      left join expense_totals e on e.project_id = p.id
      left join fixed_fee f on f.project_id = p.id
    )
    select *, count(*) over () as total${
      // Window sums run over every row the filter keeps, before the page is cut: a client's whole table.
      options.clientTotals
        ? sql`, json_build_object('total_hours', (sum(total_hours) over per_client)::text, 'uninvoiced_hours', (sum(uninvoiced_hours) over per_client)::text,
          'uninvoiced_expenses', (sum(uninvoiced_expenses) over per_client)::text, 'uninvoiced_amount', (sum(uninvoiced_amount) over per_client)::text) as client_totals`
        : sql``
    }
    from report
    where total_hours > 0 or uninvoiced_expenses > 0 or uninvoiced_amount > 0
    ${options.clientTotals ? sql`window per_client as (partition by client_id, currency)` : sql``}
    order by client_name, project_name, project_id
    limit ${options.limit} offset ${options.offset}`.execute(trx);
  return result.rows;
}

/** One currency's share of a person's billable time in the team report. */
export interface TeamCurrencyAmount {
  currency: string;
  billable_hours: number;
  billable_amount: number;
}

export interface TeamRow {
  user_id: string;
  first_name: string;
  last_name: string;
  is_contractor: boolean;
  /** The workspace currency (for people without billable time). */
  workspace_currency: string;
  total_hours: string;
  billable_hours: string;
  /** Billable hours and amount per currency (the project's client's, else the workspace's), by currency code. */
  billable_amounts: TeamCurrencyAmount[];
  total: string;
  /** With `totals`: the report's total row over every person in scope (the same on every row). */
  totals?: HoursTotalsRow;
}

/**
 * The team report: hours per person, and billable amounts per person and
 * currency. Work is in its project's client's currency (else the workspace's),
 * as in the uninvoiced report; amounts of different currencies are never added.
 */
export async function teamRows(
  trx: Tx,
  companyId: string,
  scope: RawBuilder<boolean>,
  options: { from: string; to: string; limit: number; offset: number; totals?: boolean },
): Promise<TeamRow[]> {
  const co = await reportSettings(trx, companyId);
  const hours = roundedHoursSql(co);
  const result = await sql<TeamRow>`
    with people as (
      select m.user_id, u.first_name, u.last_name, m.is_contractor, m.is_active
      from memberships m join users u on u.id = m.user_id
      where m.company_id = ${companyId} and m.role <> 'client' and ${scope}
    ),
    ${rateCtes(companyId)},
    by_currency as (
      select te.user_id, coalesce(c.currency, co.currency) as currency,
        sum(${hours}) as total_hours,
        sum(${hours}) filter (where te.billable) as billable_hours,
        sum(round(${hours} * ${BILLABLE_RATE}, ${amountDigits(workCurrency(co), co)})) filter (where te.billable) as billable_amount
      from time_entries te
      join companies co on co.id = te.company_id
      join projects p on p.company_id = te.company_id and p.id = te.project_id
      join clients c on c.company_id = p.company_id and c.id = p.client_id
      ${BILLABLE_RATE_JOINS}
      where te.company_id = ${companyId} and te.spent_date between ${options.from}::date and ${options.to}::date
        and not te.is_running
      group by te.user_id, coalesce(c.currency, co.currency)
    ),
    totals as (
      select user_id, sum(total_hours) as total_hours, sum(billable_hours) as billable_hours,
        coalesce(json_agg(json_build_object('currency', currency, 'billable_hours', billable_hours,
                                            'billable_amount', coalesce(billable_amount, 0)) order by currency)
                   filter (where billable_hours is not null), '[]') as billable_amounts
      from by_currency
      group by user_id
    )
    select p.user_id, p.first_name, p.last_name, p.is_contractor, co.currency as workspace_currency,
      coalesce(t.total_hours, 0) as total_hours, coalesce(t.billable_hours, 0) as billable_hours,
      coalesce(t.billable_amounts, '[]') as billable_amounts, count(*) over () as total${
        // Every person in scope with time (one without adds nothing), whichever page this is.
        options.totals
          ? sql`, ${hoursTotalsSql(sql`(select b.currency, b.total_hours as hours, b.billable_hours, b.billable_amount
              from by_currency b join people bp on bp.user_id = b.user_id)`)} as totals`
          : sql``
      }
    from people p
    join companies co on co.id = ${companyId}
    left join totals t on t.user_id = p.user_id
    where p.is_active or t.user_id is not null
    order by p.last_name, p.first_name, p.user_id
    limit ${options.limit} offset ${options.offset}`.execute(trx);
  return result.rows;
}
