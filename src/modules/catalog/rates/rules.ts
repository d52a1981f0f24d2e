import { Decimal } from 'decimal.js';
import { badRequest } from '../../../errors.ts';
import { isIsoDate } from '../../../time/workspace-time.ts';
import type { RateScope } from './service.ts';

/**
 * Pure rules for money amounts and rate scopes (no I/O). Amounts arrive as JSON
 * numbers (API) or text (CLI) and are stored as exact decimal strings, never
 * through float arithmetic.
 */

/** rates.hourly_rate and tasks.default_hourly_rate are NUMERIC(12, 2). */
export const MAX_HOURLY_RATE = new Decimal('9999999999.99');
/** project_task_assignments.budget is NUMERIC(14, 2). */
export const MAX_BUDGET = new Decimal('999999999999.99');

/**
 * A non-negative amount with at most two decimal places and at most `max`, as an
 * exact decimal string. Throws a 400 naming `field` otherwise.
 */
export function moneyAmount(field: string, value: unknown, max: Decimal): string {
  let d: Decimal;
  if (typeof value === 'number' && Number.isFinite(value)) d = new Decimal(value);
  else if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim())) d = new Decimal(value.trim());
  else throw badRequest(`${field} must be a number of at least 0.`, { field });
  if (d.isZero()) d = new Decimal(0); // -0 is 0
  if (d.isNegative()) throw badRequest(`${field} must be a number of at least 0.`, { field });
  if (d.decimalPlaces() > 2) throw badRequest(`${field} takes at most 2 decimal places.`, { field });
  if (d.gt(max)) throw badRequest(`${field} must be at most ${max.toFixed()}.`, { field });
  return d.toFixed();
}

export const hourlyRate = (field: string, value: unknown) => moneyAmount(field, value, MAX_HOURLY_RATE);
export const budgetAmount = (field: string, value: unknown) => moneyAmount(field, value, MAX_BUDGET);

/** A calendar date YYYY-MM-DD a rate takes effect on (400 naming `field` otherwise). */
export function effectiveDate(field: string, value: unknown): string {
  if (!isIsoDate(value)) throw badRequest(`${field} must be a date in the form YYYY-MM-DD.`, { field });
  return value;
}

/**
 * effective_from of a rate given at creation: PostgreSQL's '-infinity' date,
 * before every work date, so the ordinary lookup finds it for any earlier work.
 * Shown as null (shownEffectiveFrom): "from the start".
 */
export const FROM_THE_START = '-infinity';

/** An effective_from as the API, the CLI and the backup show it: null for FROM_THE_START. */
export const shownEffectiveFrom = (date: string | null): string | null => (date === FROM_THE_START ? null : date);

export type RateKind = 'billable' | 'cost';

/**
 * The scope a rate applies to, from the ids given (see the `rates` table):
 * billable: project; project + task; project + user; user. cost: user only.
 * Throws a 400 (field `scope`) for any other combination.
 */
export function rateScope(kind: string, ids: { projectId?: string; taskId?: string; userId?: string }): RateScope {
  const { projectId, taskId, userId } = ids;
  if (kind === 'cost') {
    if (!userId || projectId || taskId) {
      throw badRequest('A cost rate belongs to a person: give the user and neither project nor task.', { field: 'scope' });
    }
    return { kind: 'cost', userId };
  }
  if (kind !== 'billable') throw badRequest(`kind must be billable or cost, not '${kind}'.`, { field: 'kind' });
  if (projectId && taskId && !userId) return { kind, projectId, taskId };
  if (projectId && userId && !taskId) return { kind, projectId, userId };
  if (projectId && !taskId && !userId) return { kind, projectId };
  if (userId && !projectId && !taskId) return { kind, userId };
  throw badRequest(
    'A billable rate belongs to a project, a project and a task, a project and a person, or a person: ' +
      'give one of those combinations (a task needs its project; task and user do not combine).',
    { field: 'scope' },
  );
}

/** A rate to set for a scope; `from` undefined means today in the workspace zone. */
export interface RateChange {
  hourlyRate: string;
  from?: string;
}

/**
 * The `hourly_rate` / `hourly_rate_effective_from` pair of an assignment body:
 * null when no rate is sent; a 400 naming the field for a null rate (a rate is
 * superseded from a date, never removed), a bad amount or date, or an
 * effective date without a rate.
 */
export function parseRateChange(input: { hourly_rate?: unknown; hourly_rate_effective_from?: unknown }): RateChange | null {
  if (input.hourly_rate_effective_from !== undefined && input.hourly_rate === undefined) {
    throw badRequest('hourly_rate_effective_from applies only together with hourly_rate.', { field: 'hourly_rate_effective_from' });
  }
  if (input.hourly_rate === undefined) return null;
  if (input.hourly_rate === null) {
    throw badRequest('hourly_rate must be a number of at least 0 (a rate applies until the next one; set a new one from a date).', {
      field: 'hourly_rate',
    });
  }
  const rate: RateChange = { hourlyRate: hourlyRate('hourly_rate', input.hourly_rate) };
  if (input.hourly_rate_effective_from !== undefined) {
    rate.from = effectiveDate('hourly_rate_effective_from', input.hourly_rate_effective_from);
  }
  return rate;
}
