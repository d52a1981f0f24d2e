import { sql, type InferResult } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';
import { isId } from '../../../ids.ts';

/** SQL of invoice item categories; every function takes the workspace id first. */

const COLUMNS = ['id', 'name', 'is_builtin', 'is_active', 'created_at', 'updated_at'] as const;

const categorySelect = (trx: Tx, companyId: string) => trx.selectFrom('invoice_item_categories').select(COLUMNS).where('company_id', '=', companyId);

export type ItemCategoryRow = InferResult<ReturnType<typeof categorySelect>>[number];

/** The workspace's categories (or only the active or archived ones), by name ignoring case, then id. */
export function listCategoryRows(trx: Tx, companyId: string, filter: { isActive?: boolean } = {}) {
  let query = categorySelect(trx, companyId);
  if (filter.isActive !== undefined) query = query.where('is_active', '=', filter.isActive);
  return query.orderBy(sql`lower(name)`).orderBy('id').execute();
}

export async function findCategoryRow(trx: Tx, companyId: string, id: string, { lock = false } = {}): Promise<ItemCategoryRow | undefined> {
  if (!isId(id)) return undefined;
  let query = categorySelect(trx, companyId).where('id', '=', id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export function findCategoryRowByName(trx: Tx, companyId: string, name: string): Promise<ItemCategoryRow | undefined> {
  return categorySelect(trx, companyId)
    .where(sql`lower(name)`, '=', name.trim().toLowerCase())
    .executeTakeFirst();
}

export function insertCategoryRow(trx: Tx, companyId: string, id: string, name: string, now: Date) {
  return trx
    .insertInto('invoice_item_categories')
    .values({ company_id: companyId, id, name, created_at: now, updated_at: now })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export function updateCategoryRow(trx: Tx, companyId: string, id: string, changes: { name?: string; is_active?: boolean }, now: Date) {
  return trx
    .updateTable('invoice_item_categories')
    .set({ ...changes, updated_at: now })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}
