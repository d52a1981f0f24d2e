import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { managesProject, mayBeAssignedToProjects, seesAllProjects } from '../../../access/catalog.ts';
import { isAdminRole, isManager } from '../../../access/policy.ts';
import { mayWriteOthersTime, mayWriteTimeFor } from '../../../access/time.ts';
import { singleRoundTripOf } from '../../../db/database.ts';
import { tenantSettings, withTenant } from '../../../db/tenant.ts';
import type { DB, Role, WeekStart } from '../../../db/types.ts';
import { isId } from '../../../ids.ts';
import { ENTERED_PERSON_TIME, enterPersonTimeNoted, holdsApproved } from '../week/index.ts';
import { STORED_COLUMNS, billableRateSql, writeContextQuery, type EntryRow, type WriteContext } from './queries.ts';

/**
 * A completed entry's create as ONE statement after the tenant settings: the context
 * the checks need (loadWriteContext's, plus the week lock of the work date) and an
 * INSERT guarded by every check, in a CTE. On PostgreSQL the settings (with the
 * person's shared time lock) and this statement travel in one message and run as one
 * implicit transaction (singleRoundTripOf, src/db/database.ts): a create is the
 * authentication query and this one round trip, no BEGIN or COMMIT of its own.
 *
 * The statement only decides WHETHER to insert; the service still raises every
 * error from the returned context with the same functions and in the same order as
 * before (resolvePerson, checkWorkTarget, the duration, the week lock), so answers
 * and their precedence do not change. The guard below is those checks written as
 * SQL over the same context columns; what depends on the caller alone is decided
 * in JavaScript by the access rules themselves and bound as booleans (CreateFlags).
 * Should the guard and the checks ever disagree, the service answers 500 rather
 * than an entry the checks refuse (test/time-entry-create.test.ts runs every check
 * through the statement, for every role).
 *
 * The SQL is built and compiled by Kysely once per process with placeholder values
 * (SLOT) that are mapped to names; a request only binds values.
 */

/** Every value the statement binds, by name. Ids are valid uuids or null (the context's null answers them). */
export interface CreateValues {
  company_id: string;
  caller_id: string;
  /** The entry's person (the context's too): the caller, or user_id when it is an id. */
  person_id: string | null;
  project_id: string | null;
  task_id: string | null;
  monday_start: string;
  monday_end: string;
  sunday_start: string;
  sunday_end: string;
  saturday_start: string;
  saturday_end: string;
  entry_id: string;
  spent_date: string;
  duration_seconds: number | null;
  hours_entered: string | null;
  started_time: string | null;
  ended_time: string | null;
  notes: string | null;
  billable: boolean | null;
  source: string;
  metadata: string | null;
  external_reference: string | null;
  now: Date;
  /** The zone the duration was computed in, when it depends on one (times sent); the insert needs the workspace's to be it. */
  zone: string | null;
  /** The input checks that need no context passed (the duration, in `zone`). */
  input_ok: boolean;
}

/** What the checks decide from the caller alone (see createFlags). */
export interface CreateFlags {
  /** user_id absent or exactly the caller's id (resolvePerson's "own"). */
  own_given: boolean;
  /** mayWriteOthersTime: the caller may name another person at all. */
  others_allowed: boolean;
  /** seesAllProjects. */
  sees_all: boolean;
  /** Not the caller's own time, and the caller a manager: a teammate's time counts (checkWorkTarget). */
  teammate_possible: boolean;
  /** managesProject with an active project-manager assignment: the caller is a manager. */
  manages_possible: boolean;
  /** mayWriteTimeFor the person with neither teammate nor managed project; with a teammate; with a managed project. */
  write_always: boolean;
  write_teammate: boolean;
  write_managing: boolean;
}

type Name = keyof CreateValues | keyof CreateFlags;

/** The caller's part of the checks, from the access rules themselves. */
export function createFlags(p: Principal, userId: string | undefined, personId: string): CreateFlags {
  const own = personId === p.userId;
  return {
    own_given: userId === undefined || userId === p.userId,
    others_allowed: mayWriteOthersTime(p),
    sees_all: seesAllProjects(p),
    teammate_possible: !own && isManager(p),
    manages_possible: managesProject(p, { is_active: true, is_project_manager: true }),
    write_always: mayWriteTimeFor(p, { own, teammate: false, managesProject: false }),
    write_teammate: mayWriteTimeFor(p, { own, teammate: true, managesProject: false }),
    write_managing: mayWriteTimeFor(p, { own, teammate: false, managesProject: true }),
  };
}

const ROLES: readonly Role[] = ['owner', 'administrator', 'manager', 'member', 'client'];

/** SQL: the role (a column) is one of those `rule` admits; the list is the JavaScript rule's, read once. */
const roleIn = (column: RawBuilder<unknown>, rule: (role: Role) => boolean) => {
  const roles = ROLES.filter(rule);
  return roles.length ? sql<boolean>`(${column} in (${sql.join(roles.map((r) => sql.lit(r)))}))` : sql<boolean>`false`;
};

/** Placeholder values, one per name, recognised in the compiled parameters. */
const SLOT_MARK = '\u0000slot:';
const slot = (name: Name) => `${SLOT_MARK}${name}`;
const uuid = (name: Name) => sql<string>`${slot(name)}::uuid`;
const typed = <T>(name: Name, type: string) => sql<T>`${slot(name)}::${sql.raw(type)}`;

/** The context's columns the service reads back (the project's id renamed: the entry has one too). */
const CONTEXT_COLUMNS = [
  'timezone',
  'week_start',
  'rounding',
  'rounding_minutes',
  'allow_past_timer_starts',
  'person_role',
  'person_active',
  'person_is_teammate',
  'project_active',
  'project_billable',
  'project_budget_by',
  'person_assignment_active',
  'caller_assignment_active',
  'caller_is_project_manager',
  'task_assignment_active',
  'task_assignment_billable',
  'task_active',
  'task_name',
] as const;

/** The entry's stored columns, as insertEntry returns them. */
const ENTRY_COLUMNS = STORED_COLUMNS;

function buildStatement(db: Kysely<DB>) {
  const f = (name: keyof CreateFlags) => typed<boolean>(name, 'boolean');
  const context = writeContextQuery(db, slot('company_id'), {
    projectId: uuid('project_id'),
    taskId: uuid('task_id'),
    personId: uuid('person_id'),
    callerId: slot('caller_id'),
  });
  // The week of the work date under each week_start setting; the row of the workspace's is tested.
  const weeks = (['monday', 'sunday', 'saturday'] as const satisfies readonly WeekStart[]).map(
    (start) => sql`(${sql.lit(start)}, ${typed(`${start}_start`, 'date')}, ${typed(`${start}_end`, 'date')})`,
  );
  const lockedWeek = sql<string | null>`(select w.ws::text from (values ${sql.join(weeks)}) as w (week_start, ws, we)
    where w.week_start = context.week_start::text and ${holdsApproved(slot('company_id'), uuid('person_id'), sql.ref('w.ws'), sql.ref('w.we'))})`;
  const billable = sql<boolean>`coalesce(${typed('billable', 'boolean')}, ctx.task_assignment_billable is true and ctx.project_billable is true)`;
  const teammate = sql`(${f('teammate_possible')} and ctx.person_is_teammate)`;
  const manages = sql`(${f('manages_possible')} and ctx.caller_assignment_active is true and ctx.caller_is_project_manager is true)`;
  const role = sql.ref('ctx.person_role');
  // Every check of the service's, as SQL over the context (see the module comment).
  const guard = sql.join(
    [
      ENTERED_PERSON_TIME,
      typed<boolean>('input_ok', 'boolean'),
      sql`(${typed('zone', 'text')} is null or ctx.timezone = ${typed('zone', 'text')})`,
      // resolvePerson
      sql`(${f('own_given')} or (${f('others_allowed')} and ctx.person_active is true and ${roleIn(role, (r) => mayBeAssignedToProjects({ role: r }))}))`,
      // checkWorkTarget, in its order
      sql`ctx.project_id is not null`,
      sql`(${f('sees_all')} or ctx.caller_assignment_active is true or ${teammate})`,
      sql`(${f('write_always')} or (${f('write_teammate')} and ${teammate}) or (${f('write_managing')} and ${manages}))`,
      sql`ctx.project_active is true`,
      sql`(ctx.person_role is not null and (${roleIn(role, isAdminRole)} or ctx.person_assignment_active is true))`,
      sql`ctx.task_assignment_active is true and ctx.task_active is true`,
      sql`ctx.locked_week is null`,
    ],
    sql` and `,
  );
  const statement = sql`with ctx as (
  select context.*, ${lockedWeek} as locked_week, ${ENTERED_PERSON_TIME} as entered
  from (${context}) as context
), ins as (
  insert into time_entries (company_id, id, user_id, project_id, task_id, spent_date, duration_seconds, hours_entered,
    is_running, timer_started_at, started_time, ended_time, notes, billable, source, metadata, external_reference,
    created_by, created_at, updated_at, billable_rate)
  select ${uuid('company_id')}, ${uuid('entry_id')}, ${uuid('person_id')}, ${uuid('project_id')}, ${uuid('task_id')}, ${typed('spent_date', 'date')},
    ${typed('duration_seconds', 'integer')}, ${typed('hours_entered', 'numeric')}, false, null, ${typed('started_time', 'text')}, ${typed('ended_time', 'text')},
    ${typed('notes', 'text')}, ${billable}, ${typed('source', 'text')}, ${typed('metadata', 'jsonb')}, ${typed('external_reference', 'jsonb')},
    ${uuid('caller_id')}, ${typed('now', 'timestamptz')}, ${typed('now', 'timestamptz')},
    ${billableRateSql(slot('company_id'), { billable, projectId: slot('project_id'), taskId: slot('task_id'), userId: slot('person_id'), date: slot('spent_date') })}
  from ctx
  where ${guard}
  returning ${sql.join(ENTRY_COLUMNS.map((c) => sql.ref(c)))}
)
select ctx.entered, ctx.locked_week, ctx.project_id as context_project_id, ${sql.join(CONTEXT_COLUMNS.map((c) => sql.ref(`ctx.${c}`)))},
  ${sql.join(ENTRY_COLUMNS.map((c) => sql.ref(`ins.${c}`)))}
from ctx left join ins on true`;
  const compiled = statement.compile(db);
  const names = compiled.parameters.map((value) => {
    if (typeof value !== 'string' || !value.startsWith(SLOT_MARK)) throw new Error(`create statement: a value outside the slots (${String(value)})`);
    return value.slice(SLOT_MARK.length) as Name;
  });
  return { text: compiled.sql, names };
}

let built: { text: string; names: Name[] } | undefined;

/** The statement's SQL and, for each of its parameters in order, the name of its value. */
function createStatement(db: Kysely<DB>) {
  return (built ??= buildStatement(db));
}

/** What the statement answers: the context (as loadWriteContext's), the week lock, the lock's outcome, and the entry if inserted. */
export interface CreateOutcome {
  entered: boolean;
  context: WriteContext & { locked_week: string | null };
  /** The stored entry, when the guard let the insert through. */
  entry: EntryRow | null;
}

/**
 * Runs the create statement for the person `lockPerson` (whose shared time lock the
 * settings take first: it must be a statement before the one that reads the week
 * lock, see tryEnterPersonTime). On PostgreSQL one round trip; on PGlite, and on a
 * request's shared transaction (Idempotency-Key), a tenant transaction (or unit) of
 * two statements.
 */
export async function runCreateStatement(
  db: Kysely<DB>,
  lockPerson: string,
  values: CreateValues,
  flags: CreateFlags,
): Promise<CreateOutcome> {
  const { text, names } = createStatement(db);
  const bound: Record<Name, unknown> = { ...values, ...flags };
  const parameters = names.map((name) => bound[name]);
  const prelude = { entered: enterPersonTimeNoted(values.company_id, lockPerson) };
  const single = singleRoundTripOf(db);
  let rows: unknown[];
  if (single) {
    rows = await single(tenantSettings(values.company_id, prelude).compile(db).sql, text, parameters);
  } else {
    rows = await withTenant(db, values.company_id, async (trx) => (await trx.executeQuery(CompiledQuery.raw(text, parameters))).rows, prelude);
  }
  return outcomeOf(rows[0] as Record<string, unknown>);
}

function outcomeOf(row: Record<string, unknown>): CreateOutcome {
  const context = { project_id: row.context_project_id, locked_week: row.locked_week } as Record<string, unknown>;
  for (const c of CONTEXT_COLUMNS) context[c] = row[c];
  let entry: Record<string, unknown> | null = null;
  if (row.id !== null) {
    entry = { task_name: row.task_name, project_budget_by: row.project_budget_by };
    for (const c of ENTRY_COLUMNS) entry[c] = row[c];
  }
  return {
    entered: row.entered === true,
    context: context as unknown as CreateOutcome['context'],
    entry: entry as unknown as EntryRow | null,
  };
}

/** Whether an id is one (a malformed one is bound as null, which no row matches). */
export const idOrNull = (id: string | undefined): string | null => (id !== undefined && isId(id) ? id.toLowerCase() : null);
