import { sql } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { mayRecordOnProject } from '../../../access/time.ts';
import type { Tx } from '../../../db/tenant.ts';
import { projectsWithOwnAssignment } from '../week/index.ts';

/** A project and task the caller may record time on (the timer's and the week's type-ahead). */
export interface Choice {
  project_id: string;
  project_name: string;
  project_code: string | null;
  client_id: string;
  client_name: string;
  task_id: string;
  task_name: string;
  /** The default of an entry there: the task assignment's billable and the project's is_billable. */
  billable: boolean;
}

/**
 * The project and task pairs the caller may record their own time on: active
 * projects with the task actively assigned and active, where mayRecordOnProject
 * admits the caller (owners and administrators anywhere, others where actively
 * assigned), the same rule a create checks.
 */
export async function choicesFor(trx: Tx, p: Principal): Promise<Choice[]> {
  const rows = await projectsWithOwnAssignment(trx, p.companyId, p.userId)
    .innerJoin('project_task_assignments as pta', (j) =>
      j.onRef('pta.company_id', '=', 'p.company_id').onRef('pta.project_id', '=', 'p.id').on('pta.is_active', '=', true),
    )
    .innerJoin('tasks as t', (j) => j.onRef('t.company_id', '=', 'pta.company_id').onRef('t.id', '=', 'pta.task_id').on('t.is_active', '=', true))
    .select([
      'p.id as project_id',
      'p.name as project_name',
      'p.code as project_code',
      'c.id as client_id',
      'c.name as client_name',
      't.id as task_id',
      't.name as task_name',
      sql<boolean>`pta.billable and p.is_billable`.as('billable'),
    ])
    .where('p.is_active', '=', true)
    .orderBy('c.name')
    .orderBy('p.name')
    .orderBy('t.name')
    .orderBy('t.id')
    .execute();
  return rows
    .filter((r) => mayRecordOnProject({ role: p.role }, { is_active: r.assignment_active }))
    .map(({ assignment_active: _, ...choice }) => choice);
}

/** Names of the entries' projects and clients (archived ones too: old entries keep showing where they were). */
export async function projectNames(trx: Tx, companyId: string, projectIds: string[]) {
  if (projectIds.length === 0) return new Map<string, { project: { id: string; name: string; code: string | null }; client: { id: string; name: string } }>();
  const rows = await trx
    .selectFrom('projects as p')
    .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 'p.company_id').onRef('c.id', '=', 'p.client_id'))
    .select(['p.id', 'p.name', 'p.code', 'c.id as client_id', 'c.name as client_name'])
    .where('p.company_id', '=', companyId)
    .where('p.id', 'in', projectIds)
    .execute();
  return new Map(rows.map((r) => [r.id, { project: { id: r.id, name: r.name, code: r.code }, client: { id: r.client_id, name: r.client_name } }]));
}

/** The private notes of these entries (the caller checked it may edit each). */
export async function privateNotesOf(trx: Tx, companyId: string, entryIds: string[]): Promise<Map<string, string | null>> {
  if (entryIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom('time_entries')
    .select(['id', 'private_notes'])
    .where('company_id', '=', companyId)
    .where('id', 'in', entryIds)
    .execute();
  return new Map(rows.map((r) => [r.id, r.private_notes]));
}

export async function writePrivateNotes(trx: Tx, companyId: string, entryId: string, notes: string | null) {
  // updated_at stays: the entry as the API shows it did not change (and no API client should see a change it cannot read).
  await trx.updateTable('time_entries').set({ private_notes: notes }).where('company_id', '=', companyId).where('id', '=', entryId).execute();
}

/**
 * The caller's last `limit` distinct project-task pairs, most recently used first (the day of
 * their latest entry, then its creation): the type-aheads offer them before the rest.
 */
export async function recentPairs(trx: Tx, p: Principal, limit: number): Promise<{ project_id: string; task_id: string }[]> {
  const rows = await trx
    .selectFrom('time_entries')
    .select(['project_id', 'task_id', sql<string>`max(spent_date)`.as('last_day'), sql<Date>`max(created_at)`.as('last_created')])
    .where('company_id', '=', p.companyId)
    .where('user_id', '=', p.userId)
    .where('task_id', 'is not', null)
    .groupBy(['project_id', 'task_id'])
    .orderBy(sql`max(spent_date)`, 'desc')
    .orderBy(sql`max(created_at)`, 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ project_id: r.project_id, task_id: r.task_id! }));
}
