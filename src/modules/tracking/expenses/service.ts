import { auditActor } from '../../../access/operator.ts';
import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { mayBeAssignedToProjects, seesAllProjects } from '../../../access/catalog.ts';
import { isManager } from '../../../access/policy.ts';
import { isTeammateOf } from '../../../access/teammates.ts';
import { mayRecordOnProject, mayWriteOthersTime, mayWriteTimeFor } from '../../../access/time.ts';
import type { DB } from '../../../db/types.ts';
import { changedColumns as changedOf } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { badRequest, forbidden, notFound } from '../../../errors.ts';
import type { PageParams } from '../../../http/pagination.ts';
import { newId } from '../../../ids.ts';
import { sameDecimal } from '../../../money.ts';
import { findMembership } from '../../people/users/index.ts';
import { audit } from '../../workspace/audit/index.ts';
import { findCategory } from '../expense-categories/index.ts';
import { deleteFile, readFile, storeFile, type FileInfo } from '../../workspace/files/index.ts';
import { assertNotLocked, assertWeeksOpen, sameJson, loadTimeSettings, sheetPerson } from '../week/index.ts';
import { presentExpense } from './presenter.ts';
import { type ExpenseRow, deleteExpenseRow, findExpense, insertExpense, listExpenses as listExpenseRows, loadExpenseSettings, loadProjectContext, receiptInUse, updateExpenseColumns, type ExpenseColumns, type ExpenseFilter, type ProjectContext } from './queries.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { expenseCategories, expenseProjects } from './web-queries.ts';
import type { ReceiptUpload } from './receipts.ts';
import type { CreateExpenseInput, ExpenseInput } from './schemas.ts';
import { DEFAULT_EXPENSE_SOURCE, checkSpentRange, costDecimals, parseMetadata, parseNotes, parseSpentDate, resolveAmount } from './rules.ts';

/**
 * Expenses: the transactions and the rules around them. Who sees and who writes
 * follows the time entries exactly (src/access/time.ts): owners and
 * administrators everyone's; managers their own, their teammates' and those on
 * projects they manage; members and contractors their own; personal sync keys
 * nothing (not on their allowlist). Approved or billed expenses are locked, and
 * a week of the person's with approved time or expenses refuses new or changed
 * expenses (src/modules/tracking/week/lock.ts). A receipt is stored in the same
 * transaction as the expense that points at it.
 */

/** An expense's person is fixed at creation, as a time entry's (its approvals are the person's). */
export const PERSON_FIXED = "An expense's person cannot change; delete it and record it for the other person.";

/** Called with the locked current row before a change; throws 412 (If-Match) or anything else to stop it. */
export type Precondition = (current: ExpenseRow) => void;


export function listExpenses(db: Kysely<DB>, p: Principal, filter: ExpenseFilter, page: PageParams) {
  checkSpentRange(filter.from, filter.to);
  return withTenant(db, p.companyId, (trx) => listExpenseRows(trx, p.companyId, p, filter, page));
}

async function visibleOrThrow(trx: Tx, p: Principal, id: string, lock = false): Promise<ExpenseRow> {
  const row = await findExpense(trx, p.companyId, id, { visibleTo: p, lock });
  if (!row) throw notFound('expense');
  return row;
}

export function getExpense(db: Kysely<DB>, p: Principal, id: string): Promise<ExpenseRow> {
  return withTenant(db, p.companyId, (trx) => visibleOrThrow(trx, p, id));
}

/** The receipt of an expense the caller sees: its bytes and description (404 when none). */
export function getReceipt(db: Kysely<DB>, p: Principal, id: string) {
  return withTenant(db, p.companyId, async (trx) => {
    const row = await visibleOrThrow(trx, p, id);
    const file = row.receipt_file_id ? await readFile(trx, p.companyId, row.receipt_file_id) : undefined;
    if (!file) throw notFound('receipt');
    return file;
  });
}

// ---- who, on what ----

/**
 * The person an expense is for, when it is not the caller: only owners,
 * administrators and managers may name another person (403); it must be an
 * active internal member of the workspace (400 naming user_id).
 */
async function assertPerson(trx: Tx, p: Principal, personId: string) {
  if (personId === p.userId) return;
  if (!mayWriteOthersTime(p)) throw forbidden('You may record expenses only for yourself.');
  const member = await findMembership(trx, p.companyId, personId);
  if (!member || !member.is_active || !mayBeAssignedToProjects(member)) {
    throw badRequest('user_id must be an active member of this workspace.', { field: 'user_id' });
  }
}

/** Whether the caller may write this person's expenses on this project (mayWriteTimeFor with the facts looked up). */
async function mayWrite(trx: Tx, p: Principal, personId: string, project: Pick<ProjectContext, 'caller_assignment_active' | 'caller_is_project_manager'>) {
  const own = personId === p.userId;
  const teammate = !own && isManager(p) ? await isTeammateOf(trx, p.companyId, p.userId, personId) : false;
  const managesProject = isManager(p) && project.caller_assignment_active === true && project.caller_is_project_manager === true;
  return { allowed: mayWriteTimeFor(p, { own, teammate, managesProject }), teammate };
}

/**
 * The project an expense goes on, for a person (the time entries' order): a
 * project of the workspace the caller sees (or, for a manager, one their
 * teammate is assigned to), else one 400 naming project_id for unknown,
 * malformed, invisible and other-workspace ids; the caller allowed to write
 * that person's expenses there (403); the project active and the person
 * allowed to record on it (mayRecordOnProject: owners and administrators
 * anywhere, others where actively assigned; 400).
 */
async function projectForWrite(trx: Tx, p: Principal, projectId: string, personId: string): Promise<ProjectContext> {
  const project = await loadProjectContext(trx, p.companyId, { projectId, personId, callerId: p.userId });
  const unknown = () => badRequest('project_id does not name a project of this workspace that you can see.', { field: 'project_id', refusal: 'project_unavailable' });
  if (!project) throw unknown();
  const { allowed, teammate } = await mayWrite(trx, p, personId, project);
  const reachable = seesAllProjects(p) || project.caller_assignment_active === true || teammate;
  if (!reachable) throw unknown();
  if (!allowed) throw forbidden('You may not record expenses for this person on this project.');
  if (!project.project_active) throw badRequest('The project is archived; expenses cannot be recorded on it.', { field: 'project_id', refusal: 'project_archived' });
  if (project.person_role === null || !mayRecordOnProject({ role: project.person_role }, { is_active: project.person_assignment_active })) {
    throw personId === p.userId
      ? badRequest('You are not assigned to this project.', { field: 'project_id', refusal: 'not_assigned' })
      : badRequest('The person is not assigned to this project.', { field: 'user_id', refusal: 'not_assigned' });
  }
  return project;
}

/** The category named by a body: an active category of the workspace (400 naming expense_category_id). */
async function categoryForWrite(trx: Tx, companyId: string, id: string) {
  const category = await findCategory(trx, companyId, id);
  if (!category) throw badRequest('expense_category_id does not name an expense category of this workspace.', { field: 'expense_category_id' });
  if (!category.is_active) throw badRequest(`The expense category '${category.name}' is archived.`, { field: 'expense_category_id' });
  return category;
}

async function storeReceipt(trx: Tx, companyId: string, receipt: ReceiptUpload, now: Date): Promise<FileInfo> {
  return storeFile(trx, companyId, { filename: receipt.filename, contentType: receipt.contentType, data: receipt.data }, now);
}

/** Removes a receipt file no other expense points at (after the expense let go of it). */
async function dropReceipt(trx: Tx, companyId: string, fileId: string | null, expenseId: string) {
  if (fileId && !(await receiptInUse(trx, companyId, fileId, expenseId))) await deleteFile(trx, companyId, fileId);
}

const receiptDetails = (file: FileInfo) => ({ file_id: file.id, file_name: file.filename, content_type: file.content_type, byte_size: file.byte_size, sha256: file.sha256 });

// ---- create, update, delete ----

export async function createExpense(db: Kysely<DB>, p: Principal, input: CreateExpenseInput, receipt: ReceiptUpload | null, now: Date) {
  const spentDate = parseSpentDate(input.spent_date);
  const notes = input.notes === undefined ? null : parseNotes(input.notes);
  const metadata = input.metadata === undefined ? null : parseMetadata(input.metadata);
  const personId = input.user_id === undefined ? p.userId : input.user_id.toLowerCase();
  return withTenant(db, p.companyId, async (trx) => {
    await assertPerson(trx, p, personId);
    const project = await projectForWrite(trx, p, input.project_id, personId);
    const category = await categoryForWrite(trx, p.companyId, input.expense_category_id);
    const amount = resolveAmount(input, {
      current: null,
      category,
      categoryChanged: true,
      currency: project.currency,
      decimalsChanged: false,
    });
    const settings = await loadExpenseSettings(trx, p.companyId);
    await assertWeeksOpen(trx, p.companyId, personId, [spentDate], settings.week_start);
    const file = receipt ? await storeReceipt(trx, p.companyId, receipt, now) : null;
    const id = newId(now.getTime());
    const columns: ExpenseColumns = {
      user_id: personId,
      project_id: project.project_id,
      expense_category_id: category.id,
      spent_date: spentDate,
      units: amount.units,
      total_cost: amount.total_cost,
      notes,
      billable: input.billable ?? project.project_billable,
      metadata,
      receipt_file_id: file?.id ?? null,
    };
    await insertExpense(trx, p.companyId, {
      id,
      ...columns,
      source: input.source ?? DEFAULT_EXPENSE_SOURCE,
      created_by: p.userId,
      created_at: now,
      updated_at: now,
    });
    await audit(trx, {
      ...auditActor(p),
      action: 'expense.created',
      subjectType: 'expense',
      subjectId: id,
      details: { user_id: personId, project_id: columns.project_id, total_cost: columns.total_cost, ...(file ? { receipt: receiptDetails(file) } : {}) },
    });
    return (await findExpense(trx, p.companyId, id))!;
  });
}

/** The columns whose value differs (an unchanged PATCH writes nothing). */
function changedColumns(row: ExpenseRow, next: ExpenseColumns): Partial<ExpenseColumns> {
  const before: ExpenseColumns = {
    user_id: row.user_id,
    project_id: row.project_id,
    expense_category_id: row.expense_category_id,
    spent_date: row.spent_date,
    units: row.units,
    total_cost: row.total_cost,
    notes: row.notes,
    billable: row.billable,
    metadata: row.metadata === null ? null : JSON.stringify(row.metadata),
    receipt_file_id: row.receipt_file_id,
  };
  const sameMetadata = (a: string | null, b: string | null) => sameJson(JSON.parse(a ?? 'null'), JSON.parse(b ?? 'null'));
  return changedOf(before, next, { units: sameDecimal, total_cost: sameDecimal, metadata: sameMetadata });
}

/**
 * PATCH: the fields given, checked on the result (the person cannot change:
 * 400 on user_id). 404 for an expense the caller does not see; 412 for a stale If-Match; 403 when the caller may not write it;
 * 409 when it is locked or its week (old or new) is locked; 400 for bad fields.
 * A receipt replaces the stored one; `delete_receipt: true` removes it. A PATCH
 * that changes nothing writes nothing.
 */
export async function updateExpense(
  db: Kysely<DB>,
  p: Principal,
  id: string,
  input: ExpenseInput,
  receipt: ReceiptUpload | null,
  { now, precondition }: { now: Date; precondition?: Precondition },
): Promise<ExpenseRow> {
  if (receipt && input.delete_receipt === true) {
    throw badRequest('Send either a receipt or delete_receipt: true, not both.', { field: 'delete_receipt' });
  }
  const spentDate = input.spent_date === undefined ? undefined : parseSpentDate(input.spent_date);
  const notes = input.notes === undefined ? undefined : parseNotes(input.notes);
  const metadata = input.metadata === undefined ? undefined : parseMetadata(input.metadata);
  return withTenant(db, p.companyId, async (trx) => {
    const row = await visibleOrThrow(trx, p, id, true);
    precondition?.(row);
    const current = await loadProjectContext(trx, p.companyId, { projectId: row.project_id, personId: row.user_id, callerId: p.userId });
    if (!current || !(await mayWrite(trx, p, row.user_id, current)).allowed) {
      throw forbidden('You may not change this expense.');
    }
    const settings = await loadExpenseSettings(trx, p.companyId);
    assertNotLocked(row, 'expense', settings.week_start);

    const personId = row.user_id;
    // Ids are UUIDs, equal whatever their case: the same id in capitals is no move.
    const projectId = input.project_id === undefined ? row.project_id : input.project_id.toLowerCase();
    const project = projectId !== row.project_id ? await projectForWrite(trx, p, projectId, personId) : current;

    const categoryId = input.expense_category_id?.toLowerCase();
    const categoryChanged = categoryId !== undefined && categoryId !== row.expense_category_id;
    const category = categoryChanged
      ? await categoryForWrite(trx, p.companyId, categoryId)
      : { id: row.expense_category_id, name: row.category_name, unit_price: row.category_unit_price };
    const amount = resolveAmount(input, {
      current: { units: row.units, total_cost: row.total_cost },
      category,
      categoryChanged,
      currency: project.currency,
      decimalsChanged: costDecimals(project.currency) !== costDecimals(current.currency),
    });

    const next: ExpenseColumns = {
      user_id: personId,
      project_id: project.project_id,
      expense_category_id: category.id,
      spent_date: spentDate ?? row.spent_date,
      units: amount.units,
      total_cost: amount.total_cost,
      notes: notes === undefined ? row.notes : notes,
      // Moved to another project without `billable`: the new project's default (as a time entry follows its new assignment).
      billable: input.billable ?? (projectId !== row.project_id ? project.project_billable : row.billable),
      metadata: metadata === undefined ? (row.metadata === null ? null : JSON.stringify(row.metadata)) : metadata,
      receipt_file_id: input.delete_receipt === true ? null : row.receipt_file_id,
    };
    const changes = changedColumns(row, next);
    if (Object.keys(changes).length === 0 && !receipt) return row;

    await assertWeeksOpen(trx, p.companyId, personId, [row.spent_date, next.spent_date], settings.week_start);

    let file: FileInfo | null = null;
    if (receipt) {
      file = await storeReceipt(trx, p.companyId, receipt, now);
      changes.receipt_file_id = file.id;
    }
    await updateExpenseColumns(trx, p.companyId, row.id, changes, now);
    if (changes.receipt_file_id !== undefined) await dropReceipt(trx, p.companyId, row.receipt_file_id, row.id);
    const { receipt_file_id: _file, ...changed } = changes;
    await audit(trx, {
      ...auditActor(p),
      action: 'expense.updated',
      subjectType: 'expense',
      subjectId: row.id,
      details: {
        changes: changed,
        ...(file ? { receipt: receiptDetails(file) } : input.delete_receipt === true && row.receipt_file_id ? { receipt: null } : {}),
      },
    });
    return (await findExpense(trx, p.companyId, row.id))!;
  });
}

/** DELETE: 404, 412 (If-Match), 403, 409 (locked, or a locked week), then the expense and its receipt go. */
export async function deleteExpense(db: Kysely<DB>, p: Principal, id: string, { precondition }: { precondition?: Precondition }) {
  await withTenant(db, p.companyId, async (trx) => {
    const row = await visibleOrThrow(trx, p, id, true);
    precondition?.(row);
    const current = await loadProjectContext(trx, p.companyId, { projectId: row.project_id, personId: row.user_id, callerId: p.userId });
    if (!current || !(await mayWrite(trx, p, row.user_id, current)).allowed) throw forbidden('You may not delete this expense.');
    const settings = await loadExpenseSettings(trx, p.companyId);
    assertNotLocked(row, 'expense', settings.week_start, 'deleted');
    await assertWeeksOpen(trx, p.companyId, row.user_id, [row.spent_date], settings.week_start);
    await deleteExpenseRow(trx, p.companyId, row.id);
    await dropReceipt(trx, p.companyId, row.receipt_file_id, row.id);
    await audit(trx, {
      ...auditActor(p),
      action: 'expense.deleted',
      subjectType: 'expense',
      subjectId: row.id,
      details: { user_id: row.user_id, project_id: row.project_id, spent_date: row.spent_date, total_cost: row.total_cost },
    });
  });
}

// ---- the web app's expense screens ----

/** What the expense form picks from: today, the projects (with those in `include`) and the categories. */
async function choicesOf(trx: Tx, p: Principal, now: Date, include?: ReadonlySet<string>) {
  const settings = await loadTimeSettings(trx, p.companyId);
  const projects = await expenseProjects(trx, p, include);
  const categories = await expenseCategories(trx, p.companyId);
  return {
    today: todayIn(settings.timezone, now),
    projects,
    categories: categories.map((c) => ({ ...c, unit_price: c.unit_price === null ? null : Number(c.unit_price) })),
  };
}

export interface SheetQuery {
  from?: string;
  to?: string;
  project_id?: string;
  expense_category_id?: string;
  user_id?: string;
}

/**
 * A page of a person's expenses (the caller's, or one they may see: sheetPerson) as the
 * API presents them, each with its project's name and currency, and the form's choices.
 */
export function expenseSheet(db: Kysely<DB>, p: Principal, query: SheetQuery, page: PageParams, now: Date) {
  checkSpentRange(query.from, query.to);
  return withTenant(db, p.companyId, async (trx) => {
    const user = await sheetPerson(trx, p, query.user_id);
    const filter = { userId: user.id, from: query.from, to: query.to, projectId: query.project_id, categoryId: query.expense_category_id };
    const { rows, total } = await listExpenseRows(trx, p.companyId, p, filter, page);
    // The listed expenses' projects are always among the choices (asked for by id).
    const choices = await choicesOf(trx, p, now, new Set(rows.map((row) => row.project_id)));
    const byId = new Map(choices.projects.map((project) => [project.id, project]));
    const expenses = rows.map((row) => {
      const project = byId.get(row.project_id)!;
      return { ...presentExpense(row), project: { id: project.id, name: project.name, client_name: project.client_name }, currency: project.currency };
    });
    return { user, expenses, total, ...choices };
  });
}

/** The form's choices; the project of `expenseId` among them when the caller sees that expense. */
export function expenseChoices(db: Kysely<DB>, p: Principal, expenseId: string | undefined, now: Date) {
  return withTenant(db, p.companyId, async (trx) => {
    // An expense the caller may not see adds nothing (the form's own GET answers 404 for it).
    const expense = expenseId ? await findExpense(trx, p.companyId, expenseId, { visibleTo: p }) : undefined;
    return choicesOf(trx, p, now, new Set(expense ? [expense.project_id] : []));
  });
}
