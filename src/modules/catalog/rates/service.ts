import { sql, type Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { mayManageRate } from '../../../access/catalog.ts';
import { auditActor } from '../../../access/operator.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { forbidden, notFound } from '../../../errors.ts';
import { isId, newId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import { shownEffectiveFrom } from './rules.ts';
import { workspaceToday } from './workspace-today.ts';

/**
 * Effective-dated hourly rates (table `rates`, see 0002_catalog.sql). A rate
 * applies from its `effective_from` date until the next rate of the same scope,
 * so a change never reprices work dated before it. The SQL functions
 * `effective_rate` and `billable_rate` resolve rates inside queries (reports,
 * invoices); these functions are the write side and single lookups.
 *
 * The one rule for "the rate in force on a date" is the lookup every reader
 * makes: the scope's latest row with effective_from ≤ the date (billable_rate(),
 * the time entries' billableRateSql, the reports' rate periods; tests keep the
 * three in agreement). What a rate covers is decided here, on the write side:
 * a rate given when its project, task assignment or person's project assignment
 * is created is written FROM_THE_START, so it prices all their work whatever its
 * date (issue 13); a later change, including a first rate given later, takes
 * effect from its date.
 */

export type RateScope =
  | { kind: 'billable'; projectId: string; taskId?: undefined; userId?: undefined } // project rate
  | { kind: 'billable'; projectId: string; taskId: string; userId?: undefined } // task assignment rate
  | { kind: 'billable'; projectId: string; userId: string; taskId?: undefined } // person on a project
  | { kind: 'billable'; userId: string; projectId?: undefined; taskId?: undefined } // person default
  | { kind: 'cost'; userId: string; projectId?: undefined; taskId?: undefined }; // person internal cost

/**
 * Sets the rate of a scope from a date on. A second change on the same date
 * replaces that date's rate; `null` removes the rate set for exactly that date.
 */
export async function setRate(trx: Tx, companyId: string, scope: RateScope, effectiveFrom: string, hourlyRate: string | null) {
  const project = scope.projectId ?? null;
  const task = scope.taskId ?? null;
  const user = scope.userId ?? null;
  await sql`
    delete from rates
    where company_id = ${companyId} and kind = ${scope.kind}
      and project_id is not distinct from ${project}::uuid
      and task_id is not distinct from ${task}::uuid
      and user_id is not distinct from ${user}::uuid
      and effective_from = ${effectiveFrom}::date`.execute(trx);
  if (hourlyRate !== null) {
    await trx
      .insertInto('rates')
      .values({
        company_id: companyId,
        id: newId(),
        kind: scope.kind,
        project_id: project,
        task_id: task,
        user_id: user,
        effective_from: effectiveFrom,
        hourly_rate: hourlyRate,
      })
      .execute();
  }
  await restoreEntryRates(trx, companyId, scope, effectiveFrom);
}

/**
 * After a rate row of `scope` from `from` is written or removed: the unbilled,
 * billable time entries it may price (the scope's work dated from `from` on) get
 * their stored billable_rate read again with billable_rate(), so the rate on an
 * entry always agrees with what the reports and an invoice import charge for it.
 * Only a rate given for dates that already have work changes anything: a back-
 * dated change, or a creation rate covering work recorded before the assignment
 * (an administrator's time on a project they were not assigned to). Billed
 * entries keep the rate they were invoiced at. The entries' updated_at moves
 * (database time): billable_rate is part of their body, so a client syncing with
 * `updated_since` must see the change (a pending approval's preflight goes stale,
 * rightly: its amounts changed). The rows are locked in id order first, the
 * order an invoice import locks them (lockTime), so the two cannot deadlock.
 */
async function restoreEntryRates(trx: Tx, companyId: string, scope: RateScope, from: string) {
  if (scope.kind !== 'billable') return;
  const rate = sql`billable_rate(te.company_id, te.project_id, te.task_id, te.user_id, te.spent_date)`;
  await sql`
    update time_entries te set billable_rate = ${rate}, updated_at = now()
    where te.company_id = ${companyId} and te.id in (
      select te.id from time_entries te
      where te.company_id = ${companyId} and te.billable and not te.is_billed
        and te.spent_date >= ${from}::date
        ${scope.projectId !== undefined ? sql`and te.project_id = ${scope.projectId}::uuid` : sql``}
        ${scope.taskId !== undefined ? sql`and te.task_id = ${scope.taskId}::uuid` : sql``}
        ${scope.userId !== undefined ? sql`and te.user_id = ${scope.userId}::uuid` : sql``}
        and te.billable_rate is distinct from ${rate}
      order by te.id
      for update
    )`.execute(trx);
}

/** The rate of one scope in force on a date, as a decimal string, or null. */
export async function rateOn(trx: Tx, companyId: string, scope: RateScope, date: string): Promise<string | null> {
  const row = await sql<{ rate: string | null }>`
    select effective_rate(${companyId}::uuid, ${scope.kind}, ${scope.projectId ?? null}::uuid,
                          ${scope.taskId ?? null}::uuid, ${scope.userId ?? null}::uuid, ${date}::date) as rate`.execute(trx);
  return row.rows[0]?.rate ?? null;
}

/** The billable rate for a person's work on a project's task on a date, per the project's bill_by. */
export async function billableRateOn(
  trx: Tx,
  companyId: string,
  work: { projectId: string; taskId: string; userId: string; date: string },
): Promise<string | null> {
  const row = await sql<{ rate: string | null }>`
    select billable_rate(${companyId}::uuid, ${work.projectId}::uuid, ${work.taskId}::uuid,
                         ${work.userId}::uuid, ${work.date}::date) as rate`.execute(trx);
  return row.rows[0]?.rate ?? null;
}

/** Every rate row of a scope, oldest first (rate history). */
export function rateHistory(trx: Tx, companyId: string, scope: RateScope) {
  return trx
    .selectFrom('rates')
    .select(['id', 'kind', 'project_id', 'task_id', 'user_id', 'effective_from', 'hourly_rate', 'created_at'])
    .where('company_id', '=', companyId)
    .where('kind', '=', scope.kind)
    .where((eb) =>
      eb.and([
        scope.projectId ? eb('project_id', '=', scope.projectId) : eb('project_id', 'is', null),
        scope.taskId ? eb('task_id', '=', scope.taskId) : eb('task_id', 'is', null),
        scope.userId ? eb('user_id', '=', scope.userId) : eb('user_id', 'is', null),
      ]),
    )
    .orderBy('effective_from')
    .execute();
}

// ---- a scope's rates, set and read directly (`sheaf admin rate`) ----

/**
 * Any scope's effective-dated rate, set and read as such: billable rates need the
 * billable-rate permission, cost rates the internal-cost one (mayManageRate). The
 * ids of the scope must belong to the workspace (404 otherwise); a task rate
 * needs the task assigned to the project.
 */
function assertMayManageRate(p: Principal, scope: RateScope) {
  if (!mayManageRate(p, scope.kind)) {
    throw forbidden(scope.kind === 'cost' ? 'Cost rates need the permission to view internal costs.' : 'Billable rates need the permission to view billable rates.');
  }
}

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
export function changeRate(db: Kysely<DB>, p: Principal, scope: RateScope, from: string | undefined, hourlyRate: string | null, now: Date) {
  assertMayManageRate(p, scope);
  const companyId = p.companyId;
  return withTenant(db, companyId, async (trx) => {
    await assertScopeExists(trx, companyId, scope);
    const effectiveFrom = from ?? (await workspaceToday(trx, companyId, now));
    if (hourlyRate === null) {
      const existing = (await rateHistory(trx, companyId, scope)).some((r) => r.effective_from === effectiveFrom);
      if (!existing) throw notFound(`rate from ${effectiveFrom} for this scope`);
    }
    await setRate(trx, companyId, scope, effectiveFrom, hourlyRate);
    await audit(trx, {
      ...auditActor(p),
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
export function listRates(db: Kysely<DB>, p: Principal, scope: RateScope, { on, now }: { on?: string; now: Date }) {
  assertMayManageRate(p, scope);
  const companyId = p.companyId;
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
