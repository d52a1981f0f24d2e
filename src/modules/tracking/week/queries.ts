import { sql, type Kysely } from 'kysely';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';

/** Reads the tracking areas share about people, their weeks and the projects they record on; every query takes the workspace id first. */

/** Names and e-mail addresses of members, by user id. */
export async function peopleNamed(trx: Tx, companyId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return new Map<string, { name: string; email: string }>();
  const rows = await trx
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email'])
    .where('m.company_id', '=', companyId)
    .where('m.user_id', 'in', [...userIds])
    .execute();
  return new Map(rows.map((r) => [r.id, { name: `${r.first_name} ${r.last_name}`.trim(), email: r.email }]));
}

/** The workspace settings of time and its weeks: zone, week start, rounding rule, past timer starts. */
export type TimeSettings = Awaited<ReturnType<typeof loadTimeSettings>>;

const TIME_SETTINGS = ['timezone', 'week_start', 'rounding', 'rounding_minutes', 'allow_past_timer_starts'] as const;

export function loadTimeSettings(trx: Tx, companyId: string) {
  return trx.selectFrom('companies').select(TIME_SETTINGS).where('id', '=', companyId).executeTakeFirstOrThrow();
}

/**
 * withTenant with the workspace's time settings (loadTimeSettings') read in the transaction's
 * first statement, as a JSON object of the same columns: the PostgreSQL pool sends that
 * statement with BEGIN, so the settings cost neither a round trip nor a query built by Kysely
 * of their own (issue 24; docs/decisions.md, "Hot paths: timestamps read from their digits; the time
 * settings with BEGIN").
 */
export function withTimeSettings<T>(db: Kysely<DB>, companyId: string, fn: (trx: Tx, settings: TimeSettings) => Promise<T>): Promise<T> {
  const fields = sql.join(TIME_SETTINGS.map((name) => sql`${sql.lit(name)}, c.${sql.ref(name)}`));
  const prelude = { time_settings: sql<TimeSettings | null>`(select json_build_object(${fields}) from companies c where c.id = ${sql.lit(companyId)})` };
  return withTenant(
    db,
    companyId,
    (trx, { time_settings }) => {
      // The principal's workspace exists (a foreign key of its membership); as loadTimeSettings' OrThrow.
      if (!time_settings) throw new Error(`no workspace ${companyId}`);
      return fn(trx, time_settings);
    },
    prelude,
  );
}

/**
 * The workspace's projects with their client (`c`) and the person's own
 * assignment (`pua`, null columns when never assigned), selecting its
 * `assignment_active`: what the screens offering projects to record time and
 * expenses on build on, before mayRecordOnProject decides.
 */
export function projectsWithOwnAssignment(trx: Tx, companyId: string, userId: string) {
  return trx
    .selectFrom('projects as p')
    .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 'p.company_id').onRef('c.id', '=', 'p.client_id'))
    .leftJoin('project_user_assignments as pua', (j) =>
      j.onRef('pua.company_id', '=', 'p.company_id').onRef('pua.project_id', '=', 'p.id').on('pua.user_id', '=', userId),
    )
    .select('pua.is_active as assignment_active')
    .where('p.company_id', '=', companyId);
}
