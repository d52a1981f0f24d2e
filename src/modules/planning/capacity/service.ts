import { Decimal } from 'decimal.js';
import type { Kysely } from 'kysely';
import { actingUserId, auditActor } from '../../../access/operator.ts';
import { isAdmin, isManager } from '../../../access/policy.ts';
import { isTeammateOf } from '../../../access/teammates.ts';
import type { Principal } from '../../../auth/principal.ts';
import { insertRow, updateRow } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { badRequest, forbidden, notFound } from '../../../errors.ts';
import { isId, newId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import { holidaysFromICal } from './ical.ts';
import {
  breakRulesOf,
  capacitySource,
  findPattern,
  findTimeOff,
  lockTimeOffOwner,
  overlappingTimeOff,
  patternsOf,
  timeOffIn,
  type PatternRow,
  type TimeOffRow,
} from './queries.ts';
import { breakRulesProblem, capacityByDay, MAX_SPAN_DAYS, spanDays, totalHours, WEEKDAYS, type BreakRule, type TimeOffKind, type Weekday } from './rules.ts';
import { decimalNumber } from '../../../money.ts';

/**
 * Working patterns, time off, holidays and break rules in the web app. Administrators
 * set everyone's pattern, record anyone's time off and the holidays, and the break
 * rules; everyone records their own time off and reads their own capacity; managers
 * read their teammates'.
 */


export function presentPattern(r: PatternRow) {
  return {
    id: r.id,
    user_id: r.user_id,
    effective_from: r.effective_from,
    ...(Object.fromEntries(WEEKDAYS.map((d) => [d, decimalNumber(r[d])])) as Record<Weekday, number>),
    weekly_hours: WEEKDAYS.reduce((sum, d) => sum.plus(r[d]), new Decimal(0)).toNumber(),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}
export type PresentedPattern = ReturnType<typeof presentPattern>;

export function presentTimeOff(r: TimeOffRow) {
  return {
    id: r.id,
    user_id: r.user_id,
    kind: r.kind as TimeOffKind,
    starts_on: r.starts_on,
    ends_on: r.ends_on,
    hours: decimalNumber(r.hours),
    name: r.name,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}
export type PresentedTimeOff = ReturnType<typeof presentTimeOff>;

/** 404 for an id that is not a member of the workspace; 403 when the caller may not read theirs. */
async function assertMayRead(trx: Tx, p: Principal, userId: string) {
  const member = isId(userId) ? await trx.selectFrom('memberships').select('user_id').where('company_id', '=', p.companyId).where('user_id', '=', userId).executeTakeFirst() : undefined;
  if (!member) throw notFound('person');
  if (userId === p.userId || isAdmin(p)) return;
  if (isManager(p) && (await isTeammateOf(trx, p.companyId, p.userId, userId))) return;
  throw forbidden("Only administrators, and managers for their teammates, read another person's capacity and time off.");
}

function assertAdministrator(p: Principal, what: string) {
  if (!isAdmin(p)) throw forbidden(`Only owners and administrators ${what}.`);
}

function checkRange(from: string, to: string, fields: [string, string] = ['from', 'to']) {
  if (to < from) throw badRequest(`${fields[1]} must not be before ${fields[0]}.`, { field: fields[1] });
  if (spanDays(from, to) > MAX_SPAN_DAYS) throw badRequest(`The period spans at most ${MAX_SPAN_DAYS} days.`, { field: fields[1] });
}

// ---- working patterns ----

export function listPatterns(db: Kysely<DB>, p: Principal, userId?: string): Promise<PresentedPattern[]> {
  return withTenant(db, p.companyId, async (trx) => {
    if (userId !== undefined) await assertMayRead(trx, p, userId);
    else if (!isAdmin(p)) throw forbidden('Only owners and administrators list everyone\u2019s working patterns; name user_id.');
    return (await patternsOf(trx, p.companyId, userId)).map(presentPattern);
  });
}

/**
 * Hours of a working pattern's day or of time off, as stored: micro-hours, as time entries'
 * hours (numeric(8, 6), migration 0106). Hundredths could not hold a typed 7:20 (7.33: a week of
 * 36:39 instead of 36:40); a millionth of an hour is under a second a day.
 */
const storedHours = (hours: number) => new Decimal(hours).toFixed(6, Decimal.ROUND_HALF_UP);

export type PatternInput = { user_id?: string; effective_from?: string } & Partial<Record<Weekday, number>>;

function patternValues(input: PatternInput) {
  const values: Partial<Record<Weekday, string>> = {};
  for (const d of WEEKDAYS) if (input[d] !== undefined) values[d] = storedHours(input[d]!);
  return values;
}

export function createPattern(db: Kysely<DB>, p: Principal, input: Required<Pick<PatternInput, 'user_id' | 'effective_from'>> & PatternInput, now: Date) {
  assertAdministrator(p, 'set working patterns');
  return withTenant(db, p.companyId, async (trx) => {
    await assertMayRead(trx, p, input.user_id);
    const taken = (await patternsOf(trx, p.companyId, input.user_id)).some((r) => r.effective_from === input.effective_from);
    if (taken) throw badRequest(`A working pattern of this person already starts on ${input.effective_from}; change that one.`, { field: 'effective_from' });
    const id = newId(now.getTime());
    await insertRow(trx, 'planning_working_patterns', p.companyId, id, { user_id: input.user_id, effective_from: input.effective_from, ...patternValues(input) }, now);
    await audit(trx, { ...auditActor(p), action: 'working_pattern.created', subjectType: 'user', subjectId: input.user_id, details: { id, effective_from: input.effective_from } });
    return presentPattern((await findPattern(trx, p.companyId, id))!);
  });
}

export function updatePattern(db: Kysely<DB>, p: Principal, id: string, input: PatternInput, now: Date) {
  assertAdministrator(p, 'set working patterns');
  return withTenant(db, p.companyId, async (trx) => {
    const row = isId(id) ? await findPattern(trx, p.companyId, id) : undefined;
    if (!row) throw notFound('working pattern');
    if (input.effective_from !== undefined && input.effective_from !== row.effective_from) {
      const taken = (await patternsOf(trx, p.companyId, row.user_id)).some((r) => r.effective_from === input.effective_from);
      if (taken) throw badRequest(`A working pattern of this person already starts on ${input.effective_from}.`, { field: 'effective_from' });
    }
    await updateRow(trx, 'planning_working_patterns', p.companyId, id, { ...(input.effective_from ? { effective_from: input.effective_from } : {}), ...patternValues(input) }, now);
    await audit(trx, { ...auditActor(p), action: 'working_pattern.updated', subjectType: 'user', subjectId: row.user_id, details: { id, changes: Object.keys(input) } });
    return presentPattern((await findPattern(trx, p.companyId, id))!);
  });
}

export function deletePattern(db: Kysely<DB>, p: Principal, id: string) {
  assertAdministrator(p, 'set working patterns');
  return withTenant(db, p.companyId, async (trx) => {
    const row = isId(id) ? await findPattern(trx, p.companyId, id) : undefined;
    if (!row) throw notFound('working pattern');
    await trx.deleteFrom('planning_working_patterns').where('company_id', '=', p.companyId).where('id', '=', id).execute();
    await audit(trx, { ...auditActor(p), action: 'working_pattern.deleted', subjectType: 'user', subjectId: row.user_id, details: { id, effective_from: row.effective_from } });
  });
}

// ---- time off and holidays ----

export interface TimeOffInput {
  user_id?: string | null;
  kind?: TimeOffKind;
  starts_on?: string;
  ends_on?: string;
  hours?: number | null;
  name?: string | null;
}

/** Who may write time off of `userId` (null: a holiday): administrators anything; a person their own, not holidays. */
function assertMayWriteTimeOff(p: Principal, userId: string | null, kind: TimeOffKind) {
  if (isAdmin(p)) return;
  if (userId === null || kind === 'public_holiday') throw forbidden('Only owners and administrators record public holidays.');
  if (userId !== p.userId) throw forbidden("Only owners and administrators record another person's time off.");
}

async function checkTimeOff(trx: Tx, p: Principal, v: Required<Omit<TimeOffInput, 'name' | 'hours'>> & Pick<TimeOffInput, 'hours'>, exceptId?: string) {
  if (v.user_id === null && v.kind !== 'public_holiday') throw badRequest('A time off of nobody in particular is a public holiday: kind public_holiday, or name user_id.', { field: 'kind' });
  checkRange(v.starts_on, v.ends_on, ['starts_on', 'ends_on']);
  // Above 0 as stored, not only as sent (0.0000001 is 0 micro-hours: the column's check would refuse it with a 500).
  if (v.hours !== null && v.hours !== undefined && new Decimal(storedHours(v.hours)).isZero()) throw badRequest('hours must be at least 0.000001, or null for whole days.', { field: 'hours' });
  if (v.user_id !== null) await assertMayRead(trx, p, v.user_id);
  assertMayWriteTimeOff(p, v.user_id, v.kind);
  await lockTimeOffOwner(trx, p.companyId, v.user_id);
  const clash = await overlappingTimeOff(trx, p.companyId, v.user_id, v, exceptId);
  if (clash) {
    throw badRequest(`This overlaps ${v.user_id === null ? 'a holiday' : 'other time off'} from ${clash.starts_on} to ${clash.ends_on}; change that one instead.`, {
      field: 'starts_on',
      overlapping_id: clash.id,
      // The clash's days, so a client can word the refusal in its own language.
      overlapping_starts_on: clash.starts_on,
      overlapping_ends_on: clash.ends_on,
    });
  }
}

export function listTimeOff(db: Kysely<DB>, p: Principal, query: { user_id?: string; from: string; to: string }): Promise<PresentedTimeOff[]> {
  checkRange(query.from, query.to);
  return withTenant(db, p.companyId, async (trx) => {
    if (query.user_id !== undefined) await assertMayRead(trx, p, query.user_id);
    // Without user_id: the caller's own and the holidays; administrators see everyone's.
    const userId = query.user_id ?? (isAdmin(p) ? undefined : p.userId);
    return (await timeOffIn(trx, p.companyId, query, userId)).map(presentTimeOff);
  });
}

export function createTimeOff(db: Kysely<DB>, p: Principal, input: TimeOffInput & Required<Pick<TimeOffInput, 'kind' | 'starts_on'>>, now: Date) {
  const v = { user_id: input.user_id === undefined ? p.userId : input.user_id, kind: input.kind, starts_on: input.starts_on, ends_on: input.ends_on ?? input.starts_on, hours: input.hours ?? null };
  return withTenant(db, p.companyId, async (trx) => {
    await checkTimeOff(trx, p, v);
    const id = newId(now.getTime());
    await insertRow(
      trx,
      'planning_time_off',
      p.companyId,
      id,
      { ...v, hours: v.hours === null ? null : storedHours(v.hours), name: input.name?.trim() || null, created_by: actingUserId(p) },
      now,
    );
    await audit(trx, { ...auditActor(p), action: 'time_off.created', subjectType: v.user_id ? 'user' : 'workspace', subjectId: v.user_id, details: { id, kind: v.kind, starts_on: v.starts_on, ends_on: v.ends_on } });
    return presentTimeOff((await findTimeOff(trx, p.companyId, id))!);
  });
}

export function updateTimeOff(db: Kysely<DB>, p: Principal, id: string, input: TimeOffInput, now: Date) {
  return withTenant(db, p.companyId, async (trx) => {
    const row = isId(id) ? await findTimeOff(trx, p.companyId, id) : undefined;
    if (!row) throw notFound('time off');
    if (row.user_id !== null) await assertMayRead(trx, p, row.user_id);
    assertMayWriteTimeOff(p, row.user_id, row.kind as TimeOffKind);
    const v = {
      user_id: row.user_id,
      kind: input.kind ?? (row.kind as TimeOffKind),
      starts_on: input.starts_on ?? row.starts_on,
      ends_on: input.ends_on ?? row.ends_on,
      hours: input.hours === undefined ? decimalNumber(row.hours) : input.hours,
    };
    await checkTimeOff(trx, p, v, id);
    await updateRow(
      trx,
      'planning_time_off',
      p.companyId,
      id,
      { kind: v.kind, starts_on: v.starts_on, ends_on: v.ends_on, hours: v.hours === null ? null : storedHours(v.hours), ...(input.name !== undefined ? { name: input.name?.trim() || null } : {}) },
      now,
    );
    await audit(trx, { ...auditActor(p), action: 'time_off.updated', subjectType: row.user_id ? 'user' : 'workspace', subjectId: row.user_id, details: { id, changes: Object.keys(input) } });
    return presentTimeOff((await findTimeOff(trx, p.companyId, id))!);
  });
}

export function deleteTimeOff(db: Kysely<DB>, p: Principal, id: string) {
  return withTenant(db, p.companyId, async (trx) => {
    const row = isId(id) ? await findTimeOff(trx, p.companyId, id) : undefined;
    if (!row) throw notFound('time off');
    if (row.user_id !== null) await assertMayRead(trx, p, row.user_id);
    assertMayWriteTimeOff(p, row.user_id, row.kind as TimeOffKind);
    await trx.deleteFrom('planning_time_off').where('company_id', '=', p.companyId).where('id', '=', id).execute();
    await audit(trx, { ...auditActor(p), action: 'time_off.deleted', subjectType: row.user_id ? 'user' : 'workspace', subjectId: row.user_id, details: { id, kind: row.kind, starts_on: row.starts_on, ends_on: row.ends_on } });
  });
}

/** Public holidays of `year` from an iCalendar file; a day that already has a holiday is skipped. */
export function importHolidays(db: Kysely<DB>, p: Principal, input: { calendar: string; year: number }, now: Date) {
  assertAdministrator(p, 'import public holidays');
  const { holidays, skipped } = holidaysFromICal(input.calendar, input.year);
  return withTenant(db, p.companyId, async (trx) => {
    await lockTimeOffOwner(trx, p.companyId, null);
    let imported = 0;
    let existing = 0;
    for (const h of holidays) {
      if (await overlappingTimeOff(trx, p.companyId, null, h)) {
        existing++;
        continue;
      }
      await insertRow(trx, 'planning_time_off', p.companyId, newId(now.getTime()), { user_id: null, kind: 'public_holiday', starts_on: h.starts_on, ends_on: h.ends_on, hours: null, name: h.name, created_by: actingUserId(p) }, now);
      imported++;
    }
    await audit(trx, { ...auditActor(p), action: 'holidays.imported', subjectType: 'workspace', subjectId: null, details: { year: input.year, imported, existing, skipped } });
    return { imported, existing, skipped };
  });
}

// ---- break rules and capacity ----

export function getBreakRules(db: Kysely<DB>, p: Principal): Promise<BreakRule[]> {
  return withTenant(db, p.companyId, (trx) => breakRulesOf(trx, p.companyId));
}

export function setBreakRules(db: Kysely<DB>, p: Principal, rules: Array<{ after_hours: number; break_minutes: number }>): Promise<BreakRule[]> {
  assertAdministrator(p, 'set break rules');
  const stored = rules.map((r) => ({ after_hours: new Decimal(r.after_hours).toString(), break_minutes: r.break_minutes })).sort((a, b) => new Decimal(a.after_hours).cmp(b.after_hours));
  const problem = breakRulesProblem(stored);
  if (problem) throw badRequest(problem, { field: 'break_rules' });
  return withTenant(db, p.companyId, async (trx) => {
    await trx.updateTable('companies').set({ break_rules: JSON.stringify(stored) }).where('id', '=', p.companyId).execute();
    await audit(trx, { ...auditActor(p), action: 'break_rules.updated', subjectType: 'workspace', subjectId: null, details: { rules: stored } });
    return stored;
  });
}

/** A person's capacity for each day of the period (null days: nothing is expected of them). */
export function capacityOf(db: Kysely<DB>, p: Principal, query: { user_id?: string; from: string; to: string }) {
  checkRange(query.from, query.to);
  const userId = query.user_id ?? p.userId;
  return withTenant(db, p.companyId, async (trx) => {
    await assertMayRead(trx, p, userId);
    const days = capacityByDay(await capacitySource(trx, p.companyId, userId, query), query.from, query.to);
    return {
      user_id: userId,
      days: days?.map((d) => ({ date: d.date, hours: d.hours.toNumber(), base_hours: d.base.toNumber(), off_hours: d.off.toNumber(), whole_day_off: d.whole_day_off })) ?? null,
      total_hours: days ? totalHours(days).toNumber() : null,
    };
  });
}

/** For the approvals' preflight (tracking): the capacity of `userId` in a period, read in the caller's transaction. */
export async function capacityIn(trx: Tx, companyId: string, userId: string, range: { from: string; to: string }) {
  return capacityByDay(await capacitySource(trx, companyId, userId, range), range.from, range.to);
}

