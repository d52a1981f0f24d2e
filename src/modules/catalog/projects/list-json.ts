import { sql } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { maySeeInternalCosts, maySeeRates } from '../../../access/catalog.ts';
import { isAdmin, isManager } from '../../../access/policy.ts';
import type { Tx } from '../../../db/tenant.ts';
import type { PageParams } from '../../../http/pagination.ts';
import { FROM_THE_START } from '../rates/index.ts';
import { projectListQuery, type LoadOptions, type ProjectFilter } from './queries.ts';

/**
 * The project list as JSON text built by PostgreSQL (issue 24), as the time-entry list
 * does (tracking/time/list-json.ts, which says how each kind of value is written): one
 * statement returns the page's projects as one text, the bytes JSON.stringify gave of
 * presentProject's objects, and the window count the list always carried.
 *
 * This is presentProject / presentDirectoryProject (presenter.ts) and projectView's
 * budget rule (access/catalog.ts maySeeBudget, per row) written out as SQL, for the
 * list only; item reads and writes present in JavaScript. **A change to either must
 * change this too**; test/list-json.test.ts compares them for every permission level.
 */

const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const instant = (column: string) => `'"' || to_char(${column} at time zone 'UTC', ${ISO_MS}) || '"'`;
const nullable = (json: string) => `coalesce(${json}, 'null')`;
const text = (column: string) => nullable(`to_json(${column})::text`);
const decimal = (column: string) => nullable(`trim_scale(${column})::text`);
const literal = (value: boolean) => (value ? 'true' : 'false');

/** What JavaScript's String#trim removes (WhiteSpace and LineTerminator), for personName. */
const JS_WHITESPACE = "E' \\t\\n\\u000b\\f\\r\\u00a0\\u1680\\u2000\\u2001\\u2002\\u2003\\u2004\\u2005\\u2006\\u2007\\u2008\\u2009\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff'";

/** owner: null, or { id, name (personName: first and last, trimmed), email }. */
const OWNER = `case when s.owner_id is null then 'null' else '{"id":"' || s.owner_id || '","name":'
  || to_json(btrim(coalesce(s.owner_first_name, '') || ' ' || coalesce(s.owner_last_name, ''), ${JS_WHITESPACE}))::text
  || ',"email":' || to_json(coalesce(s.owner_email, ''))::text || '}' end`;

/** The directory item (a personal sync key): exactly presentDirectoryProject's seven properties. */
const DIRECTORY = [
  `'{"id":"' || s.id`,
  `'","name":' || to_json(s.name)::text`,
  `',"code":' || ${text('s.code')}`,
  `',"is_active":' || s.is_active::text`,
  `',"owner_id":' || ${nullable(`'"' || s.owner_id || '"'`)}`,
  `',"owner":' || ${OWNER}`,
  `',"client":{"id":"' || s.client_id`,
  `'","name":' || to_json(s.client_name)::text`,
  `'}}'`,
].join('\n || ');

/** The full item for a caller who is not a personal sync key: presentFullProject without tasks. */
function fullItem(p: Principal): string {
  const rates = maySeeRates(p);
  const internalCosts = maySeeInternalCosts(p);
  const admin = literal(isAdmin(p));
  // managesProject: a manager with an active assignment as the project's manager.
  const manages = `(${literal(isManager(p))} and s.own_is_active is true and s.own_is_project_manager is true)`;
  // maySeeBudget, per row: money budgets follow the money permissions, hours budgets the project's managers or show_budget_to_all.
  const seesBudget = `case s.budget_by
      when 'project_cost' then ${literal(internalCosts)} and (${admin} or ${manages})
      when 'task_fees' then ${literal(rates)} and (${admin} or ${manages})
      else ${admin} or ${manages} or s.show_budget_to_all end`;
  const parts = [
    `'{"id":"' || s.id`,
    `'","name":' || to_json(s.name)::text`,
    `',"code":' || ${text('s.code')}`,
    `',"notes":' || ${text('s.notes')}`,
    `',"is_active":' || s.is_active::text`,
    `',"client":{"id":"' || s.client_id`,
    `'","name":' || to_json(s.client_name)::text`,
    `',"currency":' || ${text('s.client_currency')}`,
    `'},"owner_id":' || ${nullable(`'"' || s.owner_id || '"'`)}`,
    `',"owner":' || ${OWNER}`,
    `',"is_billable":' || s.is_billable::text`,
    `',"bill_by":"' || s.bill_by`,
    `'","is_fixed_fee":' || s.is_fixed_fee::text`,
    `',"budget_by":"' || s.budget_by`,
    `'","budget_is_monthly":' || s.budget_is_monthly::text`,
    `',"show_budget_to_all":' || s.show_budget_to_all::text`,
    `',"starts_on":' || ${nullable(`'"' || s.starts_on || '"'`)}`,
    `',"ends_on":' || ${nullable(`'"' || s.ends_on || '"'`)}`,
    `',"created_at":' || ${instant('s.created_at')}`,
    `',"updated_at":' || ${instant('s.updated_at')}`,
  ];
  if (rates) {
    parts.push(
      `',"hourly_rate":' || ${decimal('s.hourly_rate')}`,
      // shownEffectiveFrom: "from the start" is null.
      `',"hourly_rate_effective_from":' || ${nullable(`'"' || nullif(s.hourly_rate_effective_from::text, '${FROM_THE_START}') || '"'`)}`,
      `',"fee":' || ${decimal('s.fee')}`,
    );
  }
  if (internalCosts) parts.push(`',"cost_budget":' || ${decimal('s.cost_budget')}`);
  parts.push(`case when ${seesBudget} then ',"budget":' || ${decimal('s.budget')} else '' end`, `'}'`);
  return parts.join('\n || ');
}

/**
 * One page of the projects the caller sees, filtered, as the items' JSON text and the
 * total (a window count, as fetchPage: one round trip; a page past the end counts apart).
 */
export async function projectsPageJson(
  trx: Tx,
  p: Principal,
  options: LoadOptions,
  filter: ProjectFilter,
  { page, perPage }: PageParams,
): Promise<{ items: string; total: number }> {
  const query = projectListQuery(trx, p.companyId, options, filter);
  const pageRows = query.select(sql<string>`count(*) over ()`.as('__total')).limit(perPage).offset((page - 1) * perPage);
  const item = p.kind === 'personal' ? DIRECTORY : fullItem(p);
  const { rows } = await sql<{ items: string | null; n: number; total: string | null }>`select
      string_agg(${sql.raw(item)}, ',' order by lower(s.name), s.id) as items, count(*)::int as n, min(s.__total) as total
    from (${pageRows}) as s`.execute(trx);
  const { items, n, total } = rows[0];
  if (n > 0) return { items: items!, total: Number(total) };
  if (page === 1) return { items: '', total: 0 };
  const counted = await query.clearSelect().clearOrderBy().select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return { items: '', total: Number(counted.n) };
}
