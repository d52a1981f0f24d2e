import { Decimal } from 'decimal.js';
import { sql, type Kysely } from 'kysely';
import { mayWatchBudgets, reportProjectScope } from '../../../access/reports.ts';
import type { Principal } from '../../../auth/principal.ts';
import { withTenant } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { forbidden } from '../../../errors.ts';
import { plannedHoursNumber, plannedPerProject } from '../../planning/assignments/index.ts';
import { checkRange, reportSettings, roundedMicroHours } from '../reports/index.ts';

/**
 * Planned against tracked hours per project (issue 26 item 2): the planner's hours in the
 * period (planning's arithmetic) beside the hours tracked on the project, for the projects in
 * the caller's report scope (owners and administrators every project, managers the ones they
 * manage). A project appears when it has either. Tracked hours are the entries' rounded hours,
 * as every other report counts them (the workspace's rounding).
 */
export function plannedVsTracked(db: Kysely<DB>, p: Principal, query: { from: string; to: string }) {
  if (!mayWatchBudgets(p)) throw forbidden('Only owners, administrators and managers see planned against tracked hours.');
  checkRange(query.from, query.to);
  return withTenant(db, p.companyId, async (trx) => {
    const rounded = roundedMicroHours(await reportSettings(trx, p.companyId));
    const projects = await trx
      .selectFrom('projects as p')
      .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 'p.company_id').onRef('c.id', '=', 'p.client_id'))
      .select(['p.id', 'p.name', 'c.name as client_name'])
      .select((eb) =>
        eb
          .selectFrom('time_entries as te')
          .select(sql<string>`coalesce(sum(${rounded}), 0)::text`.as('s'))
          .whereRef('te.company_id', '=', 'p.company_id')
          .whereRef('te.project_id', '=', 'p.id')
          .where('te.spent_date', '>=', query.from)
          .where('te.spent_date', '<=', query.to)
          .where('te.is_running', '=', false)
          .as('tracked_micro_hours'),
      )
      .where('p.company_id', '=', p.companyId)
      .where(reportProjectScope(p))
      .orderBy(sql`lower(c.name)`)
      .orderBy(sql`lower(p.name)`)
      .execute();
    const planned = await plannedPerProject(trx, p.companyId, query, projects.map((x) => x.id));
    return projects
      .map((x) => {
        const plannedHours = planned.get(x.id) ?? new Decimal(0);
        const tracked = new Decimal(x.tracked_micro_hours ?? 0).div(1_000_000);
        return {
          project: { id: x.id, name: x.name, client_name: x.client_name },
          planned_hours: plannedHoursNumber(plannedHours),
          tracked_hours: plannedHoursNumber(tracked),
          difference_hours: plannedHoursNumber(tracked.minus(plannedHours)),
        };
      })
      .filter((r) => r.planned_hours !== 0 || r.tracked_hours !== 0);
  });
}
