import { expressionBuilder, sql, type RawBuilder } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { timeRecordVisible } from '../../../access/time.ts';
import type { Tx } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { hoursTotalsSql, type HoursTotalsRow } from './table-totals.ts';
import { amountDigits, BILLABLE_RATE, BILLABLE_RATE_JOINS, ENTRY_MICRO_HOURS, rateCtes, reportSettings, roundedHoursSql, workCurrency } from './pricing.ts';

/**
 * The web app's time report (issue 16 item 5): time over any period, grouped by
 * project, task, person or client, and its entries one by one for the export.
 *
 * Every rule comes from its one place: which entries the caller sees is
 * access/time.ts's timeRecordVisible (the time entry list's rule: administrators
 * everyone's, managers their own, their teammates' and their managed projects',
 * others their own); hours are rounded per entry by the workspace rule and priced
 * at the rate in force on the work date by the report SQL of reports/queries.ts
 * (the team report's figures). Running timers never count.
 */

export type GroupBy = 'project' | 'task' | 'person' | 'client';

export interface TimeFilter {
  from: string;
  to: string;
  projectId?: string;
  clientId?: string;
  userId?: string;
  taskId?: string;
}

const GROUPS: Record<GroupBy, { key: RawBuilder<unknown>; name: RawBuilder<unknown>; client: RawBuilder<unknown>; join: RawBuilder<unknown> }> = {
  project: { key: sql`p.id`, name: sql`p.name`, client: sql`c.name`, join: sql`` },
  client: { key: sql`c.id`, name: sql`c.name`, client: sql`null::text`, join: sql`` },
  task: { key: sql`t.id`, name: sql`t.name`, client: sql`null::text`, join: sql`join tasks t on t.company_id = te.company_id and t.id = te.task_id` },
  person: {
    key: sql`u.id`,
    name: sql`trim(u.first_name || ' ' || u.last_name)`,
    client: sql`null::text`,
    join: sql`join users u on u.id = te.user_id`,
  },
};

/** The WHERE of both queries: the caller's visible, finished entries of the period and filters. */
function entryWhere(p: Principal, filter: TimeFilter) {
  const visible = timeRecordVisible(p, 'te')(expressionBuilder<DB, never>());
  const optional = (column: string, value: string | undefined) => (value === undefined ? sql`` : sql` and ${sql.ref(column)} = ${value}::uuid`);
  // The client filter reads the project itself, so the condition needs no join (the entries export pages on it alone).
  const client =
    filter.clientId === undefined
      ? sql``
      : sql` and exists (select 1 from projects fp where fp.company_id = te.company_id and fp.id = te.project_id and fp.client_id = ${filter.clientId}::uuid)`;
  return sql`te.company_id = ${p.companyId} and te.spent_date between ${filter.from}::date and ${filter.to}::date
      and not te.is_running and ${visible}${optional('te.project_id', filter.projectId)}${client}${optional('te.user_id', filter.userId)}${optional(
        'te.task_id',
        filter.taskId,
      )}`;
}

export interface TimeGroupRow {
  id: string;
  name: string;
  client_name: string | null;
  hours: string;
  billable_hours: string;
  /** Per currency, by code; only when amounts were asked for. */
  billable_amounts: Array<{ currency: string; billable_hours: number | string; billable_amount: number | string }>;
  /** The report's total row (the same on every row), when asked for. */
  totals?: HoursTotalsRow;
}

/**
 * One row per group (ordered by name), with rounded hours, billable hours and, when `amounts`,
 * the billable amounts per currency (the project client's currency, else the workspace's; never
 * added across currencies). Without `amounts` the rate joins are not even read. With `totals`,
 * each row also carries the report's total row (table-totals.ts), summed from the same figures.
 */
export async function timeGroupRows(
  trx: Tx,
  p: Principal,
  groupBy: GroupBy,
  filter: TimeFilter,
  amounts: boolean,
  options: { totals?: boolean } = {},
): Promise<TimeGroupRow[]> {
  const g = GROUPS[groupBy];
  const co = await reportSettings(trx, p.companyId);
  const hours = roundedHoursSql(co);
  const result = await sql<TimeGroupRow>`
    with ${amounts ? sql`${rateCtes(p.companyId)},` : sql``}
    by_currency as (
      select ${g.key} as id, min(${g.name}) as name, min(${g.client}) as client_name,
        coalesce(c.currency, co.currency) as currency,
        sum(${hours}) as hours,
        sum(${hours}) filter (where te.billable) as billable_hours,
        ${amounts ? sql`sum(round(${hours} * ${BILLABLE_RATE}, ${amountDigits(workCurrency(co), co)})) filter (where te.billable)` : sql`null::numeric`} as billable_amount
      from time_entries te
      join companies co on co.id = te.company_id
      join projects p on p.company_id = te.company_id and p.id = te.project_id
      join clients c on c.company_id = p.company_id and c.id = p.client_id
      ${g.join}
      ${amounts ? BILLABLE_RATE_JOINS : sql``}
      where ${entryWhere(p, filter)}
      group by ${g.key}, coalesce(c.currency, co.currency)
    )
    select id, min(name) as name, min(client_name) as client_name,
      sum(hours)::text as hours, coalesce(sum(billable_hours), 0)::text as billable_hours,
      coalesce(json_agg(json_build_object('currency', currency, 'billable_hours', billable_hours,
                                          'billable_amount', coalesce(billable_amount, 0)) order by currency)
                 filter (where billable_hours is not null), '[]') as billable_amounts
      ${options.totals ? sql`, ${hoursTotalsSql(sql`by_currency`)} as totals` : sql``}
    from by_currency
    group by id
    order by min(name), min(client_name), id`.execute(trx);
  return result.rows;
}

export interface TimeEntryRow {
  id: string;
  spent_date: string;
  person: string;
  client_name: string;
  project_name: string;
  task_name: string;
  notes: string | null;
  hours: string;
  rounded_hours: string;
  billable: boolean;
  currency: string;
  billable_amount: string | null;
}

/**
 * A batch of the caller's visible entries after `after` in (spent_date, id) order: keyset
 * paging, so every batch is an index range and the export never holds more than one batch.
 * Private notes are never read. billable_amount only when `amounts` (else null, and no rate join).
 */
export async function timeEntryBatch(
  trx: Tx,
  p: Principal,
  filter: TimeFilter,
  options: { after: { date: string; id: string } | null; limit: number; amounts: boolean },
): Promise<TimeEntryRow[]> {
  const after = options.after ? sql` and (te.spent_date, te.id) > (${options.after.date}::date, ${options.after.id}::uuid)` : sql``;
  const co = await reportSettings(trx, p.companyId);
  const rounded = roundedHoursSql(co);
  // The batch is picked first, alone, along the (company_id, spent_date, id) index, and only its rows
  // are joined and priced: joining first made every batch hash and sort the whole rest of the period.
  const result = await sql<TimeEntryRow>`
    with ${options.amounts ? sql`${rateCtes(p.companyId)},` : sql``}
    batch as materialized (
      select te.* from time_entries te
      where ${entryWhere(p, filter)}${after}
      order by te.spent_date, te.id
      limit ${options.limit}
    )
    select te.id, te.spent_date::text as spent_date, trim(u.first_name || ' ' || u.last_name) as person,
      c.name as client_name, p.name as project_name, t.name as task_name, te.notes,
      (${ENTRY_MICRO_HOURS} * 0.000001)::text as hours, ${rounded}::text as rounded_hours, te.billable,
      coalesce(c.currency, co.currency) as currency,
      ${options.amounts ? sql`case when te.billable then round(${rounded} * ${BILLABLE_RATE}, ${amountDigits(workCurrency(co), co)})::text end` : sql`null::text`} as billable_amount
    from batch te
    join companies co on co.id = te.company_id
    join projects p on p.company_id = te.company_id and p.id = te.project_id
    join clients c on c.company_id = p.company_id and c.id = p.client_id
    join tasks t on t.company_id = te.company_id and t.id = te.task_id
    join users u on u.id = te.user_id
    ${options.amounts ? BILLABLE_RATE_JOINS : sql``}
    order by te.spent_date, te.id`.execute(trx);
  return result.rows;
}

