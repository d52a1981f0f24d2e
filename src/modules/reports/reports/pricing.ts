import { sql, type RawBuilder } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';
import type { Rounding } from '../../../db/types.ts';
import { minorDigitsSql } from '../../../db/money-sql.ts';
import { ENTRY_AMOUNT_MAX_DIGITS, entryAmountDigits } from '../../../money.ts';
import { roundedMicroSql } from '../../tracking/week/index.ts';

/**
 * How the reports round and price time, as SQL fragments (queries.ts reads with them, totals.ts
 * keeps totals with them). Every entry's hours (as the API shows them) are rounded on their own
 * by the workspace rule (roundedMicroSql, the SQL twin of rules.roundMicroHours) and priced by the rate in
 * force on its work date (billable_rate / effective_rate over the effective-dated
 * `rates` table), so a later rate change never reprices earlier work. An entry's
 * amount is its rounded hours (six places) × rate, rounded to its currency's minor unit at most
 * cents (entryAmountDigits: whole yen, a euro's cents); report amounts are sums of entry amounts.
 */

/**
 * An entry's hours as the time entries API shows them (`hours`), in micro-hours: as entered
 * (hours_entered, six places) when they were, else from its whole seconds, round(seconds / 3600, 6)
 * half up (secondsToHours; (s × 10⁶ + 1800) / 3600 = (s × 5000 + 9) / 18). Reports read finished
 * entries only: a running timer's entered hours are not its hours.
 */
export const ENTRY_MICRO_HOURS = sql`case when te.hours_entered is not null then (te.hours_entered * 1000000)::bigint
          else (te.duration_seconds::bigint * 5000 + 9) / 18 end`;

/**
 * An entry's `rounded_hours` × 10⁶, exactly: the workspace's rule (folded in as constants) on its
 * hours, as the entries, the export and invoice imports round them. Sums of these divided by
 * 10⁶ are the sums of the entries' rounded_hours to the digit.
 */
export const roundedMicroHours = (co: Pick<ReportSettings, 'rounding' | 'rounding_minutes'>) =>
  roundedMicroSql(ENTRY_MICRO_HOURS, { rounding: co.rounding as Rounding, rounding_minutes: co.rounding_minutes });

/** roundedMicroHours in decimal hours (numeric, six places). */
export const roundedHoursSql = (co: Pick<ReportSettings, 'rounding' | 'rounding_minutes'>) => sql`(${roundedMicroHours(co)} * 0.000001)`;

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
export const NIL = sql`'00000000-0000-0000-0000-000000000000'::uuid`;

/**
 * Rates up to this (per hour) also get an integer `rate_cents` in the period CTEs: micro-hours
 * (< 10¹¹ for any entry) × cents (≤ 9·10⁷) stays below 2⁶³, so entryCents can price in bigint.
 */
const MAX_CENTS_RATE = sql.lit(900000);

export const periods = (companyId: string, where: RawBuilder<unknown>) => sql`
      select coalesce(project_id, ${NIL}) as project_key, coalesce(task_id, ${NIL}) as task_key, user_id, hourly_rate, effective_from,
        case when hourly_rate <= ${MAX_CENTS_RATE} then (hourly_rate * 100)::bigint end as rate_cents,
        lead(effective_from, 1, 'infinity'::date) over (partition by project_id, task_id, user_id order by effective_from) as effective_to
      from rates where company_id = ${companyId} and ${where}`;

export const rateCtes = (companyId: string) => sql`
    project_rates as (${periods(companyId, sql`kind = 'billable' and project_id is not null`)}),
    default_rates as (${periods(companyId, sql`kind = 'billable' and project_id is null`)}),
    cost_rates as (${periods(companyId, sql`kind = 'cost'`)})`;

export const IN_PERIOD = (alias: string) => sql`te.spent_date >= ${sql.ref(`${alias}.effective_from`)} and te.spent_date < ${sql.ref(`${alias}.effective_to`)}`;

export const BILLABLE_RATE_JOINS = sql`
      left join project_rates br on br.project_key = te.project_id
        and br.task_key = case when p.bill_by = 'tasks' then te.task_id else ${NIL} end
        and coalesce(br.user_id, ${NIL}) = case when p.bill_by = 'people' then te.user_id else ${NIL} end
        and ${IN_PERIOD('br')}
      left join default_rates bu on p.bill_by = 'people' and bu.user_id = te.user_id and ${IN_PERIOD('bu')}`;

/** billable_rate(te.company_id, te.project_id, te.task_id, te.user_id, te.spent_date), from the joins above. */
export const BILLABLE_RATE = sql`case when p.is_billable then case p.bill_by
        when 'project' then br.hourly_rate when 'tasks' then br.hourly_rate
        when 'people' then coalesce(br.hourly_rate, bu.hourly_rate) end end`;

/**
 * BILLABLE_RATE in integer cents where the rate has an integer twin (`rate_cents`, rates up to
 * MAX_CENTS_RATE): null exactly when BILLABLE_RATE is null or has no twin, so entryCents prices
 * with it or falls back to BILLABLE_RATE itself.
 */
export const BILLABLE_RATE_CENTS = sql`case when p.is_billable then case p.bill_by
        when 'project' then br.rate_cents when 'tasks' then br.rate_cents
        when 'people' then case when br.hourly_rate is not null then br.rate_cents else bu.rate_cents end end end`;


/** An entry's internal cost rate from the `cr` join of cost_rates, in cents and as a rate: 0 without one. */
export const COST_RATE_CENTS = sql`case when cr.hourly_rate is null then 0 else cr.rate_cents end`;
export const COST_RATE = sql`coalesce(cr.hourly_rate, 0)`;

/**
 * Open time, what an invoice import would take of a completed entry `te` of project `p`: billable
 * work on a billable project, not yet billed, in one of the approval states the workspace invoices
 * (`statuses`, an array literal from reportSettings).
 */
export const OPEN_TIME = (statuses: string) =>
  sql`te.billable and not te.is_billed and p.is_billable and te.approval_status = any(${statuses}::text[])`;

/**
 * The digits an entry's amount in `currency` (an SQL expression) is rounded to: its minor unit,
 * at most cents (entryAmountDigits), for the workspace's `currencies`.
 */
export const amountDigits = (currency: RawBuilder<unknown>, co: Pick<ReportSettings, 'currencies'>) =>
  minorDigitsSql(currency, co.currencies, { atMost: ENTRY_AMOUNT_MAX_DIGITS });

/** The cents in one unit an entry's amount in the currency is rounded to: 100 (whole yen), 10, or 1. */
export const centsPerUnit = (currency: string) => 10 ** (ENTRY_AMOUNT_MAX_DIGITS - entryAmountDigits(currency));

/**
 * centsPerUnit of the currency in the SQL expression `currency`, for the workspace's `currencies`;
 * `isConstant` when all of them count cents (the step is 1, and `currency` is not read).
 */
export function centsStep(currency: RawBuilder<unknown>, co: Pick<ReportSettings, 'currencies'>): RawBuilder<number> & { isConstant: boolean } {
  const other = co.currencies.filter((code) => centsPerUnit(code) !== 1);
  if (!other.length) return Object.assign(sql<number>`1`, { isConstant: true });
  const step = sql<number>`(case ${currency} ${sql.join(
    other.map((code) => sql`when ${sql.lit(code)} then ${sql.lit(centsPerUnit(code))}`),
    sql` `,
  )} else 1 end)`;
  return Object.assign(step, { isConstant: false });
}

/** The currency a project's work is counted in: its client's, else the workspace's (`c` the project's client). */
export const workCurrency = (co: Pick<ReportSettings, 'currency'>) => sql`coalesce(c.currency, ${co.currency}::text)`;

/**
 * An entry's amount in cents, exactly round(hours × rate, d) × 100 with hours = micro / 10⁶ and d
 * the digits of `step` (centsStep: 2 for a step of 1 cent, 0 for 100): for non-negative integers
 * round-half-up is floor((micro · rate_cents + 500000 · step) / (10⁶ · step)) · step, in bigint
 * when the rate has an integer twin (MAX_CENTS_RATE) and the hours are below 10⁵; otherwise (never
 * in practice) the numeric formula. A missing rate stays null either way.
 */
export const entryCents = (micro: RawBuilder<unknown>, rateCents: RawBuilder<unknown>, rate: RawBuilder<unknown>, step: RawBuilder<number>) => sql`case
          when ${rateCents} is not null and ${micro} < 100000000000 then (${micro} * ${rateCents} + 500000 * ${step}) / (1000000 * ${step}) * ${step}
          else (round(${micro}::numeric / 1000000 * ${rate} * 100 / ${step}) * ${step})::bigint end`;

/** The workspace settings a report folds into its SQL as constants (see uninvoicedRows). */
export interface ReportSettings {
  rounding: string;
  rounding_minutes: number;
  currency: string;
  timezone: string;
  /** The approval states an invoice import takes (invoiceableStatuses in billing/invoices/import.ts). */
  statuses: string[];
  /** The workspace's and its clients' currencies: those its work is counted in (amountDigits). */
  currencies: string[];
}

export async function reportSettings(trx: Tx, companyId: string): Promise<ReportSettings> {
  const r = await sql<ReportSettings>`
    select rounding, rounding_minutes, currency, timezone,
      case when invoice_before_approval or not approvals_enabled then array['unsubmitted', 'submitted', 'approved'] else array['approved'] end as statuses,
      array(select currency union select cl.currency from clients cl where cl.company_id = ${companyId} and cl.currency is not null) as currencies
    from companies where id = ${companyId}`.execute(trx);
  return r.rows[0];
}
