import type { Tx } from '../../../db/tenant.ts';

/** Reads the tracking areas share about people and their weeks; every query takes the workspace id first. */

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

export function loadTimeSettings(trx: Tx, companyId: string) {
  return trx
    .selectFrom('companies')
    .select(['timezone', 'week_start', 'rounding', 'rounding_minutes', 'allow_past_timer_starts'])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
}

/** Whether `teammateId` is assigned as a teammate to the manager `managerId`. */
export async function isTeammateOf(trx: Tx, companyId: string, managerId: string, teammateId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('teammate_assignments')
    .select('teammate_id')
    .where('company_id', '=', companyId)
    .where('manager_id', '=', managerId)
    .where('teammate_id', '=', teammateId)
    .executeTakeFirst();
  return row !== undefined;
}
