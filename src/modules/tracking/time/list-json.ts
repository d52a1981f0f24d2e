import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant } from '../../../db/tenant.ts';
import { countedTotal, type PageParams } from '../../../http/pagination.ts';
import { spliceJson } from '../../../http/serializers.ts';
import { MAX_ENTRY_SECONDS } from './rules.ts';
import type { EntryView } from './presenter.ts';
import { entryListQueries, type EntryFilter } from './queries.ts';

/**
 * The time-entry list as JSON text built by PostgreSQL (issue 24): one statement
 * returns the page's entries as one text, exactly the bytes `JSON.stringify` gave of
 * presentEntry's objects, so Node neither parses the rows nor presents and
 * serializes them; the route sends the text as it is.
 *
 * This is presentEntry (presenter.ts) written out as SQL, for lists only: the single
 * entry's reads and writes still present in JavaScript. **A change to presentEntry,
 * entryHours, roundHoursNumber or secondsToHoursNumber must change this too**;
 * test/list-json.test.ts compares the two, field by field, for every permission level,
 * on PGlite and PostgreSQL. How each JSON value is written:
 * - numbers (hours, rounded_hours, billable_rate) are exact NUMERIC, `trim_scale`d:
 *   with at most 15 significant digits and between 10⁻⁶ and 10²¹, which hours (six
 *   decimals, at most a day) and rates (numeric(12,2)) are, that is the very text
 *   JavaScript prints for the nearest double;
 * - date-times `to_char` in UTC with milliseconds and `Z`, truncated to the
 *   millisecond as node-postgres's Date is (toISOString);
 * - a running timer's seconds are counted to the app clock's `now`, sent as a
 *   parameter, from its start truncated to the millisecond, as elapsedSeconds does;
 * - rounded_hours is roundHoursNumber's integer arithmetic in thirds of a micro-hour;
 * - strings through `to_json` (PostgreSQL escapes exactly the characters
 *   JSON.stringify escapes: `"`, `\`, and controls, as \b \f \n \r \t or lower-case
 *   \u00xx); ids, dates, enum values and HH:mm times need no escaping;
 * - booleans `::text` (true/false; a boolean's output function would give t/f);
 * - external_reference and metadata (jsonb, whose text has PostgreSQL's spacing and
 *   numbers as stored) are the one thing Node writes: the page marks where each
 *   non-null value goes with a raw control character (\u0001, \u0002), which JSON
 *   text never contains unescaped, and brings the values in page order, which Node
 *   parses and writes with JSON.stringify as the driver's JSON.parse + the old
 *   serializer did.
 */

const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const instant = (column: string) => `'"' || to_char(${column} at time zone 'UTC', ${ISO_MS}) || '"'`;
const nullable = (json: string) => `coalesce(${json}, 'null')`;

/** The entry's JSON, over the page row `s`, its seconds and hours (`d`, `h`) and rounded hours (`r`). */
function entryJson(view: EntryView): string {
  const base = [
    `'{"id":"' || s.id`,
    `'","user_id":"' || s.user_id`,
    `'","project_id":"' || s.project_id`,
    `'","task_id":"' || s.task_id`,
    `'","spent_date":"' || s.spent_date`,
    `'","hours":' || trim_scale(h.hours)`,
    `',"duration_seconds":' || d.seconds`,
    `',"rounded_hours":' || trim_scale(r.hours)`,
    `',"notes":' || ${nullable('to_json(s.notes)::text')}`,
    `',"is_running":' || s.is_running::text`,
    `',"timer_started_at":' || ${nullable(instant('s.timer_started_at'))}`,
    `',"started_time":' || ${nullable(`'"' || s.started_time || '"'`)}`,
    `',"ended_time":' || ${nullable(`'"' || s.ended_time || '"'`)}`,
    `',"is_locked":' || (s.approval_status = 'approved' or s.is_billed)::text`,
    `',"is_closed":' || (s.approval_status = 'approved')::text`,
    `',"is_billed":' || s.is_billed::text`,
    `',"billable":' || s.billable::text`,
    `',"source":"' || s.source`,
    `'","created_at":' || ${instant('s.created_at')}`,
    `',"updated_at":' || ${instant('s.updated_at')}`,
  ];
  if (view.full) {
    base.push(
      `',"external_reference":' || case when s.external_reference is null then 'null' else chr(1) end`,
      `',"approval_status":"' || s.approval_status`,
      `'","metadata":' || case when s.metadata is null then 'null' else chr(2) end`,
      `',"task":{"id":"' || s.task_id`,
      `'","name":' || to_json(s.task_name)::text`,
      `'},"budgeted":' || (s.project_budget_by <> 'none')::text`,
    );
    if (view.rates) base.push(`',"billable_rate":' || ${nullable('trim_scale(s.billable_rate)::text')}`);
  }
  return `${base.join('\n || ')} || '}'`;
}

const ORDER = 's.spent_date desc, s.created_at desc, s.id desc';

interface PageRow {
  item: string;
  external_reference?: unknown;
  metadata?: unknown;
}

/**
 * The page statement: each entry's JSON in the list order, one row each (an ordered
 * string_agg of the page, and json_agg of its jsonb values, cost three times as much
 * in PostgreSQL: each ordered aggregate sorts the page again), with the jsonb values
 * the JSON leaves to Node. The outer order is the page's own (the subquery's pathkeys),
 * so it costs no sort; the rounding rule is read by scalar subqueries, evaluated once.
 */
function pageStatement(view: EntryView, page: RawBuilder<unknown>, companyId: string, now: Date) {
  // The company id is an id (withTenant checked it), written as a literal like withTenant's own settings.
  const company = (column: string) => `(select c.${column} from companies c where c.id = '${companyId}'::uuid)`;
  const seconds = `case when s.hours_entered is not null and s.timer_started_at is null then s.duration_seconds::bigint
      else least(${MAX_ENTRY_SECONDS}, s.duration_seconds + case when s.timer_started_at is null then 0
        else greatest(0, floor(extract(epoch from now.t) - extract(epoch from date_trunc('milliseconds', s.timer_started_at))))::bigint end) end`;
  const hours = `case when s.hours_entered is not null and s.timer_started_at is null then s.hours_entered else round(d.seconds / 3600.0, 6) end`;
  // roundHoursNumber: k steps of m minutes (m × 50,000 thirds of a micro-hour), to whole micro-hours half up.
  const rounded = `case x0.rounding when 'none' then h.hours else (
      (x.steps * x0.step) / 3 + case when (x.steps * x0.step) % 3 = 2 then 1 else 0 end) * 0.000001 end`;
  const steps = `case x0.rounding when 'up' then x0.whole + case when x0.rest > 0 then 1 else 0 end
      when 'down' then x0.whole else x0.whole + case when 2 * x0.rest >= x0.step then 1 else 0 end end`;
  const jsonb = view.full ? ', s.external_reference, s.metadata' : '';
  return sql<PageRow>`select ${sql.raw(entryJson(view))} as item${sql.raw(jsonb)}
    from ${page} as s
    cross join (select ${now.toISOString()}::timestamptz as t) as now
    cross join lateral (select ${sql.raw(seconds)} as seconds) as d
    cross join lateral (select ${sql.raw(hours)} as hours) as h
    cross join lateral (select r.rounding, (h.hours * 1000000)::bigint * 3 / r.step as whole,
                               (h.hours * 1000000)::bigint * 3 % r.step as rest, r.step
                          from (select ${sql.raw(company('rounding'))} as rounding, ${sql.raw(company('rounding_minutes'))} * 50000 as step) as r) as x0
    cross join lateral (select ${sql.raw(steps)} as steps) as x
    cross join lateral (select ${sql.raw(rounded)} as hours) as r
    order by ${sql.raw(ORDER)}`;
}

/**
 * One page of the entries the principal may see, filtered, as the list's JSON body:
 * `{"time_entries":[…], per_page, total_pages, total_entries, page, links}`.
 */
export function listEntriesJson(
  db: Kysely<DB>,
  p: Principal,
  view: EntryView,
  filter: EntryFilter,
  page: PageParams,
  now: Date,
): Promise<{ items: string; total: number }> {
  return withTenant(db, p.companyId, async (trx) => {
    const { rows, count } = entryListQueries(trx, p.companyId, p, filter);
    const pageRows = rows.limit(page.perPage).offset((page.page - 1) * page.perPage);
    const { rows: result } = await pageStatement(view, sql`(${pageRows})`, p.companyId, now).execute(trx);
    const total = await countedTotal(count, page, result.length);
    // jsonb values come parsed by the driver (JSON.parse), as presentEntry had them; JSON.stringify writes them.
    const items = result.map((row) =>
      row.external_reference == null && row.metadata == null ? row.item : spliceJson(row.item, row.external_reference, row.metadata),
    );
    return { items: items.join(','), total };
  });
}

