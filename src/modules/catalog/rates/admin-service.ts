import type { Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { notFound } from '../../../errors.ts';
import { isId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/service.ts';
import { shownEffectiveFrom } from './rules.ts';
import { workspaceToday } from './workspace-today.ts';
import { rateHistory, rateOn, setRate, type RateScope } from './service.ts';

/**
 * Rates for the operator (`sheaf admin rate`): set an effective-dated rate of any
 * scope and read a scope's history. The ids of the scope must belong to the
 * workspace (404 otherwise); a task rate needs the task assigned to the project.
 */

async function assertScopeExists(trx: Tx, companyId: string, scope: RateScope) {
  const exists = async (table: 'projects' | 'tasks', id: string) =>
    isId(id) && (await trx.selectFrom(table).select('id').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst()) !== undefined;
  if (scope.projectId !== undefined && !(await exists('projects', scope.projectId))) throw notFound('project');
  if (scope.taskId !== undefined) {
    if (!(await exists('tasks', scope.taskId))) throw notFound('task');
    const assigned = await trx
      .selectFrom('project_task_assignments')
      .select('task_id')
      .where('company_id', '=', companyId)
      .where('project_id', '=', scope.projectId!)
      .where('task_id', '=', scope.taskId)
      .executeTakeFirst();
    if (!assigned) throw notFound('task assignment (assign the task to the project first)');
  }
  if (scope.userId !== undefined) {
    const member = isId(scope.userId)
      ? await trx
          .selectFrom('memberships')
          .select('user_id')
          .where('company_id', '=', companyId)
          .where('user_id', '=', scope.userId)
          .executeTakeFirst()
      : undefined;
    if (!member) throw notFound('user');
  }
}

const scopeIds = (scope: RateScope) => ({
  kind: scope.kind,
  project_id: scope.projectId ?? null,
  task_id: scope.taskId ?? null,
  user_id: scope.userId ?? null,
});

function historyOf(rows: Awaited<ReturnType<typeof rateHistory>>) {
  return rows.map((r) => ({ effective_from: shownEffectiveFrom(r.effective_from), hourly_rate: r.hourly_rate, created_at: r.created_at }));
}

/**
 * Sets a scope's rate from `from` (default: today in the workspace zone) on; a
 * second rate on the same date replaces it; `null` removes the rate set for
 * exactly that date. Earlier dates keep their rate.
 */
export function setRateForAdmin(db: Kysely<DB>, companyId: string, scope: RateScope, from: string | undefined, hourlyRate: string | null, now: Date) {
  return withTenant(db, companyId, async (trx) => {
    await assertScopeExists(trx, companyId, scope);
    const effectiveFrom = from ?? (await workspaceToday(trx, companyId, now));
    if (hourlyRate === null) {
      const existing = (await rateHistory(trx, companyId, scope)).some((r) => r.effective_from === effectiveFrom);
      if (!existing) throw notFound(`rate from ${effectiveFrom} for this scope`);
    }
    await setRate(trx, companyId, scope, effectiveFrom, hourlyRate);
    await audit(trx, {
      companyId,
      action: hourlyRate === null ? 'rate.removed' : 'rate.set',
      subjectType: 'rate',
      details: { ...scopeIds(scope), effective_from: effectiveFrom, hourly_rate: hourlyRate },
    });
    return {
      ...scopeIds(scope),
      effective_from: effectiveFrom,
      hourly_rate: hourlyRate,
      history: historyOf(await rateHistory(trx, companyId, scope)),
    };
  });
}

/** A scope's rate history (oldest first), the rate in force today and, if asked, on another date. */
export function listRatesForAdmin(db: Kysely<DB>, companyId: string, scope: RateScope, { on, now }: { on?: string; now: Date }) {
  return withTenant(db, companyId, async (trx) => {
    await assertScopeExists(trx, companyId, scope);
    const today = await workspaceToday(trx, companyId, now);
    return {
      ...scopeIds(scope),
      today,
      rate_today: await rateOn(trx, companyId, scope, today),
      ...(on ? { on, rate_on: await rateOn(trx, companyId, scope, on) } : {}),
      history: historyOf(await rateHistory(trx, companyId, scope)),
    };
  });
}
