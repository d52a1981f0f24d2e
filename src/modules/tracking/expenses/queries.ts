import { sql, type ExpressionBuilder, type InferResult } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { findRecord, listRecords, recordConditions, type RecordFilter } from '../week/index.ts';
import type { DB, ExpenseSource, WeekStart } from '../../../db/types.ts';
import { otherRowHas, updateRow } from '../../../db/rows.ts';
import type { Tx } from '../../../db/tenant.ts';
import type { PageParams } from '../../../http/pagination.ts';
import { isId } from '../../../ids.ts';

/** Every query takes the workspace id first and filters on it (row-level security is the second wall). */

export interface ExpenseSettings {
  week_start: WeekStart;
  currency: string;
}

export function loadExpenseSettings(trx: Tx, companyId: string): Promise<ExpenseSettings> {
  return trx.selectFrom('companies').select(['week_start', 'currency']).where('id', '=', companyId).executeTakeFirstOrThrow();
}

const EXPENSE_COLUMNS = [
  'ex.id',
  'ex.user_id',
  'ex.project_id',
  'ex.expense_category_id',
  'ec.name as category_name',
  'ec.unit_name as category_unit_name',
  'ec.unit_price as category_unit_price',
  'ex.spent_date',
  'ex.units',
  'ex.total_cost',
  'ex.notes',
  'ex.billable',
  'ex.is_billed',
  'ex.approval_status',
  'ex.source',
  'ex.metadata',
  'ex.receipt_file_id',
  'f.filename as receipt_filename',
  'f.content_type as receipt_content_type',
  'f.byte_size as receipt_byte_size',
  'ex.created_at',
  'ex.updated_at',
] as const;

function expenseSelect(trx: Tx, companyId: string) {
  return trx
    .selectFrom('expenses as ex')
    .innerJoin('expense_categories as ec', (j) => j.onRef('ec.company_id', '=', 'ex.company_id').onRef('ec.id', '=', 'ex.expense_category_id'))
    .leftJoin('files as f', (j) => j.onRef('f.company_id', '=', 'ex.company_id').onRef('f.id', '=', 'ex.receipt_file_id'))
    .select(EXPENSE_COLUMNS)
    .where('ex.company_id', '=', companyId);
}

/** An expense as the queries load it, with its category and its receipt's description. */
export type ExpenseRow = InferResult<ReturnType<typeof expenseSelect>>[number];

/**
 * One expense of the workspace, or undefined: when `visibleTo` is given, only if
 * that principal may see it (the time entries' visibility rule). `lock` takes a
 * row lock on the expense.
 */
export function findExpense(trx: Tx, companyId: string, id: string, options: { visibleTo?: Principal; lock?: boolean } = {}) {
  return findRecord(expenseSelect(trx, companyId), 'ex', id, options);
}

export interface ExpenseFilter extends RecordFilter {
  source?: ExpenseSource;
  /** Only this category's expenses (the web app's filter). */
  categoryId?: string;
}

/**
 * One page of the expenses the principal may see, newest first: spent_date
 * descending, then created_at descending, then id descending (a total order, so
 * pages are stable). The total is counted on its own (fetchCountedPage).
 */
export function listExpenses(trx: Tx, companyId: string, p: Principal, filter: ExpenseFilter, page: PageParams) {
  const where = (eb: ExpressionBuilder<DB & { ex: DB['expenses'] }, 'ex'>) =>
    eb.and([...recordConditions(eb, 'ex', p, filter), ...(filter.categoryId ? [eb('ex.expense_category_id', '=', filter.categoryId)] : [])]);
  const select = expenseSelect(trx, companyId);
  return listRecords(trx, companyId, { table: 'expenses', alias: 'ex' }, select, where, page);
}

/**
 * A project as an expense write needs it: state, its is_billable (a new expense's
 * default billable), currency (the client's, else the workspace's), the person's role in
 * the workspace and assignment, and the caller's assignment (null: none).
 */
export type ProjectContext = NonNullable<Awaited<ReturnType<typeof loadProjectContext>>>;

/** One query for everything a create or a project change checks. Undefined: no such project in the workspace. */
export async function loadProjectContext(
  trx: Tx,
  companyId: string,
  ids: { projectId: string; personId: string; callerId: string },
) {
  if (!isId(ids.projectId)) return undefined;
  return trx
    .selectFrom('projects as p')
    .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 'p.company_id').onRef('c.id', '=', 'p.client_id'))
    .innerJoin('companies as co', 'co.id', 'p.company_id')
    .leftJoin('project_user_assignments as person', (j) =>
      j.onRef('person.company_id', '=', 'p.company_id').onRef('person.project_id', '=', 'p.id').on('person.user_id', '=', ids.personId),
    )
    .leftJoin('project_user_assignments as caller', (j) =>
      j.onRef('caller.company_id', '=', 'p.company_id').onRef('caller.project_id', '=', 'p.id').on('caller.user_id', '=', ids.callerId),
    )
    .leftJoin('memberships as pm', (j) => j.onRef('pm.company_id', '=', 'p.company_id').on('pm.user_id', '=', ids.personId))
    .select([
      'p.id as project_id',
      'pm.role as person_role',
      'p.is_active as project_active',
      'p.is_billable as project_billable',
      sql<string>`coalesce(c.currency, co.currency)`.as('currency'),
      'person.is_active as person_assignment_active',
      'caller.is_active as caller_assignment_active',
      'caller.is_project_manager as caller_is_project_manager',
    ])
    .where('p.company_id', '=', companyId)
    .where('p.id', '=', ids.projectId)
    // Share-locked so an archive or delete racing this write waits for it.
    .forShare('p')
    .executeTakeFirst();
}

export interface ExpenseColumns {
  user_id: string;
  project_id: string;
  expense_category_id: string;
  spent_date: string;
  units: string | null;
  total_cost: string;
  notes: string | null;
  billable: boolean;
  metadata: string | null;
  receipt_file_id: string | null;
}

export async function insertExpense(
  trx: Tx,
  companyId: string,
  expense: ExpenseColumns & { id: string; source: ExpenseSource; created_by: string | null; created_at: Date; updated_at: Date },
) {
  await trx
    .insertInto('expenses')
    .values({ company_id: companyId, ...expense })
    .execute();
}

export const updateExpenseColumns = (trx: Tx, companyId: string, id: string, changes: Partial<ExpenseColumns>, now: Date) =>
  updateRow(trx, 'expenses', companyId, id, changes, now);

export async function deleteExpenseRow(trx: Tx, companyId: string, id: string) {
  await trx.deleteFrom('expenses').where('company_id', '=', companyId).where('id', '=', id).execute();
}

/** Whether an expense other than `exceptId` points at the file. */
export const receiptInUse = (trx: Tx, companyId: string, fileId: string, exceptId: string) =>
  otherRowHas(trx, 'expenses', companyId, 'receipt_file_id', fileId, exceptId);
