import type { Static } from '@sinclair/typebox';
import { Decimal } from 'decimal.js';
import { changedColumns } from '../../../db/rows.ts';
import { badRequest } from '../../../errors.ts';
import { sameDecimal } from '../../../money.ts';
import type { PatchBody } from './schemas.ts';

/**
 * Pure rules for expense categories: a name unique in the workspace (ignoring
 * case), an optional unit (`unit_name` and `unit_price`, both or neither) and
 * `is_active`. No I/O.
 */

/** The category every workspace starts with, for LLM cost expenses (the spec's "category named for LLM usage"). */
export const LLM_USAGE_CATEGORY = 'LLM usage';

/** The mileage category's unit and its starting price per unit (in the currency of each expense's project). */
export const MILEAGE_UNIT = 'km';
export const MILEAGE_UNIT_PRICE = '0.30';

/**
 * The categories a workspace provisioned for people (first start, `sheaf admin
 * workspace create`) starts with, so a first expense has a fitting one. Mileage is
 * priced per kilometre: 0.30 is a common round figure (Germany's allowance is 0.30
 * EUR/km), meant to be changed to the local rate. A unit price has no currency: it
 * applies in the currency of each expense's project. LLM usage stays as before.
 */
export const STARTER_CATEGORIES: ReadonlyArray<Pick<CategoryState, 'name' | 'unit_name' | 'unit_price'>> = [
  { name: 'Travel', unit_name: null, unit_price: null },
  { name: 'Meals', unit_name: null, unit_price: null },
  { name: 'Software and subscriptions', unit_name: null, unit_price: null },
  { name: 'Equipment', unit_name: null, unit_price: null },
  { name: 'Mileage', unit_name: MILEAGE_UNIT, unit_price: MILEAGE_UNIT_PRICE },
  { name: LLM_USAGE_CATEGORY, unit_name: null, unit_price: null },
];

export const CATEGORY_NAME_MAX = 255;
export const UNIT_NAME_MAX = 64;
/** `unit_price`: NUMERIC(14, 6) (migration 0012), so per-token prices fit. */
export const UNIT_PRICE_DECIMALS = 6;
export const UNIT_PRICE_MAX = new Decimal('99999999.999999');

export const CATEGORY_WRITABLE = ['name', 'unit_name', 'unit_price', 'is_active'] as const;
export const CATEGORY_READ_ONLY = ['id', 'created_at', 'updated_at'] as const;

/** A create or update body's properties; the command line also gives `unit_price` as decimal text. */
export type CategoryInput = Omit<Static<typeof PatchBody>, 'unit_price'> & { unit_price?: number | string | null };

/** The stored form of a category's writable state (the price as an exact decimal string). */
export interface CategoryState {
  name: string;
  unit_name: string | null;
  unit_price: string | null;
  is_active: boolean;
}

/** PostgreSQL text cannot hold the NUL character. */
const NUL_REFUSED = (field: string) => `${field} cannot contain the NUL character.`;

export const NEW_CATEGORY: Omit<CategoryState, 'name'> = { unit_name: null, unit_price: null, is_active: true };

/** A unit price: a number (or, from the command line, its decimal text) ≥ 0 with at most six decimals. */
export function parseUnitPrice(value: number | string): string {
  const field = 'unit_price';
  let d: Decimal;
  try {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('not finite');
    if (typeof value === 'string' && !/^\d+(\.\d+)?$/.test(value.trim())) throw new Error('not a decimal');
    d = new Decimal(typeof value === 'string' ? value.trim() : value);
  } catch {
    throw badRequest('unit_price must be a number of at least 0.', { field });
  }
  if (d.isNegative()) throw badRequest('unit_price must be at least 0.', { field });
  if (d.decimalPlaces() > UNIT_PRICE_DECIMALS) throw badRequest(`unit_price takes at most ${UNIT_PRICE_DECIMALS} decimal places.`, { field });
  if (d.gt(UNIT_PRICE_MAX)) throw badRequest(`unit_price must be at most ${UNIT_PRICE_MAX.toFixed()}.`, { field });
  return d.toFixed();
}

/**
 * Applies a create or update body to the current state and returns the next
 * one: `name` trimmed, 1..255, not blank; `unit_name` trimmed, up to 64 (blank:
 * null); `unit_price` as above; and the unit complete or absent: a unit name
 * needs a price and a price needs a unit name (400 naming the missing one).
 */
export function applyCategoryInput(current: CategoryState, input: CategoryInput): CategoryState {
  const next: CategoryState = { ...current };
  if (input.name !== undefined) {
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name || name.length > CATEGORY_NAME_MAX) {
      throw badRequest(`name must be 1 to ${CATEGORY_NAME_MAX} characters, not blank.`, { field: 'name' });
    }
    if (name.includes('\u0000')) throw badRequest(NUL_REFUSED('name'), { field: 'name' });
    next.name = name;
  }
  if (input.unit_name !== undefined) {
    if (input.unit_name !== null && typeof input.unit_name !== 'string') throw badRequest('unit_name must be text or null.', { field: 'unit_name' });
    const unit = input.unit_name === null ? '' : input.unit_name.trim();
    if (unit.length > UNIT_NAME_MAX) throw badRequest(`unit_name must be at most ${UNIT_NAME_MAX} characters.`, { field: 'unit_name' });
    if (unit.includes('\u0000')) throw badRequest(NUL_REFUSED('unit_name'), { field: 'unit_name' });
    next.unit_name = unit === '' ? null : unit;
  }
  if (input.unit_price !== undefined) next.unit_price = input.unit_price === null ? null : parseUnitPrice(input.unit_price);
  if (input.is_active !== undefined) next.is_active = input.is_active;
  if ((next.unit_name === null) !== (next.unit_price === null)) {
    const missing = next.unit_name === null ? 'unit_name' : 'unit_price';
    throw badRequest('unit_name and unit_price go together: set both, or clear both with null.', { field: missing });
  }
  return next;
}

/** The columns whose value differs (an unchanged PATCH writes nothing). */
export const changedCategoryColumns = (before: CategoryState, after: CategoryState) => changedColumns(before, after, { unit_price: sameDecimal });
