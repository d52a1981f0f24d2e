import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { auditActor } from '../../../access/operator.ts';
import { mayCloseInvoices, mayUseInvoices } from '../../../access/invoices.ts';
import type { DB } from '../../../db/types.ts';
import { nameRace, nameTaken, nameTakenError } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { conflict, forbidden, notFound } from '../../../errors.ts';
import { newId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import { findCategoryRow, findCategoryRowByName, insertCategoryRow, listCategoryRows, updateCategoryRow, type ItemCategoryRow } from './queries.ts';
import { BUILTIN_CATEGORIES, categoryName } from './rules.ts';
import type { PatchInput } from './schemas.ts';

/**
 * Invoice item categories (issue 25 item 3; web app and `sheaf admin` only, the
 * API has none). Whoever uses invoices reads them (the line editor's kind
 * picker); owners and administrators (and the operator) add, rename, archive and
 * restore them, as they administer the rest of invoicing. Categories are never
 * deleted, and a change touches no invoice line: a line keeps the kind text it
 * was given, as Harvest does.
 */

const CATEGORY = 'An invoice item category';

/** Adding, renaming and archiving: owners and administrators (the rule that closes and voids invoices). */
export const mayWriteItemCategories = (p: Principal) => mayCloseInvoices(p);

function assertMayRead(p: Principal) {
  if (!mayUseInvoices(p)) throw forbidden('Invoice item categories are for owners, administrators and managers.');
}

function assertMayWrite(p: Principal) {
  if (!mayWriteItemCategories(p)) throw forbidden('Only owners and administrators may change invoice item categories.');
}

export function listItemCategories(db: Kysely<DB>, p: Principal, filter: { isActive?: boolean } = {}): Promise<ItemCategoryRow[]> {
  assertMayRead(p);
  return withTenant(db, p.companyId, (trx) => listCategoryRows(trx, p.companyId, filter));
}

/** A category by id or by name (ignoring case), for the command line. */
export function resolveItemCategory(db: Kysely<DB>, p: Principal, ref: string): Promise<ItemCategoryRow> {
  assertMayRead(p);
  return withTenant(db, p.companyId, async (trx) => {
    const row = (await findCategoryRow(trx, p.companyId, ref)) ?? (await findCategoryRowByName(trx, p.companyId, ref));
    if (!row) throw notFound('invoice item category');
    return row;
  });
}

export async function createItemCategory(db: Kysely<DB>, p: Principal, input: { name: unknown }, now: Date): Promise<ItemCategoryRow> {
  assertMayWrite(p);
  const name = categoryName(input.name);
  try {
    return await withTenant(db, p.companyId, async (trx) => {
      if (await nameTaken(trx, 'invoice_item_categories', p.companyId, name)) throw nameTakenError(CATEGORY, name);
      const row = await insertCategoryRow(trx, p.companyId, newId(now.getTime()), name, now);
      await audit(trx, { ...auditActor(p), action: 'invoice_item_category.created', subjectType: 'invoice_item_category', subjectId: row.id, details: { name } });
      return row;
    });
  } catch (err) {
    throw nameRace(err, CATEGORY, name);
  }
}

/**
 * Rename, archive or restore. The built-in Service and Product are neither renamed
 * nor archived (409). A change that changes nothing writes nothing. Lines that name
 * the category keep their text; an archived category stays valid on them.
 */
export async function updateItemCategory(db: Kysely<DB>, p: Principal, id: string, input: PatchInput, now: Date): Promise<ItemCategoryRow> {
  assertMayWrite(p);
  const name = input.name === undefined ? undefined : categoryName(input.name);
  try {
    return await withTenant(db, p.companyId, async (trx) => {
      const row = await findCategoryRow(trx, p.companyId, id, { lock: true });
      if (!row) throw notFound('invoice item category');
      const changes: { name?: string; is_active?: boolean } = {};
      if (name !== undefined && name !== row.name) changes.name = name;
      if (input.is_active !== undefined && input.is_active !== row.is_active) changes.is_active = input.is_active;
      if (Object.keys(changes).length === 0) return row;
      if (row.is_builtin) {
        const field = changes.name !== undefined ? 'name' : 'is_active';
        throw conflict(`${row.name} is built in: it is never renamed or archived.`, { field });
      }
      if (changes.name !== undefined && (await nameTaken(trx, 'invoice_item_categories', p.companyId, changes.name, row.id))) {
        throw nameTakenError(CATEGORY, changes.name);
      }
      const updated = await updateCategoryRow(trx, p.companyId, row.id, changes, now);
      const action =
        changes.is_active === false
          ? 'invoice_item_category.archived'
          : changes.is_active === true
            ? 'invoice_item_category.restored'
            : 'invoice_item_category.renamed';
      await audit(trx, { ...auditActor(p), action, subjectType: 'invoice_item_category', subjectId: row.id, details: { changes, before: row.name } });
      return updated;
    });
  } catch (err) {
    throw nameRace(err, CATEGORY, name);
  }
}

/**
 * The names of the workspace's active categories, read in the caller's transaction: what
 * a line's kind is checked against (rules.ts matchKind).
 */
export async function activeKindNames(trx: Tx, companyId: string): Promise<string[]> {
  return (await listCategoryRows(trx, companyId, { isActive: true })).map((c) => c.name);
}

/** The built-in categories of a new workspace, in the workspace-creating transaction (as the database owner). */
export async function seedItemCategories(trx: Kysely<DB>, companyId: string, now = new Date()) {
  await trx
    .insertInto('invoice_item_categories')
    .values(BUILTIN_CATEGORIES.map((name) => ({ company_id: companyId, id: newId(now.getTime()), name, is_builtin: true, created_at: now, updated_at: now })))
    .execute();
}
