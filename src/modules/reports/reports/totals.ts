import { sql, type RawBuilder } from 'kysely';
import { DateTime } from 'luxon';
import type { Tx } from '../../../db/tenant.ts';
import {
  BILLABLE_RATE,
  BILLABLE_RATE_CENTS,
  BILLABLE_RATE_JOINS,
  centsStep,
  COST_RATE,
  COST_RATE_CENTS,
  entryCents,
  IN_PERIOD,
  OPEN_TIME,
  rateCtes,
  reportSettings,
  roundedMicroHours,
  workCurrency,
} from './pricing.ts';

/**
 * Kept totals of time for the reports (migration 0101; docs/decisions.md, "Hot paths: kept time
 * totals for the reports"). The months before the horizon (the first day of the previous month,
 * by the database clock) are summed once per project and kept: all time for the budget report
 * (project_time_totals) and per month for the uninvoiced report (project_month_time_totals). A
 * report makes sure its projects' totals are current (ensureTimeTotals), then adds the kept
 * months to what it reads live: the days from the horizon on, and the days of a range that do
 * not cover whole kept months.
 *
 * Current means summed at the workspace's generation the report sees now (moved by the rounding
 * rule, the invoiced approval states, a person's default or cost rate) and without a stale mark
 * since (left by a write to one of the project's entries dated before the current month, a change
 * of its billing or of a rate on it). Triggers write both in the writing transaction (migration
 * 0101); the totals are written here alone.
 */

interface StaleRow {
  horizon: string;
  company_generation: string | null;
  id: string | null;
}

/** The horizon, the workspace's generation and the projects in scope whose totals are not current. */
const staleProjects = (companyId: string, scope: RawBuilder<boolean>) => sql<StaleRow>`
  select h.horizon, g.generation as company_generation, s.id
  from (select report_totals_horizon() as horizon) h
  left join time_totals_generations g on g.company_id = ${companyId}
  left join lateral (
    select p.id from projects p
    left join project_time_totals t on t.company_id = p.company_id and t.project_id = p.id
    where p.company_id = ${companyId} and ${scope}
      and (t.project_id is null or g.generation is null or t.company_generation <> g.generation or t.horizon <> h.horizon
        or exists (select 1 from project_time_totals_stale m where m.company_id = p.company_id and m.project_id = p.id))
  ) s on true`;

/**
 * Makes the kept totals of the projects in `scope` current, summing the stale ones again, and
 * returns the horizon they are kept up to (exclusive). When they are current (nearly always) this
 * is one read.
 */
export async function ensureTimeTotals(trx: Tx, companyId: string, scope: RawBuilder<boolean>): Promise<string> {
  const first = (await staleProjects(companyId, scope).execute(trx)).rows;
  if (first.every((r) => r.id === null) && first[0].company_generation !== null) return first[0].horizon;

  // One report sums a workspace's totals at a time (another waits, then finds nothing stale).
  await sql`select pg_advisory_xact_lock(hashtextextended(${`sheaf:time-totals:${companyId}`}, 0))`.execute(trx);
  await sql`insert into time_totals_generations (company_id) values (${companyId}) on conflict do nothing`.execute(trx);
  const rows = (await staleProjects(companyId, scope).execute(trx)).rows;
  const { horizon, company_generation } = rows[0];
  const stale = rows.flatMap((r) => (r.id === null ? [] : [r.id]));
  if (!stale.length) return horizon;
  const ids = `{${stale.join(',')}}`;
  // The workspace's generation was read, and the marks seen are consumed, before the entries are
  // read: a writer that commits in between leaves its mark (or its generation) for the next report.
  // Marks of projects deleted since go too.
  // This transaction's own marks go too, so a later write in it marks again (migration 0101).
  await sql`delete from project_time_totals_stale m where m.company_id = ${companyId}
    and (m.project_id = any(${ids}::uuid[]) or not exists (select 1 from projects p where p.company_id = m.company_id and p.id = m.project_id))`.execute(trx);
  await sql`select set_config('app.stale_projects', '', true)`.execute(trx);
  await sql`delete from project_month_time_totals where company_id = ${companyId} and project_id = any(${ids}::uuid[])`.execute(trx);
  await sumTotals(trx, companyId, horizon, company_generation!, ids);
  return horizon;
}

/** Sums the entries before `horizon` of the projects `ids` (an array literal), per month and in all, and keeps them. */
async function sumTotals(trx: Tx, companyId: string, horizon: string, companyGeneration: string, ids: string) {
  const co = await reportSettings(trx, companyId);
  const micro = roundedMicroHours(co);
  // Fees in the currency of the project's work, cost in the workspace's (cost rates are its).
  const cents = entryCents(micro, BILLABLE_RATE_CENTS, BILLABLE_RATE, centsStep(workCurrency(co), co));
  const cost = entryCents(micro, COST_RATE_CENTS, COST_RATE, centsStep(sql`${co.currency}::text`, co));
  const open = OPEN_TIME(`{${co.statuses.join(',')}}`);
  // What each report would read live, as in queries.ts: the uninvoiced report's total and open
  // time per month; the budget report's hours, fees (billable entries) and cost in all.
  await sql`
    with ${rateCtes(companyId)},
    months as (
      select te.project_id, date_trunc('month', te.spent_date)::date as month,
        coalesce(sum(${micro}) filter (where te.approval_status <> 'rejected'), 0) as total_micro,
        coalesce(sum(${micro}) filter (where ${open}), 0) as open_micro,
        sum(${cents}) filter (where ${open}) as open_cents,
        sum(${micro}) as spent_micro,
        sum(${cents}) filter (where te.billable) as fee_cents,
        sum(${cost}) as cost_cents
      from time_entries te
      join projects p on p.company_id = te.company_id and p.id = te.project_id
      join clients c on c.company_id = p.company_id and c.id = p.client_id
      ${BILLABLE_RATE_JOINS}
      left join cost_rates cr on cr.user_id = te.user_id and ${IN_PERIOD('cr')}
      where te.company_id = ${companyId} and te.project_id = any(${ids}::uuid[])
        and te.spent_date < ${horizon}::date and not te.is_running
      group by 1, 2
    ),
    kept_months as (
      insert into project_month_time_totals (company_id, project_id, month, total_micro, open_micro, open_cents)
      select ${companyId}, project_id, month, total_micro, open_micro, open_cents from months
    )
    insert into project_time_totals (company_id, project_id, company_generation, horizon, spent_micro, fee_cents, cost_cents)
    select ${companyId}, s.project_id, ${companyGeneration}::bigint, ${horizon}::date,
      coalesce(m.spent_micro, 0), coalesce(m.fee_cents, 0), coalesce(m.cost_cents, 0)
    from unnest(${ids}::uuid[]) as s (project_id)
    left join (
      select project_id, sum(spent_micro) as spent_micro, sum(fee_cents) as fee_cents, sum(cost_cents) as cost_cents
      from months group by project_id
    ) m on m.project_id = s.project_id
    on conflict (company_id, project_id) do update set company_generation = excluded.company_generation, horizon = excluded.horizon,
      spent_micro = excluded.spent_micro, fee_cents = excluded.fee_cents, cost_cents = excluded.cost_cents`.execute(trx);
}

/**
 * A report range split by the kept totals: the whole months before the horizon it covers
 * (`kept`, [from, until)), and the days around them that are read live.
 */
export function splitByHorizon(from: string, to: string, horizon: string) {
  const day = (iso: string) => DateTime.fromISO(iso, { zone: 'UTC' });
  const start = day(from);
  const keptFrom = start.day === 1 ? start : start.startOf('month').plus({ months: 1 });
  const afterTo = day(to).plus({ days: 1 }).startOf('month');
  const keptUntil = day(horizon) < afterTo ? day(horizon) : afterTo;
  if (keptFrom >= keptUntil) return { kept: null, live: [{ from, to }] };
  const live: Array<{ from: string; to: string }> = [];
  if (start < keptFrom) live.push({ from, to: keptFrom.minus({ days: 1 }).toISODate()! });
  if (keptUntil <= day(to)) live.push({ from: keptUntil.toISODate()!, to });
  return { kept: { from: keptFrom.toISODate()!, until: keptUntil.toISODate()! }, live };
}
