import { Decimal } from 'decimal.js';
import type { Kysely } from 'kysely';
import { actingUserId, auditActor } from '../../../access/operator.ts';
import { isAdmin, isManager } from '../../../access/policy.ts';
import type { Principal } from '../../../auth/principal.ts';
import { insertRow, updateRow } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { badRequest, forbidden, notFound } from '../../../errors.ts';
import { isId, newId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import { baseHours, capacityByDay, capacitySource, capacitySources, type Pattern, type TimeOff } from '../capacity/index.ts';
import {
  assignmentsIn,
  findAssignment,
  livePlanProjects,
  memberForPlanning,
  findPlaceholder,
  managedProjectIds,
  placeholdersOf,
  plannablePeople,
  projectForPlanning,
  type AssignmentRow,
  type AssignmentView,
  type PlaceholderRow,
  workspaceWeekStart,
} from './queries.ts';
import { hoursNumber, isWeekday, plannedByDay, plannedHours, planProblem, weekIndex, weekStarts, type Plan } from './rules.ts';
import { decimalNumber } from '../../../money.ts';
import { addDays, DAY_MS, msOf } from '../../../time/calendar-days.ts';

/** The first and last dates a plan may hold (the schemas' dates are four-digit years; PostgreSQL has no year 0). */
const FIRST_DAY = '0001-01-01';
const LAST_DAY = '9999-12-31';

/**
 * Planning: assignments of people and placeholders to projects, placeholders, and the
 * schedule the planner shows. Owners and administrators plan every project; managers the
 * projects they manage (and see the whole schedule, to find who is free); everyone reads
 * their own plan (the home page).
 */


export function presentAssignment(r: AssignmentRow | AssignmentView) {
  return {
    id: r.id,
    project: { id: r.project_id, name: 'project_name' in r ? r.project_name : null, client_name: 'client_name' in r ? r.client_name : null },
    user_id: r.user_id,
    placeholder_id: r.placeholder_id,
    starts_on: r.starts_on,
    ends_on: r.ends_on,
    hours_per_day: decimalNumber(r.hours_per_day),
    total_hours: decimalNumber(r.total_hours),
    notes: r.notes,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}
export type PresentedAssignment = ReturnType<typeof presentAssignment>;

export function presentPlaceholder(r: PlaceholderRow) {
  return { id: r.id, name: r.name, weekly_hours: decimalNumber(r.weekly_hours), is_active: r.is_active, created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString() };
}

export const mayOpenPlanner = (p: Principal) => isAdmin(p) || isManager(p);

/**
 * Whose working days a plan counts: a person's pattern in force on the day (else Monday to
 * Friday: before a first pattern as without one, as capacity counts them), a placeholder's
 * Monday to Friday.
 */
async function workingDayOf(trx: Tx, companyId: string, who: { user_id: string | null }, range: { from: string; to: string }) {
  if (who.user_id === null) return isWeekday;
  return workingDays(await capacitySource(trx, companyId, who.user_id, range));
}
/**
 * A person's working days for a plan: the pattern has hours that day, and it is no whole day
 * off (a holiday, their own vacation or sickness). Capacity counts such a day as 0 hours, so
 * a plan's hours on it would show a holiday week as over-allocated; a plan's total spreads over
 * the other days instead. A part-day off leaves the day a working one (its capacity is less).
 * `source.timeOff` must cover the plan's whole range, or a total spreads over days it is not
 * planned on.
 */
function workingDays(source: { patterns: readonly Pattern[]; timeOff: readonly TimeOff[] }) {
  const daysOff = source.timeOff.filter((t) => t.hours === null);
  return (date: string) => !daysOff.some((t) => t.starts_on <= date && date <= t.ends_on) && (baseHours(source.patterns, null, date)?.gt(0) ?? isWeekday(date));
}
/** The days from `range` to the ends of the plans in it: the time off a plan's spread reads. */
function spanOf(range: { from: string; to: string }, plans: readonly Plan[]) {
  let { from, to } = range;
  for (const a of plans) {
    if (a.starts_on < from) from = a.starts_on;
    if (a.ends_on > to) to = a.ends_on;
  }
  return { from, to };
}

async function assertMayPlan(trx: Tx, p: Principal, projectId: string) {
  const project = isId(projectId) ? await projectForPlanning(trx, p.companyId, projectId, p.userId) : undefined;
  if (!project) throw notFound('project');
  if (isAdmin(p) || (isManager(p) && project.manages)) return project;
  throw forbidden('Only owners, administrators and the project\u2019s managers plan it.');
}

/**
 * Whom a plan names: a member or a placeholder of the workspace (404 otherwise), never a client.
 * A new plan, or a plan given to someone else (`planning`), names whom the planner shows: an
 * active person (not an agent) or an active placeholder; a plan of someone who left stays
 * editable as it is, so it can be shortened, moved or deleted.
 */
async function assertWho(trx: Tx, companyId: string, who: { user_id: string | null; placeholder_id: string | null }, planning: boolean) {
  if ((who.user_id === null) === (who.placeholder_id === null)) throw badRequest('Name either user_id (a person) or placeholder_id (a role to staff).', { field: 'user_id' });
  if (who.user_id !== null) {
    const m = isId(who.user_id) ? await memberForPlanning(trx, companyId, who.user_id) : undefined;
    if (!m) throw notFound('person');
    if (m.role === 'client') throw badRequest('A client cannot be planned on projects.', { field: 'user_id' });
    if (planning && !m.is_active) throw badRequest('This person is deactivated: plans are for the people the planner shows.', { field: 'user_id', refusal: 'not_plannable' });
    if (planning && m.user_type !== 'human') throw badRequest('An agent has no working hours to plan: plans are for people and placeholders.', { field: 'user_id', refusal: 'not_plannable' });
  } else {
    const placeholder = isId(who.placeholder_id!) ? await findPlaceholder(trx, companyId, who.placeholder_id!) : undefined;
    if (!placeholder) throw notFound('placeholder');
    if (planning && !placeholder.is_active) throw badRequest('This placeholder is archived: plans are for the placeholders the planner shows.', { field: 'placeholder_id', refusal: 'not_plannable' });
  }
}

export interface AssignmentInput {
  project_id?: string;
  user_id?: string | null;
  placeholder_id?: string | null;
  starts_on?: string;
  ends_on?: string;
  hours_per_day?: number | null;
  total_hours?: number | null;
  notes?: string | null;
}

async function checkedPlan(trx: Tx, companyId: string, v: Plan & { user_id: string | null }) {
  if ((v.hours_per_day === null) === (v.total_hours === null)) throw badRequest('Give either hours_per_day or total_hours.', { field: 'hours_per_day' });
  const problem = planProblem(v, await workingDayOf(trx, companyId, v, { from: v.starts_on, to: v.ends_on }));
  if (problem) {
    const { message, ...extras } = problem;
    throw badRequest(message, extras);
  }
}

const decimalOrNull = (v: number | null | undefined) => (v === null || v === undefined ? null : new Decimal(v).toFixed(2));

export function createAssignment(db: Kysely<DB>, p: Principal, input: AssignmentInput & Required<Pick<AssignmentInput, 'project_id' | 'starts_on' | 'ends_on'>>, now: Date) {
  return withTenant(db, p.companyId, async (trx) => {
    await assertMayPlan(trx, p, input.project_id);
    const who = { user_id: input.user_id ?? null, placeholder_id: input.placeholder_id ?? null };
    await assertWho(trx, p.companyId, who, true);
    const plan = { ...who, starts_on: input.starts_on, ends_on: input.ends_on, hours_per_day: decimalOrNull(input.hours_per_day), total_hours: decimalOrNull(input.total_hours) };
    await checkedPlan(trx, p.companyId, plan);
    const id = newId(now.getTime());
    await insertRow(trx, 'planning_assignments', p.companyId, id, { project_id: input.project_id, ...plan, notes: input.notes?.trim() || null, created_by: actingUserId(p) }, now);
    await audit(trx, { ...auditActor(p), action: 'planning_assignment.created', subjectType: 'project', subjectId: input.project_id, details: { id, ...who, starts_on: plan.starts_on, ends_on: plan.ends_on } });
    return presentAssignment((await assignmentsIn(trx, p.companyId, { from: plan.starts_on, to: plan.ends_on })).find((a) => a.id === id)!);
  });
}

export function updateAssignment(db: Kysely<DB>, p: Principal, id: string, input: AssignmentInput, now: Date) {
  return withTenant(db, p.companyId, async (trx) => {
    const row = isId(id) ? await findAssignment(trx, p.companyId, id, true) : undefined;
    if (!row) throw notFound('assignment');
    await assertMayPlan(trx, p, row.project_id);
    if (input.project_id !== undefined && input.project_id !== row.project_id) await assertMayPlan(trx, p, input.project_id);
    const who =
      input.user_id !== undefined || input.placeholder_id !== undefined
        ? { user_id: input.user_id ?? null, placeholder_id: input.placeholder_id ?? null }
        : { user_id: row.user_id, placeholder_id: row.placeholder_id };
    await assertWho(trx, p.companyId, who, who.user_id !== row.user_id || who.placeholder_id !== row.placeholder_id);
    // One of hours_per_day and total_hours: setting one clears the other.
    const hours =
      input.hours_per_day !== undefined && input.hours_per_day !== null
        ? { hours_per_day: decimalOrNull(input.hours_per_day), total_hours: null }
        : input.total_hours !== undefined && input.total_hours !== null
          ? { hours_per_day: null, total_hours: decimalOrNull(input.total_hours) }
          : { hours_per_day: row.hours_per_day, total_hours: row.total_hours };
    const plan = { ...who, starts_on: input.starts_on ?? row.starts_on, ends_on: input.ends_on ?? row.ends_on, ...hours };
    await checkedPlan(trx, p.companyId, plan);
    await updateRow(
      trx,
      'planning_assignments',
      p.companyId,
      id,
      { ...plan, project_id: input.project_id ?? row.project_id, ...(input.notes !== undefined ? { notes: input.notes?.trim() || null } : {}) },
      now,
    );
    await audit(trx, { ...auditActor(p), action: 'planning_assignment.updated', subjectType: 'project', subjectId: input.project_id ?? row.project_id, details: { id, changes: Object.keys(input) } });
    return presentAssignment((await assignmentsIn(trx, p.companyId, { from: plan.starts_on, to: plan.ends_on })).find((a) => a.id === id)!);
  });
}

/** Soft-deletes: the planner no longer shows it; the backup keeps it with deleted_at. */
export function deleteAssignment(db: Kysely<DB>, p: Principal, id: string, now: Date) {
  return withTenant(db, p.companyId, async (trx) => {
    const row = isId(id) ? await findAssignment(trx, p.companyId, id, true) : undefined;
    if (!row) throw notFound('assignment');
    await assertMayPlan(trx, p, row.project_id);
    await updateRow(trx, 'planning_assignments', p.companyId, id, { deleted_at: now }, now);
    await audit(trx, { ...auditActor(p), action: 'planning_assignment.deleted', subjectType: 'project', subjectId: row.project_id, details: { id } });
  });
}

// ---- placeholders ----

/** A placeholder's name as stored: trimmed, and not empty then (400, not the column's check). */
function placeholderName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest('A placeholder needs a name (such as "Senior designer").', { field: 'name' });
  return trimmed;
}

function assertMayManagePlaceholders(p: Principal) {
  if (!isAdmin(p) && !isManager(p)) throw forbidden('Only owners, administrators and managers manage placeholders.');
}

export function listPlaceholders(db: Kysely<DB>, p: Principal) {
  if (!mayOpenPlanner(p)) throw forbidden('Only owners, administrators and managers use the planner.');
  return withTenant(db, p.companyId, async (trx) => (await placeholdersOf(trx, p.companyId)).map(presentPlaceholder));
}

export function createPlaceholder(db: Kysely<DB>, p: Principal, input: { name: string; weekly_hours?: number }, now: Date) {
  assertMayManagePlaceholders(p);
  return withTenant(db, p.companyId, async (trx) => {
    const id = newId(now.getTime());
    await insertRow(trx, 'planning_placeholders', p.companyId, id, { name: placeholderName(input.name), weekly_hours: new Decimal(input.weekly_hours ?? 40).toFixed(2) }, now);
    await audit(trx, { ...auditActor(p), action: 'planning_placeholder.created', subjectType: 'planning_placeholder', subjectId: id, details: { name: input.name } });
    return presentPlaceholder((await findPlaceholder(trx, p.companyId, id))!);
  });
}

export function updatePlaceholder(db: Kysely<DB>, p: Principal, id: string, input: { name?: string; weekly_hours?: number; is_active?: boolean }, now: Date) {
  assertMayManagePlaceholders(p);
  return withTenant(db, p.companyId, async (trx) => {
    const row = isId(id) ? await findPlaceholder(trx, p.companyId, id) : undefined;
    if (!row) throw notFound('placeholder');
    // Archiving hides its plans' row: only someone who plans each of their projects may (as staffing it).
    if (input.is_active === false && row.is_active) {
      for (const projectId of await livePlanProjects(trx, p.companyId, id)) await assertMayPlan(trx, p, projectId);
    }
    await updateRow(
      trx,
      'planning_placeholders',
      p.companyId,
      id,
      {
        ...(input.name !== undefined ? { name: placeholderName(input.name) } : {}),
        ...(input.weekly_hours !== undefined ? { weekly_hours: new Decimal(input.weekly_hours).toFixed(2) } : {}),
        ...(input.is_active !== undefined ? { is_active: input.is_active } : {}),
      },
      now,
    );
    await audit(trx, { ...auditActor(p), action: 'planning_placeholder.updated', subjectType: 'planning_placeholder', subjectId: id, details: { changes: Object.keys(input) } });
    return presentPlaceholder((await findPlaceholder(trx, p.companyId, id))!);
  });
}

/**
 * A placeholder staffed: its live assignments (of the projects the caller may plan) move to the
 * person, each checked against the person's working days; the placeholder is archived when none is left.
 */
export function replacePlaceholder(db: Kysely<DB>, p: Principal, id: string, userId: string, now: Date) {
  assertMayManagePlaceholders(p);
  return withTenant(db, p.companyId, async (trx) => {
    const row = isId(id) ? await findPlaceholder(trx, p.companyId, id) : undefined;
    if (!row) throw notFound('placeholder');
    await assertWho(trx, p.companyId, { user_id: userId, placeholder_id: null }, true);
    const live = await trx.selectFrom('planning_assignments').selectAll().where('company_id', '=', p.companyId).where('placeholder_id', '=', id).where('deleted_at', 'is', null).forUpdate().execute();
    let moved = 0;
    for (const a of live) {
      await assertMayPlan(trx, p, a.project_id);
      await checkedPlan(trx, p.companyId, { ...a, user_id: userId });
      await updateRow(trx, 'planning_assignments', p.companyId, a.id, { user_id: userId, placeholder_id: null }, now);
      moved++;
    }
    await updateRow(trx, 'planning_placeholders', p.companyId, id, { is_active: false }, now);
    await audit(trx, { ...auditActor(p), action: 'planning_placeholder.replaced', subjectType: 'planning_placeholder', subjectId: id, details: { user_id: userId, assignments: moved } });
    return { moved };
  });
}

// ---- the schedule ----

export const MAX_WEEKS = 52;

/**
 * The planner's data: people and active placeholders as rows, `weeks` workspace weeks
 * (`week_start`: a Sunday-start workspace's columns run Sunday to Saturday) from the week
 * holding `from` as columns, each cell the planned hours against the capacity (the pattern
 * less time off; a placeholder's weekly hours over Monday to Friday), and the live
 * assignments in the period (with what the caller may change).
 */
export function scheduleOf(db: Kysely<DB>, p: Principal, query: { from: string; weeks?: number }) {
  if (!mayOpenPlanner(p)) throw forbidden('Only owners, administrators and managers use the planner; everyone sees their own plan on the home page.');
  return withTenant(db, p.companyId, async (trx) => {
    const weeks = weekStarts(query.from, query.weeks ?? 12, await workspaceWeekStart(trx, p.companyId));
    // Weeks before year 1 or past 9999-12-31 hold no dates the database knows (a Sunday-start
    // week of 0001-01-01 begins in year 0); compared as instants, as a day past 9999 has no YYYY-MM-DD.
    if (msOf(weeks[0]!) < msOf(FIRST_DAY)) throw badRequest(`The weeks shown start before ${FIRST_DAY}; start them later.`, { field: 'from' });
    if (msOf(weeks[0]!) + (weeks.length * 7 - 1) * DAY_MS > msOf(LAST_DAY)) throw badRequest(`The weeks shown end after ${LAST_DAY}; start them earlier or show fewer.`, { field: 'from' });
    const range = { from: weeks[0]!, to: addDays(weeks.at(-1)!, 6) };
    const [active, activePlaceholders, assignments, managed] = await Promise.all([
      plannablePeople(trx, p.companyId),
      placeholdersOf(trx, p.companyId, true),
      assignmentsIn(trx, p.companyId, range),
      isAdmin(p) ? Promise.resolve(null) : managedProjectIds(trx, p.companyId, p.userId),
    ]);
    // Plans of people who left (or agents) and of archived placeholders stay rows while they
    // fall in the weeks shown, so what planned vs tracked counts can be seen and cleared here.
    const shown = new Set([...active.map((m) => m.user_id), ...activePlaceholders.map((ph) => ph.id)]);
    const unshown = (ids: Array<string | null>) => [...new Set(ids.filter((x): x is string => x !== null && !shown.has(x)))];
    const [leftPeople, leftPlaceholders] = [unshown(assignments.map((a) => a.user_id)), unshown(assignments.map((a) => a.placeholder_id))];
    const [former, archived] = await Promise.all([
      leftPeople.length ? plannablePeople(trx, p.companyId, leftPeople) : [],
      leftPlaceholders.length ? placeholdersOf(trx, p.companyId, false, leftPlaceholders) : [],
    ]);
    const people = [...active.map((m) => ({ ...m, is_active: true })), ...former.map((m) => ({ ...m, is_active: false }))];
    const placeholders = [...activePlaceholders, ...archived];
    const sources = await capacitySources(trx, p.companyId, people, spanOf(range, assignments));
    const emptyWeeks = () => weeks.map(() => ({ planned: new Decimal(0), capacity: new Decimal(0) }));
    const rows = new Map<string, ReturnType<typeof emptyWeeks>>();
    const workingDayFor = new Map<string, (date: string) => boolean>();
    for (const m of people) {
      const cells = emptyWeeks();
      const source = sources.get(m.user_id)!;
      // Someone who left works no more hours here: every plan of theirs is over capacity.
      for (const d of (m.is_active && capacityByDay(source, range.from, range.to)) || []) {
        const cell = cells[weekIndex(range.from, d.date)]!;
        cell.capacity = cell.capacity.plus(d.hours);
      }
      rows.set(m.user_id, cells);
      workingDayFor.set(m.user_id, workingDays(source));
    }
    for (const ph of placeholders) {
      rows.set(ph.id, weeks.map(() => ({ planned: new Decimal(0), capacity: new Decimal(ph.weekly_hours) })));
    }
    for (const a of assignments) {
      const cells = rows.get(a.user_id ?? a.placeholder_id!);
      if (!cells) continue; // no member or placeholder of that id any more
      for (const [date, hours] of plannedByDay(a, a.user_id ? (workingDayFor.get(a.user_id) ?? isWeekday) : isWeekday, range)) {
        const cell = cells[weekIndex(range.from, date)]!;
        cell.planned = cell.planned.plus(hours);
      }
    }
    const cellsOf = (key: string) => rows.get(key)!.map((c) => ({ planned_hours: hoursNumber(c.planned), capacity_hours: hoursNumber(c.capacity) }));
    return {
      weeks,
      people: people.map((m) => ({ user_id: m.user_id, name: `${m.first_name} ${m.last_name}`.trim(), is_active: m.is_active, cells: cellsOf(m.user_id) })),
      placeholders: placeholders.map((ph) => ({ ...presentPlaceholder(ph), cells: cellsOf(ph.id) })),
      assignments: assignments
        .filter((a) => rows.has(a.user_id ?? a.placeholder_id!))
        .map((a) => ({ ...presentAssignment(a), may_change: managed === null || managed.includes(a.project_id) })),
      plannable_project_ids: managed,
    };
  });
}


/** A person's planned hours per project in the period (the home page's "your plan"). */
export async function planOf(trx: Tx, companyId: string, userId: string, range: { from: string; to: string }) {
  const assignments = await assignmentsIn(trx, companyId, range, { userId });
  if (assignments.length === 0) return [];
  const isWorking = workingDays(await capacitySource(trx, companyId, userId, spanOf(range, assignments)));
  const byProject = new Map<string, { project: { id: string; name: string; client_name: string }; hours: Decimal }>();
  for (const a of assignments) {
    const hours = plannedHours(a, isWorking, range);
    const entry = byProject.get(a.project_id) ?? { project: { id: a.project_id, name: a.project_name, client_name: a.client_name }, hours: new Decimal(0) };
    entry.hours = entry.hours.plus(hours);
    byProject.set(a.project_id, entry);
  }
  return [...byProject.values()].map((e) => ({ project: e.project, planned_hours: hoursNumber(e.hours) }));
}

/** Planned hours per project in the period, of the given projects (planned against tracked, in reports). */
export async function plannedPerProject(trx: Tx, companyId: string, range: { from: string; to: string }, projectIds?: readonly string[]) {
  const assignments = await assignmentsIn(trx, companyId, range, { projectIds });
  const people = [...new Set(assignments.flatMap((a) => (a.user_id ? [a.user_id] : [])))];
  const members = people.length
    ? await trx.selectFrom('memberships').select(['user_id', 'expected_weekly_hours']).where('company_id', '=', companyId).where('user_id', 'in', people).execute()
    : [];
  const sources = await capacitySources(trx, companyId, members, spanOf(range, assignments));
  const planned = new Map<string, Decimal>();
  for (const a of assignments) {
    const isWorking = a.user_id && sources.has(a.user_id) ? workingDays(sources.get(a.user_id)!) : isWeekday;
    const hours = plannedHours(a, isWorking, range);
    planned.set(a.project_id, (planned.get(a.project_id) ?? new Decimal(0)).plus(hours));
  }
  return planned;
}
