import type { Kysely } from 'kysely';
import { Decimal } from 'decimal.js';
import type { Principal } from '../../../auth/principal.ts';
import { managesProject, mayBeAssignedToProjects, seesAllProjects, maySeeRates, type OwnAssignment } from '../../../access/catalog.ts';
import { isManager } from '../../../access/policy.ts';
import { isTeammateOf } from '../../../access/teammates.ts';
import { mayRecordOnProject, mayWriteOthersTime, mayWriteTimeFor } from '../../../access/time.ts';
import type { BudgetBy, DB, WeekStart } from '../../../db/types.ts';
import { createFlags, idOrNull, runCreateStatement } from './create-statement.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { ApiError, badRequest, forbidden, notFound } from '../../../errors.ts';
import type { PageParams } from '../../../http/pagination.ts';
import { isId, newId } from '../../../ids.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { assertNotLocked, assertWeeksOpen, enteredPersonTime, lockPersonTimers, weekLockedError, sheetPerson, withTimeSettings, type TimeSettings, checkSpentDate, checkWeekDate, hoursToSeconds, isRuleError, sameJson, wallClockOf, weekEndOf, weekStartOf, type RuleError } from '../week/index.ts';
import { entryHours, presentEntry, type EntryView, type PresentContext } from './presenter.ts';
import {
  billableRateSql,
  callerAssignment,
  deleteEntryRow,
  findEntry,
  insertEntry,
  listEntries as listEntryRows,
  loadWriteContext,
  runningEntries,
  updateEntryColumns,
  type EntryChanges,
  type EntryRow,
  type EntryFilter,
  type WriteContext,
} from './queries.ts';
import {
  DEFAULT_SOURCE,
  MAX_ENTRY_SECONDS,
  agreeWithinAMinute,
  checkExternalReference,
  checkMetadata,
  checkNotes,
  completedDuration,
  currentSeconds,
  parseHours,
  timerStart,
  timesAfterStop,
} from './rules.ts';
import type { CreateInput, RestartInput, StopInput, UpdateInput } from './schemas.ts';
import { choicesFor, privateNotesOf, projectNames, recentPairs, writePrivateNotes } from './web-queries.ts';

/**
 * Time entries: completed entries and live timers. Every operation runs in one
 * tenant transaction. One running timer per person is the partial unique index
 * `time_entries_one_running_timer`; the code checks first for a clear answer and
 * maps the index's violation (a concurrent start that won) to the same 409.
 */

// ---- inputs ----

export interface EntryResult {
  row: EntryRow;
  present: PresentContext;
}

const fail = (e: RuleError): never => {
  throw new ApiError(e.code ?? 'invalid_request', e.message, { field: e.field });
};

function checked<T>(value: T | RuleError): T {
  if (isRuleError(value)) fail(value);
  return value as T;
}

const viewOf = (p: Principal): EntryView => ({ full: p.kind !== 'personal', rates: p.kind !== 'personal' && maySeeRates(p) });

export const presentOf = (p: Principal, settings: TimeSettings, now: Date): PresentContext => ({
  view: viewOf(p),
  rounding: { rounding: settings.rounding, rounding_minutes: settings.rounding_minutes },
  now,
});

/** The first day of the week of `date` for each week_start setting. */
const weekStartsOf = (date: string): Record<WeekStart, string> => ({
  monday: weekStartOf(date, 'monday'),
  sunday: weekStartOf(date, 'sunday'),
  saturday: weekStartOf(date, 'saturday'),
});

const jsonOrNull = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

// ---- errors ----

/** The 409 of a start that meets another running timer: exactly the spec's body. */
export function runningTimerConflict(running: readonly { id: string }[]): ApiError {
  return new ApiError(
    'running_timer_conflict',
    'Another timer is already running for this person. Stop it first, or send replace_running: true to stop it and start this one.',
    { running_entry: { id: running[0].id }, running_entry_count: running.length },
  );
}

const projectNotUsable = () =>
  badRequest('project_id must be a project of this workspace that you can see.', { field: 'project_id', refusal: 'project_unavailable' });

function isRunningTimerViolation(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  return e?.code === '23505' && (e.constraint === 'time_entries_one_running_timer' || /time_entries_one_running_timer/.test(e.message ?? ''));
}

/** Attempts of a timer start that keeps meeting concurrent starts of the same person. */
const TIMER_START_ATTEMPTS = 5;

/**
 * Runs a write that may start a timer. When the unique index refuses it (another
 * start won a race), a plain start reports the conflict with the timer that now
 * runs; a start with `replace_running` is tried again, so it stops that timer in
 * turn (the spec: with replace_running the other timer is stopped first, never a
 * 409). If the winner stopped meanwhile, the write is tried again too.
 */
async function startingTimer<T>(
  db: Kysely<DB>,
  companyId: string,
  person: () => string | undefined,
  { replace, exceptId }: { replace: boolean; exceptId?: string },
  write: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      const personId = person();
      if (!isRunningTimerViolation(err) || personId === undefined) throw err;
      if (!replace) {
        const running = await withTenant(db, companyId, (trx) => runningEntries(trx, companyId, personId, { exceptId }));
        if (running.length > 0) throw runningTimerConflict(running);
      }
      if (attempt >= TIMER_START_ATTEMPTS) throw new ApiError('conflict', 'Timers of this person changed concurrently; try again.');
    }
  }
}

// ---- permission helpers ----

const ownAssignmentOf = (a: { is_active: boolean | null; is_project_manager: boolean | null } | null): OwnAssignment | null =>
  a && a.is_active !== null ? { is_active: a.is_active, is_project_manager: a.is_project_manager === true } : null;

/** 403 unless the caller may write time of this person on this project (see access/time.ts). */
async function assertMayWriteFor(trx: Tx, p: Principal, personId: string, projectId: string, assignment?: OwnAssignment | null) {
  const own = personId === p.userId;
  if (mayWriteTimeFor(p, { own, teammate: false, managesProject: false })) return;
  const a = assignment !== undefined ? assignment : await callerAssignment(trx, p.companyId, projectId, p.userId);
  const teammate = isManager(p) && (await isTeammateOf(trx, p.companyId, p.userId, personId));
  if (!mayWriteTimeFor(p, { own, teammate, managesProject: managesProject(p, a) })) {
    throw forbidden('You may change time only for yourself, your teammates, and on projects you manage.');
  }
}

/**
 * Checks a project and task for a write of `personId`'s time, in this order: the
 * project exists and the caller sees it (or the person is the caller's
 * teammate), else 400 on project_id (one answer for unknown, malformed, foreign
 * and invisible ids); the caller may write for the person there (403); the
 * project is active, the person may record on it (mayRecordOnProject: owners and
 * administrators anywhere, others where actively assigned), and the task actively
 * assigned to it and not archived (400 naming the field).
 */
function checkWorkTarget(p: Principal, personId: string, ctx: WriteContext): WorkTarget {
  if (ctx.project_id === null) throw projectNotUsable();
  const own = personId === p.userId;
  const mine = ownAssignmentOf({ is_active: ctx.caller_assignment_active, is_project_manager: ctx.caller_is_project_manager });
  const teammate = !own && isManager(p) && ctx.person_is_teammate;
  const callerSees = seesAllProjects(p) || ctx.caller_assignment_active === true;
  if (!callerSees && !teammate) throw projectNotUsable();
  if (!mayWriteTimeFor(p, { own, teammate, managesProject: managesProject(p, mine) })) {
    throw forbidden('You may record time only for yourself, your teammates, and people on projects you manage.');
  }
  if (!ctx.project_active) throw badRequest('The project is archived; time cannot be recorded on it.', { field: 'project_id', refusal: 'project_archived' });
  if (ctx.person_role === null || !mayRecordOnProject({ role: ctx.person_role }, { is_active: ctx.person_assignment_active })) {
    throw own
      ? badRequest('You are not assigned to this project.', { field: 'project_id', refusal: 'not_assigned' })
      : badRequest('The person is not assigned to this project.', { field: 'user_id', refusal: 'not_assigned' });
  }
  if (ctx.task_assignment_active !== true || ctx.task_active !== true) {
    throw badRequest('task_id must be an active task assigned to the project.', { field: 'task_id' });
  }
  return {
    projectId: ctx.project_id,
    taskName: ctx.task_name!,
    budgetBy: ctx.project_budget_by!,
    defaultBillable: ctx.task_assignment_billable === true && ctx.project_billable === true,
  };
}

interface WorkTarget {
  projectId: string;
  taskName: string;
  budgetBy: BudgetBy;
  /** The task assignment's billable, and the project's is_billable. */
  defaultBillable: boolean;
}

/**
 * The person a create is for: the caller, or (administrators and managers) another
 * active internal member; 403 for anyone else naming another person.
 */
function resolvePerson(p: Principal, userId: string | undefined, ctx: WriteContext): string {
  if (userId === undefined || userId === p.userId) return p.userId;
  if (!mayWriteOthersTime(p)) throw forbidden('You may record time only for yourself.');
  if (ctx.person_role === null || !ctx.person_active || !mayBeAssignedToProjects({ role: ctx.person_role })) {
    throw badRequest('user_id must be an active member of this workspace.', { field: 'user_id' });
  }
  return userId.toLowerCase();
}

/**
 * Stops a running timer now: its seconds accumulate (at most 24 hours) and ended_time is now's
 * wall clock. Times are one date's wall clock (an end after the start, on the entry's date), so
 * a run that ends past that date's midnight (into the next day, or capped at 24 hours) keeps its
 * hours without times, as an imported entry past midnight does: kept, 23:00–13:44 or 09:15–09:15
 * would be an entry the rules refuse on its next edit, and the calendars could not draw it.
 */
async function stopTimer(
  trx: Tx,
  companyId: string,
  entry: { id: string; duration_seconds: number; timer_started_at: Date | null; spent_date: string; started_time: string | null },
  settings: TimeSettings,
  now: Date,
  extra: EntryChanges = {},
) {
  const seconds = currentSeconds(entry, now);
  // A run capped at 24 hours ends where the 24 hours did, not at the stop's clock.
  const endedAt =
    seconds >= MAX_ENTRY_SECONDS && entry.timer_started_at
      ? new Date(Math.min(now.getTime(), entry.timer_started_at.getTime() + Math.max(0, MAX_ENTRY_SECONDS - entry.duration_seconds) * 1000))
      : now;
  await updateEntryColumns(
    trx,
    companyId,
    entry.id,
    {
      duration_seconds: seconds,
      hours_entered: null,
      is_running: false,
      timer_started_at: null,
      ...timesAfterStop(entry, wallClockOf(endedAt, settings.timezone), seconds, settings.timezone),
      ...extra,
    },
    now,
  );
}

/** Stops the person's other running timer (replace_running) or answers 409 with it. */
async function makeRoomForTimer(
  trx: Tx,
  p: Principal,
  personId: string,
  { replace, exceptId, settings, now }: { replace: boolean; exceptId?: string; settings: TimeSettings; now: Date },
) {
  if (replace) await lockPersonTimers(trx, p.companyId, personId);
  const running = await runningEntries(trx, p.companyId, personId, { lock: true, exceptId });
  if (running.length === 0) return;
  if (!replace) throw runningTimerConflict(running);
  for (const entry of running) {
    await assertMayWriteFor(trx, p, personId, entry.project_id);
    await stopTimer(trx, p.companyId, entry, settings, now);
  }
}

async function reload(trx: Tx, companyId: string, id: string): Promise<EntryRow> {
  const row = await findEntry(trx, companyId, id);
  if (!row) throw notFound('time entry');
  return row;
}

async function visibleEntryOrThrow(trx: Tx, p: Principal, id: string, lock = true): Promise<EntryRow> {
  const row = await findEntry(trx, p.companyId, id, { visibleTo: p, lock });
  if (!row) throw notFound('time entry');
  return row;
}

/**
 * The id of an entry the caller may see and change (the rule of every write here:
 * visible, then assertMayWriteFor), or 404/403 as those writes answer. For what hangs
 * off an entry without being the entry, such as the web app's private notes.
 */
export async function editableEntryId(trx: Tx, p: Principal, id: string): Promise<string> {
  const entry = await visibleEntryOrThrow(trx, p, id);
  await assertMayWriteFor(trx, p, entry.user_id, entry.project_id);
  return entry.id;
}

// ---- pure input checks ----

function checkCommon(input: { notes?: string | null; metadata?: unknown; external_reference?: unknown }) {
  const out: { notes?: string | null; metadata?: string | null; external_reference?: string } = {};
  if (input.notes !== undefined) out.notes = checked(checkNotes(input.notes));
  if (input.metadata !== undefined) {
    if (input.metadata !== null) {
      const error = checkMetadata(input.metadata);
      if (error) fail(error);
    }
    out.metadata = jsonOrNull(input.metadata);
  }
  if (input.external_reference !== undefined) {
    const ref = checked(checkExternalReference(input.external_reference));
    out.external_reference = JSON.stringify(ref);
  }
  return out;
}

// ---- reads ----

export function getEntry(db: Kysely<DB>, p: Principal, id: string, now: Date): Promise<EntryResult> {
  return withTimeSettings(db, p.companyId, async (trx, settings) => {
    const row = await visibleEntryOrThrow(trx, p, id, false);
    return { row, present: presentOf(p, settings, now) };
  });
}

export interface EntryPage {
  rows: EntryRow[];
  total: number;
  present: PresentContext;
}

/** One page of the entries the caller may see (see access/time.ts), filtered. */
export function listEntries(db: Kysely<DB>, p: Principal, filter: EntryFilter, page: PageParams, now: Date): Promise<EntryPage> {
  return withTimeSettings(db, p.companyId, async (trx, settings) => {
    const { rows, total } = await listEntryRows(trx, p.companyId, p, filter, page);
    return { rows, total, present: presentOf(p, settings, now) };
  });
}

// ---- create ----

/**
 * Creates a completed entry (`hours`, or `started_time` + `ended_time`) or a
 * running timer (`is_running: true`). See docs/decisions.md, "Time entries".
 */
export async function createEntry(db: Kysely<DB>, p: Principal, input: CreateInput, now: Date): Promise<EntryResult> {
  const running = input.is_running === true;
  if (input.replace_running === true && !running) {
    throw badRequest('replace_running goes with is_running: true.', { field: 'replace_running' });
  }
  const hours = input.hours === undefined ? undefined : checked(parseHours(input.hours));
  if (running && hours !== undefined) throw badRequest('Omit hours for a running timer; the server measures it.', { field: 'hours' });
  if (running && input.ended_time != null) throw badRequest('A running timer has no ended_time.', { field: 'ended_time' });
  if (!running && input.spent_date === undefined) throw badRequest("Missing required field 'spent_date'.", { field: 'spent_date' });
  if (input.spent_date !== undefined) checked(checkSpentDate(input.spent_date));
  const common = checkCommon(input);
  const id = newId(now.getTime());
  return running ? startTimer(db, p, input, common, id, now) : createCompleted(db, p, input, hours, common, id, now);
}

type CommonValues = ReturnType<typeof checkCommon>;

/** Workspace time zones as last read, so a create with times computes its duration before its statement (which checks it). */
const zones = new Map<string, string>();
const MAX_ZONES = 10_000;

/**
 * A completed entry: its checks and its INSERT are one statement (create-statement.ts),
 * after which the errors are raised from the statement's context exactly as a
 * transaction with a context query raised them, in the same order. The duration of
 * an entry with times depends on the workspace's zone: it is computed in the zone
 * the process last read, which the statement checks; when the zone is unknown or
 * changed, nothing is inserted and the create runs again in the zone it read.
 */
async function createCompleted(
  db: Kysely<DB>,
  p: Principal,
  input: CreateInput,
  hours: Decimal | undefined,
  common: CommonValues,
  id: string,
  now: Date,
): Promise<EntryResult> {
  const spentDate = input.spent_date!;
  const timed = input.started_time != null && input.ended_time != null;
  const durationIn = (zone: string) => completedDuration({ hours, started: input.started_time, ended: input.ended_time }, spentDate, zone);
  // Whose time it is, as resolvePerson will decide it (an id that is not one is bound as null: the context answers it).
  const personId = input.user_id === undefined || input.user_id === p.userId ? p.userId : idOrNull(input.user_id);
  const flags = createFlags(p, input.user_id, personId ?? '');
  const weeks = weekStartsOf(spentDate);
  let zone = timed ? (zones.get(p.companyId) ?? null) : null;
  for (let attempt = 1; ; attempt++) {
    const duration = timed && zone === null ? null : durationIn(zone ?? 'UTC');
    const measured = duration !== null && !isRuleError(duration) ? duration : null;
    const { entered, context, entry } = await runCreateStatement(
      db,
      personId ?? p.userId,
      {
        company_id: p.companyId,
        caller_id: p.userId,
        person_id: personId,
        project_id: idOrNull(input.project_id),
        task_id: idOrNull(input.task_id),
        monday_start: weeks.monday,
        monday_end: weekEndOf(weeks.monday),
        sunday_start: weeks.sunday,
        sunday_end: weekEndOf(weeks.sunday),
        saturday_start: weeks.saturday,
        saturday_end: weekEndOf(weeks.saturday),
        entry_id: id,
        spent_date: spentDate,
        duration_seconds: measured?.seconds ?? null,
        hours_entered: measured?.hours?.toFixed() ?? null,
        started_time: input.started_time ?? null,
        ended_time: input.ended_time ?? null,
        notes: common.notes ?? null,
        billable: input.billable ?? null,
        source: input.source ?? DEFAULT_SOURCE,
        metadata: common.metadata ?? null,
        external_reference: common.external_reference ?? null,
        now,
        zone: timed ? zone : null,
        input_ok: measured !== null,
      },
      flags,
    );
    if (zones.size >= MAX_ZONES) zones.clear();
    zones.set(p.companyId, context.timezone);
    // The checks, in the order they always ran.
    enteredPersonTime(entered);
    checkWorkTarget(p, resolvePerson(p, input.user_id, context), context);
    const zoneRead = !timed || zone === context.timezone;
    const final = zoneRead ? duration : durationIn(context.timezone);
    if (final !== null) checked(final);
    else throw badRequest('Send hours, or started_time and ended_time, for a completed entry (or is_running: true for a timer).', { field: 'hours' });
    if (context.locked_week) throw weekLockedError(context.locked_week);
    if (entry) return { row: entry, present: presentOf(p, context, now) };
    if (zoneRead || attempt >= 2) throw new Error('time entry create: the statement inserted nothing though every check passed');
    zone = context.timezone;
  }
}

/** A running timer: in a transaction, its checks and the person's running timer as before. */
async function startTimer(db: Kysely<DB>, p: Principal, input: CreateInput, common: CommonValues, id: string, now: Date): Promise<EntryResult> {
  // Whose time it is, as far as can be told before the context query (an id that is
  // not one is a 400 from that query).
  const personHint = input.user_id !== undefined && isId(input.user_id) ? input.user_id.toLowerCase() : p.userId;
  const write = () =>
    withTenant(db, p.companyId, async (trx) => {
      const settings = await loadWriteContext(trx, p.companyId, {
        projectId: input.project_id,
        taskId: input.task_id,
        personId: input.user_id ?? p.userId,
        callerId: p.userId,
      });
      const personId = resolvePerson(p, input.user_id, settings);
      const target = checkWorkTarget(p, personId, settings);
      // A timer's date depends on the workspace zone, so its week lock is read here (assertWeeksOpen).
      const start = checked(
        timerStart({
          now,
          zone: settings.timezone,
          spentDate: input.spent_date,
          startedTime: input.started_time ?? undefined,
          allowPast: settings.allow_past_timer_starts,
        }),
      );
      await assertWeeksOpen(trx, p.companyId, personId, [start.spentDate], settings.week_start);
      await makeRoomForTimer(trx, p, personId, { replace: input.replace_running === true, settings, now });
      const stored = await insertEntry(trx, p.companyId, {
        id,
        user_id: personId,
        project_id: target.projectId,
        task_id: input.task_id,
        spent_date: start.spentDate,
        duration_seconds: 0,
        hours_entered: null,
        is_running: true,
        timer_started_at: start.startedAt,
        started_time: start.startedTime,
        ended_time: null,
        notes: common.notes ?? null,
        billable: input.billable ?? target.defaultBillable,
        source: input.source ?? DEFAULT_SOURCE,
        metadata: common.metadata ?? null,
        external_reference: common.external_reference ?? null,
        created_by: p.userId,
        created_at: now,
        updated_at: now,
      });
      const row: EntryRow = { ...stored, task_name: target.taskName, project_budget_by: target.budgetBy };
      return { row, present: presentOf(p, settings, now) };
    });
  return startingTimer(db, p.companyId, () => personHint, { replace: input.replace_running === true }, write);
}

// ---- update ----

const TIMING_FIELDS = ['spent_date', 'hours', 'started_time', 'ended_time'] as const;

/**
 * Changes the writable fields of an entry. A change of project or task checks
 * the new pair as a create does and, unless `billable` is sent, takes the new
 * assignment's billable default; a change of date, project, task or billable
 * reprices billable_rate at the rate in force on the (new) date. `hours` alone
 * replaces the duration and clears the times; times recompute it, and so does
 * a new date where the same times span another duration (a day the clocks
 * change; typed hours that no longer agree with them give way). A running
 * timer's date and duration change only by stopping it. A change that changes
 * nothing writes nothing.
 */
export async function updateEntry(db: Kysely<DB>, p: Principal, id: string, input: UpdateInput, now: Date): Promise<EntryResult> {
  const hours = input.hours === undefined ? undefined : checked(parseHours(input.hours));
  const common = checkCommon(input);
  return withTimeSettings(db, p.companyId, async (trx, settings) => {
    const entry = await visibleEntryOrThrow(trx, p, id);
    await assertMayWriteFor(trx, p, entry.user_id, entry.project_id);
    assertNotLocked(entry, 'time_entry', settings.week_start);
    if (entry.is_running) {
      const field = TIMING_FIELDS.find((f) => input[f] !== undefined);
      if (field) throw badRequest(`Stop the running timer before changing ${field}.`, { field });
    }
    const changes: EntryChanges = {};
    const projectId = (input.project_id ?? entry.project_id).toLowerCase();
    const taskId = (input.task_id ?? entry.task_id).toLowerCase();
    const movedWork = projectId !== entry.project_id || taskId !== entry.task_id;
    let billable = input.billable ?? entry.billable;
    if (movedWork) {
      const ctx = await loadWriteContext(trx, p.companyId, { projectId, taskId, personId: entry.user_id, callerId: p.userId });
      const target = checkWorkTarget(p, entry.user_id, ctx);
      if (target.projectId !== entry.project_id) changes.project_id = target.projectId;
      if (taskId !== entry.task_id) changes.task_id = taskId;
      if (input.billable === undefined) billable = target.defaultBillable;
    }
    const date = input.spent_date === undefined ? entry.spent_date : checked(checkSpentDate(input.spent_date));
    if (date !== entry.spent_date) changes.spent_date = date;

    if (hours !== undefined || input.started_time !== undefined || input.ended_time !== undefined) {
      const timesSent = input.started_time !== undefined || input.ended_time !== undefined;
      const started = input.started_time !== undefined ? input.started_time : timesSent ? entry.started_time : null;
      const ended = input.ended_time !== undefined ? input.ended_time : timesSent ? entry.ended_time : null;
      const duration = checked(completedDuration({ hours, started, ended }, date, settings.timezone));
      if (duration !== null) {
        if (duration.seconds !== entry.duration_seconds) changes.duration_seconds = duration.seconds;
        const entered = duration.hours?.toFixed() ?? null;
        if (!sameDecimal(entered, entry.hours_entered)) changes.hours_entered = entered;
      }
      if (started !== entry.started_time) changes.started_time = started;
      if (ended !== entry.ended_time) changes.ended_time = ended;
    } else if (changes.spent_date !== undefined && entry.started_time !== null && entry.ended_time !== null) {
      // The same times measure another span on a day the clocks change: the hours follow them.
      const duration = checked(completedDuration({ started: entry.started_time, ended: entry.ended_time }, date, settings.timezone))!;
      if (!hoursAgreeWith(entry, duration.seconds)) {
        changes.duration_seconds = duration.seconds;
        changes.hours_entered = null;
      }
    }
    if (billable !== entry.billable) changes.billable = billable;
    if (movedWork || changes.spent_date !== undefined || changes.billable !== undefined) {
      changes.billable_rate = billableRateSql(p.companyId, { billable, projectId, taskId, userId: entry.user_id, date });
    }
    if (common.notes !== undefined && common.notes !== entry.notes) changes.notes = common.notes;
    if (common.metadata !== undefined && !sameJson(JSON.parse(common.metadata ?? 'null'), entry.metadata)) changes.metadata = common.metadata;
    if (common.external_reference !== undefined && !sameJson(JSON.parse(common.external_reference), entry.external_reference)) {
      changes.external_reference = common.external_reference;
    }
    const present = presentOf(p, settings, now);
    if (Object.keys(changes).length === 0) return { row: entry, present };
    await assertWeeksOpen(trx, p.companyId, entry.user_id, [entry.spent_date, date], settings.week_start);
    await updateEntryColumns(trx, p.companyId, entry.id, changes, now);
    return { row: await reload(trx, p.companyId, entry.id), present };
  });
}

const sameDecimal = (a: string | null, b: string | null) => (a === null || b === null ? a === b : new Decimal(a).eq(b));

/** An entry's hours still measure `seconds`: its hours as typed within a minute of them (completedDuration's agreement), else its duration exactly. */
function hoursAgreeWith(entry: Pick<EntryRow, 'hours_entered' | 'duration_seconds'>, seconds: number): boolean {
  return entry.hours_entered === null ? entry.duration_seconds === seconds : agreeWithinAMinute(hoursToSeconds(new Decimal(entry.hours_entered)), seconds);
}

// ---- timer transitions ----

/** Stops a running timer: the server measures the run; `notes` (if sent) replaces the notes. 409 if it is not running. */
export async function stopEntry(db: Kysely<DB>, p: Principal, id: string, input: StopInput, now: Date): Promise<EntryResult> {
  const common = checkCommon({ notes: input.notes });
  return withTimeSettings(db, p.companyId, async (trx, settings) => {
    const entry = await visibleEntryOrThrow(trx, p, id);
    await assertMayWriteFor(trx, p, entry.user_id, entry.project_id);
    if (!entry.is_running) throw new ApiError('timer_not_running', 'This time entry is not running.');
    await stopTimer(trx, p.companyId, entry, settings, now, common.notes !== undefined ? { notes: common.notes } : {});
    return { row: await reload(trx, p.companyId, entry.id), present: presentOf(p, settings, now) };
  });
}

/**
 * Restarts a stopped entry: it runs again from now and keeps its time so far. The
 * person's other running timer gives 409 with it unless `replace_running`. A
 * locked entry, one in an approved week, one dated in the future, one dated in
 * the past without allow_past_timer_starts, and one already holding 24 hours are
 * refused.
 */
export async function restartEntry(
  db: Kysely<DB>,
  p: Principal,
  id: string,
  input: RestartInput,
  now: Date,
): Promise<EntryResult> {
  let personId: string | undefined;
  const write = () =>
    withTimeSettings(db, p.companyId, async (trx, settings) => {
      const entry = await visibleEntryOrThrow(trx, p, id);
      personId = entry.user_id;
      await assertMayWriteFor(trx, p, entry.user_id, entry.project_id);
      if (entry.is_running) throw new ApiError('timer_already_running', 'This time entry is already running.');
      assertNotLocked(entry, 'time_entry', settings.week_start, 'restarted');
      const today = todayIn(settings.timezone, now);
      if (entry.spent_date > today) throw badRequest('A timer cannot run on a future date.', { field: 'spent_date' });
      if (entry.spent_date < today && !settings.allow_past_timer_starts) {
        throw badRequest(
          'This workspace does not allow timers on past dates (allow_past_timer_starts is off); edit the hours instead.',
          { field: 'spent_date' },
        );
      }
      const { seconds } = entryHours(entry, now);
      if (seconds >= MAX_ENTRY_SECONDS) {
        throw new ApiError('conflict', 'This time entry already holds 24 hours and cannot run longer.');
      }
      await assertWeeksOpen(trx, p.companyId, entry.user_id, [entry.spent_date], settings.week_start);
      await makeRoomForTimer(trx, p, entry.user_id, { replace: input.replace_running === true, exceptId: entry.id, settings, now });
      await updateEntryColumns(
        trx,
        p.companyId,
        entry.id,
        {
          duration_seconds: seconds,
          hours_entered: null,
          is_running: true,
          timer_started_at: now,
          ended_time: null,
          started_time: entry.started_time ?? (entry.spent_date === today ? wallClockOf(now, settings.timezone).time : null),
        },
        now,
      );
      return { row: await reload(trx, p.companyId, entry.id), present: presentOf(p, settings, now) };
    });
  return startingTimer(db, p.companyId, () => personId, { replace: input.replace_running === true, exceptId: id }, write);
}

// ---- delete ----

/** Deletes an entry (a running one too); approved or billed entries and entries in approved weeks are refused (409). */
export async function deleteEntry(db: Kysely<DB>, p: Principal, id: string): Promise<void> {
  await withTimeSettings(db, p.companyId, async (trx, settings) => {
    const entry = await visibleEntryOrThrow(trx, p, id);
    await assertMayWriteFor(trx, p, entry.user_id, entry.project_id);
    assertNotLocked(entry, 'time_entry', settings.week_start, 'deleted');
    await assertWeeksOpen(trx, p.companyId, entry.user_id, [entry.spent_date], settings.week_start);
    await deleteEntryRow(trx, p.companyId, entry.id);
  });
}

/** Removes the stored external reference (204 also when there is none); locked entries are refused. */
export async function removeExternalReference(db: Kysely<DB>, p: Principal, id: string, now: Date): Promise<void> {
  await withTimeSettings(db, p.companyId, async (trx, settings) => {
    const entry = await visibleEntryOrThrow(trx, p, id);
    await assertMayWriteFor(trx, p, entry.user_id, entry.project_id);
    assertNotLocked(entry, 'time_entry', settings.week_start);
    if (entry.external_reference === null) return;
    await assertWeeksOpen(trx, p.companyId, entry.user_id, [entry.spent_date], settings.week_start);
    await updateEntryColumns(trx, p.companyId, entry.id, { external_reference: null }, now);
  });
}

// ---- the web app's time screens ----

/** The most entries one person has in a week that the sheet shows (the API's page maximum). */
const SHEET_MAX = 2000;
/** How many recently used project-task pairs the timer's answer carries (the type-aheads offer them first). */
export const RECENT_PAIRS = 10;

/**
 * Entries as the web app shows them: the API's presentation plus project and client
 * names and, only for the caller's own entries (which the caller may always edit),
 * the private notes.
 */
async function decorate(trx: Tx, p: Principal, rows: EntryRow[], present: PresentContext) {
  const names = await projectNames(trx, p.companyId, [...new Set(rows.map((r) => r.project_id))]);
  const own = rows.filter((r) => r.user_id === p.userId).map((r) => r.id);
  const notes = await privateNotesOf(trx, p.companyId, own);
  return rows.map((row) => {
    const where = names.get(row.project_id)!;
    const presented = presentEntry(row, present);
    // The stored seconds of a running entry are its earlier runs (the presenter adds the current one).
    const earlier = row.timer_started_at ? row.duration_seconds : presented.duration_seconds;
    // Object.assign, not a literal opening with a spread: Node.js 20 is slow at those, once per row (decisions: "Node.js 20's spreads").
    return Object.assign(presented, { project: where.project, client: where.client, private_notes: notes.get(row.id) ?? null, earlier_seconds: earlier });
  });
}

/** A week of a person's entries (the caller's, or one they may see: sheetPerson), with the workspace's week settings. */
export function timesheet(db: Kysely<DB>, p: Principal, query: { date?: string; user_id?: string }, now: Date) {
  const { date, user_id } = query;
  checkWeekDate(date);
  return withTimeSettings(db, p.companyId, async (trx, settings) => {
    const user = await sheetPerson(trx, p, user_id);
    const today = todayIn(settings.timezone, now);
    const from = weekStartOf(date ?? today, settings.week_start);
    const to = weekEndOf(from);
    const { rows } = await listEntryRows(trx, p.companyId, p, { userId: user.id, from, to }, { page: 1, perPage: SHEET_MAX });
    const entries = await decorate(trx, p, rows, presentOf(p, settings, now));
    return { from, to, today, settings, user, entries };
  });
}

/** The caller's running timer (decorated as the week's entries) and their recent project-task pairs. */
export function runningTimer(db: Kysely<DB>, p: Principal, now: Date) {
  return withTimeSettings(db, p.companyId, async (trx, settings) => {
    const { rows } = await listEntryRows(trx, p.companyId, p, { userId: p.userId, isRunning: true }, { page: 1, perPage: 1 });
    const [running] = await decorate(trx, p, rows, presentOf(p, settings, now));
    return { running: running ?? null, recent: await recentPairs(trx, p, RECENT_PAIRS) };
  });
}

/** The projects and tasks the caller may record time on. */
export async function timeChoices(db: Kysely<DB>, p: Principal) {
  return { choices: await withTenant(db, p.companyId, (trx) => choicesFor(trx, p)) };
}

/** An entry's private notes, for those who may edit it. */
export function getPrivateNotes(db: Kysely<DB>, p: Principal, id: string) {
  return withTenant(db, p.companyId, async (trx) => {
    const entryId = await editableEntryId(trx, p, id);
    const notes = await privateNotesOf(trx, p.companyId, [entryId]);
    return { id: entryId, private_notes: notes.get(entryId) ?? null };
  });
}

/** Replaces an entry's private notes (the notes' rule; blank clears them), for those who may edit it. */
export function putPrivateNotes(db: Kysely<DB>, p: Principal, id: string, privateNotes: string | null) {
  const checked = checkNotes(privateNotes);
  if (isRuleError(checked)) throw new ApiError('invalid_request', checked.message.replace(/^notes/, 'private_notes'), { field: 'private_notes' });
  return withTenant(db, p.companyId, async (trx) => {
    const entryId = await editableEntryId(trx, p, id);
    await writePrivateNotes(trx, p.companyId, entryId, checked);
    return { id: entryId, private_notes: checked };
  });
}
