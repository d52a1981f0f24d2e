import { sql, type Kysely } from 'kysely';
import { newId } from '../../../ids.ts';
import type { Tx } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { isEmailTakenError } from '../../people/users/index.ts';
import { billableRateSql } from '../../tracking/time/index.ts';
import { IMPORT_SERVICE, type Existing } from './plan.ts';

/**
 * The import's SQL: what the plan matches against, which rows were imported before, and
 * the batched inserts (one statement per table, or per CHUNK entries, instead of a
 * statement per row: 100,000 rows in seconds). Every function takes the workspace first.
 */

/** Entries per INSERT: each column travels as one array parameter (unnest), so a chunk is one statement of a dozen parameters. */
export const CHUNK = 5000;

/**
 * One import of a workspace at a time: a second waits here, then finds the first one's rows.
 * FOR NO KEY UPDATE, not FOR UPDATE: every write of the workspace takes FOR KEY SHARE on this
 * row for its foreign key, and FOR UPDATE would hold them all for as long as a 10 MiB import
 * writes (they failed after the lock timeout). It still queues behind, and holds back, the
 * paths that lock the row FOR UPDATE to serialise themselves (invitations, owners' changes).
 */
export async function lockWorkspaceImports(trx: Tx, companyId: string): Promise<void> {
  await trx.selectFrom('companies').select('id').where('id', '=', companyId).forNoKeyUpdate().execute();
}

export async function loadExisting(trx: Tx, companyId: string): Promise<Omit<Existing, 'identities'> & { currency: string }> {
  const [members, clients, projects, tasks, company] = await Promise.all([
    trx
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'u.email', sql<string>`trim(u.first_name || ' ' || u.last_name)`.as('name'), 'm.is_active'])
      .where('m.company_id', '=', companyId)
      .where('u.user_type', '=', 'human')
      .where('m.role', '<>', 'client')
      .execute(),
    trx.selectFrom('clients').select(['id', 'name', 'currency']).where('company_id', '=', companyId).execute(),
    trx.selectFrom('projects').select(['id', 'client_id', 'name', 'bill_by', 'is_billable']).where('company_id', '=', companyId).execute(),
    trx.selectFrom('tasks').select(['id', 'name']).where('company_id', '=', companyId).execute(),
    trx.selectFrom('companies').select('currency').where('id', '=', companyId).executeTakeFirstOrThrow(),
  ]);
  return { members, clients, projects, tasks, currency: company.currency };
}

/** The installation's identities with these addresses, read as the service (another workspace's people are invisible in a tenant transaction). */
export async function identitiesOf(db: Kysely<DB>, emails: string[]): Promise<Existing['identities']> {
  if (emails.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'user_type', sql<boolean>`password_hash is not null`.as('has_password')])
    .where('email', 'in', emails)
    .execute();
  return rows;
}

/**
 * Which of these row references the workspace has imported already: every imported entry's
 * reference of the tracker, read once through the (company, service, id) index and matched
 * here (an `= any(array)` of tens of thousands made PostgreSQL compare each row with each).
 */
export async function importedRefs(trx: Tx, companyId: string, tracker: string, refs: string[]): Promise<Set<string>> {
  const wanted = new Set(refs);
  const rows = await sql<{ ref: string }>`
    select external_reference_id as ref from time_entries
    where company_id = ${companyId} and external_reference_service = ${IMPORT_SERVICE}
      and external_reference_id like ${`${tracker}:%`}`.execute(trx);
  return new Set(rows.rows.map((r) => r.ref).filter((r) => wanted.has(r)));
}

export interface EntryValues {
  id: string;
  user_id: string;
  project_id: string;
  task_id: string;
  spent_date: string;
  duration_seconds: number;
  hours_entered: string | null;
  started_time: string | null;
  ended_time: string | null;
  notes: string | null;
  billable: boolean;
  /** Invoiced in the old tracker: billed, on no Sheaf invoice. */
  is_billed: boolean;
  external_reference: string;
}

/** Rates of projects the import created (no work of theirs exists yet, so nothing to reprice), in one statement. */
export async function insertNewRates(trx: Tx, companyId: string, rates: Array<{ project_id: string; user_id: string; effective_from: string; hourly_rate: string }>) {
  for (let i = 0; i < rates.length; i += CHUNK) {
    await trx
      .insertInto('rates')
      .values(rates.slice(i, i + CHUNK).map((r) => ({ company_id: companyId, id: newId(), kind: 'billable' as const, task_id: null, ...r })))
      .execute();
  }
}

/**
 * Inserts entries CHUNK at a time; each entry's billable_rate is the one billable_rate()
 * finds for its project, task, person and date (the rates the import wrote before), as
 * every create stores it, so reports, invoices and the entry agree: tracking's
 * billableRateSql over each row's columns (called per row, the SQL function costs
 * milliseconds each on PGlite); test/import.test.ts checks the two agree.
 */
export async function insertEntries(trx: Tx, companyId: string, entries: EntryValues[], meta: { source: string; createdBy: string | null; now: Date }) {
  for (let i = 0; i < entries.length; i += CHUNK) {
    const chunk = entries.slice(i, i + CHUNK);
    const col = <K extends keyof EntryValues>(k: K) => chunk.map((e) => e[k]);
    await sql`
      insert into time_entries (company_id, id, user_id, project_id, task_id, spent_date, duration_seconds, hours_entered,
        started_time, ended_time, notes, billable, is_billed, billable_rate, source, external_reference, created_by, created_at, updated_at)
      select ${companyId}::uuid, v.id, v.user_id, v.project_id, v.task_id, v.spent_date, v.duration_seconds, v.hours_entered,
        v.started_time, v.ended_time, v.notes, v.billable, v.is_billed,
        ${billableRateSql(companyId, {
          billable: sql<boolean>`v.billable`,
          projectId: sql<string>`v.project_id`,
          taskId: sql<string>`v.task_id`,
          userId: sql<string>`v.user_id`,
          date: sql<string>`v.spent_date`,
        })},
        ${meta.source}, v.external_reference, ${meta.createdBy}::uuid, ${meta.now}, ${meta.now}
      from unnest(${col('id')}::uuid[], ${col('user_id')}::uuid[], ${col('project_id')}::uuid[], ${col('task_id')}::uuid[],
        ${col('spent_date')}::date[], ${col('duration_seconds')}::integer[], ${col('hours_entered')}::numeric[],
        ${col('started_time')}::text[], ${col('ended_time')}::text[], ${col('notes')}::text[], ${col('billable')}::boolean[],
        ${col('is_billed')}::boolean[], ${col('external_reference')}::jsonb[])
        as v (id, user_id, project_id, task_id, spent_date, duration_seconds, hours_entered, started_time, ended_time, notes, billable, is_billed, external_reference)`.execute(
      trx,
    );
  }
}

/** People an import adds: identities (new ones) and their memberships, as members. */
export async function insertPeople(
  trx: Tx,
  companyId: string,
  newIdentities: Array<{ id: string; email: string; first_name: string; last_name: string }>,
  memberIds: string[],
) {
  if (newIdentities.length) {
    // Neither RETURNING nor ON CONFLICT: a new identity is invisible in the tenant transaction
    // (row-level security) until its membership exists. An address taken meanwhile is users_email_key's refusal.
    try {
      await trx.insertInto('users').values(newIdentities.map((u) => ({ ...u, user_type: 'human' as const }))).execute();
    } catch (err) {
      if (isEmailTakenError(err)) return false;
      throw err;
    }
  }
  if (memberIds.length) {
    await trx
      .insertInto('memberships')
      .values(memberIds.map((user_id) => ({ company_id: companyId, user_id, role: 'member' as const })))
      .execute();
  }
  return true;
}

/** Whoever works on a project is assigned to it, and its tasks to it, so the entries are valid; inactive assignments are made active. */
export async function ensureAssignments(
  trx: Tx,
  companyId: string,
  people: Array<{ project_id: string; user_id: string }>,
  tasks: Array<{ project_id: string; task_id: string; billable: boolean }>,
) {
  for (let i = 0; i < people.length; i += CHUNK) {
    await trx
      .insertInto('project_user_assignments')
      .values(people.slice(i, i + CHUNK).map((a) => ({ company_id: companyId, ...a })))
      .onConflict((oc) => oc.columns(['company_id', 'project_id', 'user_id']).doUpdateSet({ is_active: true, updated_at: sql`now()` }).where('project_user_assignments.is_active', '=', false))
      .execute();
  }
  for (let i = 0; i < tasks.length; i += CHUNK) {
    await trx
      .insertInto('project_task_assignments')
      .values(tasks.slice(i, i + CHUNK).map((a) => ({ company_id: companyId, ...a })))
      .onConflict((oc) => oc.columns(['company_id', 'project_id', 'task_id']).doUpdateSet({ is_active: true, updated_at: sql`now()` }).where('project_task_assignments.is_active', '=', false))
      .execute();
  }
}
