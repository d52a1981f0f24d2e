import { sql, type Selectable } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';
import type { PlanningTimeOff, PlanningWorkingPatterns } from '../../../db/types.ts';
import type { BreakRule, Pattern, TimeOff } from './rules.ts';

/** SQL of working capacity; every function takes the workspace id first. */

export type PatternRow = Selectable<PlanningWorkingPatterns>;
export type TimeOffRow = Selectable<PlanningTimeOff>;

export function patternsOf(trx: Tx, companyId: string, userId?: string) {
  return trx
    .selectFrom('planning_working_patterns')
    .selectAll()
    .where('company_id', '=', companyId)
    .$if(userId !== undefined, (q) => q.where('user_id', '=', userId!))
    .orderBy('user_id')
    .orderBy('effective_from')
    .execute();
}

export function findPattern(trx: Tx, companyId: string, id: string) {
  return trx.selectFrom('planning_working_patterns').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
}

/** Time off of `userId` (or of everyone, without) and the holidays, touching the period. */
export function timeOffIn(trx: Tx, companyId: string, range: { from: string; to: string }, userId?: string | null) {
  return trx
    .selectFrom('planning_time_off')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('starts_on', '<=', range.to)
    .where('ends_on', '>=', range.from)
    .$if(userId !== undefined, (q) => q.where((eb) => (userId === null ? eb('user_id', 'is', null) : eb.or([eb('user_id', '=', userId!), eb('user_id', 'is', null)]))))
    .orderBy('starts_on')
    .orderBy('id')
    .execute();
}

export function findTimeOff(trx: Tx, companyId: string, id: string) {
  return trx.selectFrom('planning_time_off').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
}

/** Another time off of the same person (or another holiday) sharing a day with the range. */
export function overlappingTimeOff(trx: Tx, companyId: string, userId: string | null, range: { starts_on: string; ends_on: string }, exceptId?: string) {
  return trx
    .selectFrom('planning_time_off')
    .select(['id', 'starts_on', 'ends_on'])
    .where('company_id', '=', companyId)
    .where((eb) => (userId === null ? eb('user_id', 'is', null) : eb('user_id', '=', userId)))
    .where('starts_on', '<=', range.ends_on)
    .where('ends_on', '>=', range.starts_on)
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId!))
    .executeTakeFirst();
}

/**
 * Serializes writes of one person's time off (their membership row), or of the holidays
 * (the workspace row): the overlap check and the insert see each other.
 */
export async function lockTimeOffOwner(trx: Tx, companyId: string, userId: string | null) {
  if (userId === null) await sql`select 1 from companies where id = ${companyId} for update`.execute(trx);
  else await sql`select 1 from memberships where company_id = ${companyId} and user_id = ${userId} for update`.execute(trx);
}

export async function breakRulesOf(trx: Tx, companyId: string): Promise<BreakRule[]> {
  const row = await trx.selectFrom('companies').select('break_rules').where('id', '=', companyId).executeTakeFirstOrThrow();
  return (row.break_rules as unknown as BreakRule[]) ?? [];
}

/** What capacityByDay needs of a person: patterns, the fallback weekly hours, time off and holidays. */
export async function capacitySource(trx: Tx, companyId: string, userId: string, range: { from: string; to: string }) {
  const [patterns, member, timeOff] = await Promise.all([
    patternsOf(trx, companyId, userId),
    trx.selectFrom('memberships').select('expected_weekly_hours').where('company_id', '=', companyId).where('user_id', '=', userId).executeTakeFirst(),
    timeOffIn(trx, companyId, range, userId),
  ]);
  return {
    patterns: patterns.map(asPattern),
    fallbackWeekly: member?.expected_weekly_hours ?? null,
    timeOff: timeOff.map((t): TimeOff => ({ user_id: t.user_id, starts_on: t.starts_on, ends_on: t.ends_on, hours: t.hours })),
  };
}

export const asPattern = (r: PatternRow): Pattern => ({
  effective_from: r.effective_from,
  monday: r.monday,
  tuesday: r.tuesday,
  wednesday: r.wednesday,
  thursday: r.thursday,
  friday: r.friday,
  saturday: r.saturday,
  sunday: r.sunday,
});

/** capacitySource for many people at once (the planner's rows): three queries, whatever their number. */
export async function capacitySources(trx: Tx, companyId: string, people: ReadonlyArray<{ user_id: string; expected_weekly_hours: string | null }>, range: { from: string; to: string }) {
  const [patterns, timeOff] = await Promise.all([patternsOf(trx, companyId), timeOffIn(trx, companyId, range)]);
  const holidays = timeOff.filter((t) => t.user_id === null);
  return new Map(
    people.map((m) => [
      m.user_id,
      {
        patterns: patterns.filter((r) => r.user_id === m.user_id).map(asPattern),
        fallbackWeekly: m.expected_weekly_hours,
        timeOff: [...holidays, ...timeOff.filter((t) => t.user_id === m.user_id)].map((t): TimeOff => ({ user_id: t.user_id, starts_on: t.starts_on, ends_on: t.ends_on, hours: t.hours })),
      },
    ]),
  );
}
