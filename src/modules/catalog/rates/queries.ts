import { sql } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';

/** Whose billable rate: a project's own, or its rate for one task or one person. */
export type RateOwner = 'project' | 'task' | 'user';

/**
 * The billable rate in force on `day` of the scope a row names, for a lateral join: the latest
 * rate from on or before that day. `row` is the joined row's alias; its workspace, project and (for
 * `task` and `user`) its task or person columns name the scope (a project row names itself by `id`).
 */
export function billableRateOn(trx: Tx, row: string, owner: RateOwner, day: string) {
  const ref = (column: string) => sql.ref<string>(`${row}.${column}`);
  return trx
    .selectFrom('rates as r')
    .select(['r.hourly_rate', 'r.effective_from'])
    .where('r.company_id', '=', ref('company_id'))
    .where('r.kind', '=', 'billable')
    .where('r.project_id', '=', ref(owner === 'project' ? 'id' : 'project_id'))
    .where((w) => (owner === 'task' ? w('r.task_id', '=', ref('task_id')) : w('r.task_id', 'is', null)))
    .where((w) => (owner === 'user' ? w('r.user_id', '=', ref('user_id')) : w('r.user_id', 'is', null)))
    .where('r.effective_from', '<=', day)
    .orderBy('r.effective_from', 'desc')
    .limit(1)
    .as('rate');
}
