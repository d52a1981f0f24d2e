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
