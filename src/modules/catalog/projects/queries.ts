import { sql } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { clientVisible, projectVisible } from '../../../access/catalog.ts';
import { insertRow, updateRow } from '../../../db/rows.ts';
import type { Tx } from '../../../db/tenant.ts';
import { billableRateOn } from '../rates/index.ts';
import { fetchPage, type PageParams } from '../../../http/pagination.ts';
import type { ProjectState } from './rules.ts';

/** Every query takes the workspace id first and filters on it (row-level security is the second wall). */

/** How to load projects: for whom (visibility and their own assignment), and whether with today's rate. */
export interface LoadOptions {
  /** The caller; null for the operator (`sheaf admin`), who sees every project. */
  principal: Principal | null;
  /** Load the project rate in force on this day (only for callers who may see rates). */
  rateOn?: string;
}

const UPDATED_AT = sql<Date>`greatest(p.updated_at, c.updated_at, coalesce(ou.updated_at, p.updated_at))`;

function projectSelect(trx: Tx, companyId: string, { principal, rateOn }: LoadOptions) {
  const userId = principal?.userId ?? null;
  let query = trx
    .selectFrom('projects as p')
    .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 'p.company_id').onRef('c.id', '=', 'p.client_id'))
    .innerJoin('companies as co', 'co.id', 'p.company_id')
    .leftJoin('users as ou', 'ou.id', 'p.owner_id')
    .leftJoin('project_user_assignments as own', (j) =>
      j
        .onRef('own.company_id', '=', 'p.company_id')
        .onRef('own.project_id', '=', 'p.id')
        .on('own.user_id', '=', sql<string>`${userId}::uuid`),
    )
    .select([
      'p.id',
      'p.name',
      'p.code',
      'p.notes',
      'p.is_active',
      'p.client_id',
      'c.name as client_name',
      sql<string>`coalesce(c.currency, co.currency)`.as('client_currency'),
      'p.owner_id',
      'ou.first_name as owner_first_name',
      'ou.last_name as owner_last_name',
      'ou.email as owner_email',
      'p.is_billable',
      'p.bill_by',
      'p.is_fixed_fee',
      'p.fee',
      'p.cost_budget',
      'p.budget_by',
      'p.budget',
      'p.budget_is_monthly',
      'p.show_budget_to_all',
      'p.notify_when_over_budget',
      'p.over_budget_notification_percentage',
      'p.starts_on',
      'p.ends_on',
      'p.created_at',
      UPDATED_AT.as('updated_at'),
      'own.is_active as own_is_active',
      'own.is_project_manager as own_is_project_manager',
    ])
    .where('p.company_id', '=', companyId);
  if (principal) query = query.where(projectVisible(principal, 'p'));
  if (rateOn === undefined) return query;
  // The project's billable rate in force on `rateOn`: the latest row from on or before it.
  return query
    .leftJoinLateral(billableRateOn(trx, 'p', 'project', rateOn), (j) => j.onTrue())
    .select(['rate.hourly_rate', 'rate.effective_from as hourly_rate_effective_from']);
}

export interface ProjectFilter {
  isActive?: boolean;
  clientId?: string;
  ownerId?: string;
  updatedSince?: Date;
  /** Part of the name or code, ignoring case (the web app's search; the API has no such parameter). */
  search?: string;
}

/** A LIKE pattern matching `text` literally anywhere (its %, _ and \\ escaped). */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One page of the projects the caller sees, by name (ignoring case) then id. */
export function listProjects(trx: Tx, companyId: string, options: LoadOptions, filter: ProjectFilter, page: PageParams) {
  let query = projectSelect(trx, companyId, options);
  if (filter.isActive !== undefined) query = query.where('p.is_active', '=', filter.isActive);
  if (filter.clientId !== undefined) query = query.where('p.client_id', '=', filter.clientId);
  if (filter.ownerId !== undefined) query = query.where('p.owner_id', '=', filter.ownerId);
  if (filter.updatedSince !== undefined) query = query.where(UPDATED_AT, '>=', filter.updatedSince);
  if (filter.search) {
    const pattern = containing(filter.search);
    query = query.where((eb) =>
      eb.or([eb(sql`lower(p.name)`, 'like', pattern), eb(sql`lower(coalesce(p.code, ''))`, 'like', pattern)]),
    );
  }
  return fetchPage(query.orderBy(sql`lower(p.name)`).orderBy('p.id'), page);
}

/** A project the caller sees, or undefined. `lock` takes a row lock on the project alone. */
export async function findProject(
  trx: Tx,
  companyId: string,
  options: LoadOptions,
  id: string,
  { lock = false }: { lock?: boolean } = {},
) {
  let query = projectSelect(trx, companyId, options).where('p.id', '=', id);
  if (lock) query = query.forUpdate('p');
  return query.executeTakeFirst();
}

/** The project's task assignments (active and inactive), by task name then task id. */
export function listProjectTasks(trx: Tx, companyId: string, projectId: string) {
  return trx
    .selectFrom('project_task_assignments as pta')
    .innerJoin('tasks as t', (j) => j.onRef('t.company_id', '=', 'pta.company_id').onRef('t.id', '=', 'pta.task_id'))
    .select(['pta.task_id', 't.name', 'pta.is_active', 'pta.billable', 'pta.budget'])
    .where('pta.company_id', '=', companyId)
    .where('pta.project_id', '=', projectId)
    .orderBy(sql`lower(t.name)`)
    .orderBy('pta.task_id')
    .execute();
}

// ---- relationships named by a request body ----

/**
 * A client of the workspace, visible to the caller (any client for the operator),
 * with a share lock, so a client archive racing this request waits for it.
 */
export function lockClient(trx: Tx, companyId: string, principal: Principal | null, clientId: string) {
  let query = trx.selectFrom('clients').select(['id', 'is_active']).where('company_id', '=', companyId).where('id', '=', clientId);
  if (principal) query = query.where(clientVisible(principal, 'clients'));
  return query.forShare().executeTakeFirst();
}

/** Tasks of the workspace by id (share-locked, so an archive racing the assignment waits). */
export function lockTasks(trx: Tx, companyId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return trx
    .selectFrom('tasks')
    .select(['id', 'is_active', 'billable_by_default', 'default_hourly_rate'])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .forShare()
    .execute();
}

/** The workspace's default tasks for new projects: active and marked `is_default`. */
export function defaultTasks(trx: Tx, companyId: string) {
  return trx
    .selectFrom('tasks')
    .select(['id', 'is_active', 'billable_by_default', 'default_hourly_rate'])
    .where('company_id', '=', companyId)
    .where('is_default', '=', true)
    .where('is_active', '=', true)
    .orderBy('id')
    .forShare()
    .execute();
}

// ---- writes ----

export const insertProject = (trx: Tx, companyId: string, id: string, state: ProjectState, now: Date) =>
  insertRow(trx, 'projects', companyId, id, state, now);

export const updateProjectColumns = (trx: Tx, companyId: string, id: string, changes: Partial<ProjectState>, now: Date) =>
  updateRow(trx, 'projects', companyId, id, changes, now);

export async function insertTaskAssignments(
  trx: Tx,
  companyId: string,
  projectId: string,
  tasks: Array<{ id: string; billable: boolean }>,
  now: Date,
) {
  if (tasks.length === 0) return;
  await trx
    .insertInto('project_task_assignments')
    .values(
      tasks.map((t) => ({
        company_id: companyId,
        project_id: projectId,
        task_id: t.id,
        billable: t.billable,
        is_active: true,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

/** Running timers on a project (a live timer is someone's work in progress). */
export async function countRunningTimers(trx: Tx, companyId: string, projectId: string) {
  const row = await trx
    .selectFrom('time_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', companyId)
    .where('project_id', '=', projectId)
    .where('is_running', '=', true)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The project's expenses' receipt files, deleted with the expenses. */
export async function expenseReceiptIds(trx: Tx, companyId: string, projectId: string) {
  const rows = await trx
    .selectFrom('expenses')
    .select('receipt_file_id')
    .where('company_id', '=', companyId)
    .where('project_id', '=', projectId)
    .where('receipt_file_id', 'is not', null)
    .execute();
  return rows.map((r) => r.receipt_file_id!);
}
