import { sql, type RawBuilder } from 'kysely';

/**
 * The total rows of the web app's report tables (docs/decisions.md, "Total rows in the reports").
 * A total is summed in SQL, exactly (numeric), over every row of the report (not the page the
 * table shows) from the very figures its rows are summed from: each entry's rounded hours and its
 * amount rounded on its own, as reports/queries.ts and web-queries.ts price them.
 */

/** One currency's share of a total: the billable hours in it and their amount. */
export interface CurrencyTotalRow {
  currency: string;
  billable_hours: string;
  billable_amount: string;
}

/** A time or team report's total row, as exact decimal text. */
export interface HoursTotalsRow {
  hours: string;
  billable_hours: string;
  billable_amounts: CurrencyTotalRow[];
}

/**
 * The total row of a report whose rows are summed from per-group, per-currency figures: `groups`
 * is a relation with columns currency, hours, billable_hours and billable_amount (null when
 * amounts are not read), one row per group and currency. Hours are added over every currency,
 * amounts only within one (one entry per currency with billable time, by code). An uncorrelated
 * subquery: PostgreSQL runs it once, whatever the rows around it.
 */
export const hoursTotalsSql = (groups: RawBuilder<unknown>) => sql<HoursTotalsRow>`(
      select json_build_object(
        'hours', coalesce(sum(hours), 0)::text,
        'billable_hours', coalesce(sum(billable_hours), 0)::text,
        'billable_amounts', coalesce(json_agg(json_build_object('currency', currency, 'billable_hours', billable_hours::text,
                                                                'billable_amount', coalesce(billable_amount, 0)::text) order by currency)
                                     filter (where billable_hours is not null), '[]'))
      from (
        select currency, sum(hours) as hours, sum(billable_hours) as billable_hours, sum(billable_amount) as billable_amount
        from ${groups} g group by currency
      ) t)`;
