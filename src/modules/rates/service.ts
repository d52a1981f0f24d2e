import { sql } from 'kysely';
import type { Tx } from '../../db/tenant.ts';
import { newId } from '../../ids.ts';

/**
 * Effective-dated hourly rates (table `rates`, see 0002_catalog.sql). A rate
 * applies from its `effective_from` date until the next rate of the same scope,
 * so setting a rate never reprices work dated before it. The SQL functions
 * `effective_rate` and `billable_rate` resolve rates inside queries (reports,
 * invoices); these functions are the write side and single lookups.
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
  if (hourlyRate === null) return;
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
