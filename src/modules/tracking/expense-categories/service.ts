import { sql, type InferResult, type Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { auditActor } from '../../../access/operator.ts';
import { hasPermission } from '../../../access/policy.ts';
import type { DB } from '../../../db/types.ts';
import { columnsOf, nameRace, nameTaken as nameTakenIn, nameTakenError } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { forbidden, notFound } from '../../../errors.ts';
import { fetchPage, type PageParams } from '../../../http/pagination.ts';
import { isId, newId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import {
  LLM_USAGE_CATEGORY,
  NEW_CATEGORY,
  STARTER_CATEGORIES,
  applyCategoryInput,
  changedCategoryColumns,
  type CategoryInput,
  type CategoryState,
} from './rules.ts';

/**
 * Expense categories of a workspace. Everyone who may record expenses reads
 * them; creating and changing them needs the permission to edit clients and
 * tasks (owners, administrators, managers with `edit_clients_and_tasks`), the
 * same that maintains the workspace's other shared lists. The actor is an API
 * caller, a web session or, for `sheaf admin`, the operator (src/access/operator.ts).
 * Categories are archived (`is_active: false`), never deleted: expenses point
 * at them.
 */

/** A category as the queries load it. */
export type CategoryRow = InferResult<ReturnType<typeof categorySelect>>[number];

/** Create and change expense categories. */
export const mayWriteExpenseCategories = (actor: Principal) => hasPermission(actor, 'edit_clients_and_tasks');

const COLUMNS = ['id', 'name', 'unit_name', 'unit_price', 'is_active', 'created_at', 'updated_at'] as const;

const categorySelect = (trx: Tx, companyId: string) => trx.selectFrom('expense_categories').select(COLUMNS).where('company_id', '=', companyId);

const CATEGORY = 'An expense category';

const stateOf = (row: CategoryRow): CategoryState => columnsOf(row, ['name', 'unit_name', 'unit_price', 'is_active']);

// ---- queries (workspace id first) ----

export async function findCategory(trx: Tx, companyId: string, id: string, { lock = false } = {}): Promise<CategoryRow | undefined> {
  if (!isId(id)) return undefined;
  let query = categorySelect(trx, companyId).where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

async function findCategoryByName(trx: Tx, companyId: string, name: string): Promise<CategoryRow | undefined> {
  return categorySelect(trx, companyId)
    .where(sql`lower(name)`, '=', name.trim().toLowerCase())
    .executeTakeFirst();
}

const nameTaken = (trx: Tx, companyId: string, name: string, exceptId?: string) =>
  nameTakenIn(trx, 'expense_categories', companyId, name, exceptId);

export interface CategoryFilter {
  isActive?: boolean;
}

// ---- operations ----

/** One page of the workspace's categories, by name (ignoring case) then id. */
export function listCategories(db: Kysely<DB>, companyId: string, filter: CategoryFilter, page: PageParams) {
  return withTenant(db, companyId, async (trx) => {
    let query = categorySelect(trx, companyId);
    if (filter.isActive !== undefined) query = query.where('is_active', '=', filter.isActive);
    return fetchPage(query.orderBy(sql`lower(name)`).orderBy('id'), page);
  });
}

export function getCategory(db: Kysely<DB>, companyId: string, id: string): Promise<CategoryRow> {
  return withTenant(db, companyId, async (trx) => {
    const row = await findCategory(trx, companyId, id);
    if (!row) throw notFound('expense category');
    return row;
  });
}

/** A category by id or by name (ignoring case), for the command line. */
export function resolveCategory(db: Kysely<DB>, companyId: string, ref: string): Promise<CategoryRow> {
  return withTenant(db, companyId, async (trx) => {
    const row = (await findCategory(trx, companyId, ref)) ?? (await findCategoryByName(trx, companyId, ref));
    if (!row) throw notFound('expense category');
    return row;
  });
}

export async function createCategory(db: Kysely<DB>, companyId: string, actor: Principal, input: CategoryInput & { name: string }, now: Date) {
  if (!mayWriteExpenseCategories(actor)) throw forbidden('Your role does not allow creating expense categories.');
  const state = applyCategoryInput({ ...NEW_CATEGORY, name: '' }, input);
  const id = newId(now.getTime());
  try {
    return await withTenant(db, companyId, async (trx) => {
      if (await nameTaken(trx, companyId, state.name)) throw nameTakenError(CATEGORY, state.name);
      const row = await trx
        .insertInto('expense_categories')
        .values({ company_id: companyId, id, ...state, created_at: now, updated_at: now })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      await audit(trx, {
        ...auditActor(actor),
        action: 'expense_category.created',
        subjectType: 'expense_category',
        subjectId: id,
        details: { ...state },
      });
      return row;
    });
  } catch (err) {
    throw nameRace(err, CATEGORY, state.name);
  }
}

/**
 * PATCH: the writable properties given, checked on the merged state. A PATCH
 * that changes nothing writes nothing (same `updated_at`). A new unit price
 * applies to expenses entered (or re-priced) from then on; recorded expenses
 * keep their total.
 */
export async function updateCategory(db: Kysely<DB>, companyId: string, actor: Principal, id: string, input: CategoryInput, now: Date) {
  if (!mayWriteExpenseCategories(actor)) throw forbidden('Your role does not allow changing expense categories.');
  try {
    return await withTenant(db, companyId, async (trx) => {
      const row = await findCategory(trx, companyId, id, { lock: true });
      if (!row) throw notFound('expense category');
      const before = stateOf(row);
      const changes = changedCategoryColumns(before, applyCategoryInput(before, input));
      if (Object.keys(changes).length === 0) return row;
      if (changes.name !== undefined && (await nameTaken(trx, companyId, changes.name, row.id))) throw nameTakenError(CATEGORY, changes.name);
      const updated = await trx
        .updateTable('expense_categories')
        .set({ ...changes, updated_at: now })
        .where('company_id', '=', companyId)
        .where('id', '=', row.id)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      const action =
        changes.is_active === false ? 'expense_category.archived' : changes.is_active === true ? 'expense_category.restored' : 'expense_category.updated';
      await audit(trx, { ...auditActor(actor), action, subjectType: 'expense_category', subjectId: row.id, details: { changes } });
      return updated;
    });
  } catch (err) {
    throw nameRace(err, CATEGORY, input.name?.trim());
  }
}

/**
 * The categories a new workspace starts with: one for LLM usage, or with
 * `starter` the STARTER_CATEGORIES (which include it). Runs in the
 * workspace-creating transaction (as the database owner, like createWorkspace).
 * Existing workspaces are never given categories this way.
 */
export async function seedExpenseCategories(trx: Kysely<DB>, companyId: string, now = new Date(), { starter = false } = {}) {
  const seeds = starter ? STARTER_CATEGORIES : [{ name: LLM_USAGE_CATEGORY, unit_name: null, unit_price: null }];
  await trx
    .insertInto('expense_categories')
    .values(seeds.map((c) => ({ company_id: companyId, id: newId(now.getTime()), ...c, created_at: now, updated_at: now })))
    .execute();
}

/** A category as the API and the command line show it (the price as a JSON number). */
export function presentCategory(row: CategoryRow) {
  return {
    id: row.id,
    name: row.name,
    unit_name: row.unit_name,
    unit_price: row.unit_price === null ? null : Number(row.unit_price),
    is_active: row.is_active,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type PresentedCategory = ReturnType<typeof presentCategory>;
