import { Decimal } from 'decimal.js';
import type { ExpenseSource } from '../../../db/types.ts';
import { badRequest } from '../../../errors.ts';
import { minorUnitDigits } from '../../../money.ts';
import { checkMetadata, checkNotes } from '../time/index.ts';
import { checkSpentDate, isRuleError } from '../week/index.ts';

/**
 * Pure rules for expenses: the amount (`total_cost`, or `units` × the category's
 * unit price), the values of the other fields, and which fields a body may
 * carry. No I/O; money is decimal.js, never a binary float.
 */

export const EXPENSE_SOURCES = ['web', 'cli', 'api', 'agent'] as const satisfies readonly ExpenseSource[];
export const DEFAULT_EXPENSE_SOURCE: ExpenseSource = 'api';

/** `units`: NUMERIC(12, 4), more than 0. */
export const UNITS_DECIMALS = 4;
export const UNITS_MAX = new Decimal('99999999.9999');
/** `total_cost`: NUMERIC(14, 2), at least 0. */
export const TOTAL_COST_MAX = new Decimal('999999999999.99');
export const STORED_COST_DECIMALS = 2;

/** Properties of the response a body may not set: 400 naming them. */
export const EXPENSE_READ_ONLY = [
  'id',
  'is_billed',
  'is_locked',
  'is_closed',
  'approval_status',
  'expense_category',
  'receipt_download_url',
  'created_at',
  'updated_at',
] as const;

/**
 * Decimal places an expense amount takes in a currency: the currency's minor
 * unit (JPY 0, EUR 2), at most the two the column stores (three-decimal
 * currencies such as BHD are kept to two; docs/decisions.md).
 */
export const costDecimals = (currency: string) => Math.min(minorUnitDigits(currency), STORED_COST_DECIMALS);

/** A given `total_cost`: at least 0, at most the currency's decimals, within the column. */
export function parseTotalCost(value: number, decimals: number, currency: string): string {
  const field = 'total_cost';
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest('total_cost must be a number.', { field });
  // -0 (a float computation's zero) is 0, not a negative amount.
  const d = new Decimal(value === 0 ? 0 : value);
  if (d.isNegative()) throw badRequest('total_cost must be at least 0.', { field });
  if (d.decimalPlaces() > decimals) {
    throw badRequest(`total_cost takes at most ${decimals} decimal place(s) in ${currency}.`, { field });
  }
  if (d.gt(TOTAL_COST_MAX)) throw badRequest(`total_cost must be at most ${TOTAL_COST_MAX.toFixed()}.`, { field });
  return d.toFixed(decimals);
}

/** A given `units`: more than 0, at most four decimal places, within the column. */
export function parseUnits(value: number): Decimal {
  const field = 'units';
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest('units must be a number.', { field });
  const d = new Decimal(value);
  if (!d.isPositive() || d.isZero()) throw badRequest('units must be more than 0.', { field });
  if (d.decimalPlaces() > UNITS_DECIMALS) throw badRequest(`units takes at most ${UNITS_DECIMALS} decimal places.`, { field });
  if (d.gt(UNITS_MAX)) throw badRequest(`units must be at most ${UNITS_MAX.toFixed()}.`, { field });
  return d;
}

/** units × unit price, rounded half up to `decimals` places. */
export function unitTotal(units: Decimal.Value, unitPrice: Decimal.Value, decimals: number): Decimal {
  return new Decimal(units).mul(unitPrice).toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP);
}

/** How an expense's amount is stored: `units` (null when entered as a total) and `total_cost`. */
export interface Amount {
  units: string | null;
  total_cost: string;
}

export interface CategoryPrice {
  name: string;
  unit_price: string | null;
}

/**
 * The amount after a create or update body.
 *
 * - Exactly one of `total_cost` and `units` on create; at most one on update (400).
 * - `units` needs a category with a unit price: total = units × unit price,
 *   rounded half up to the currency's minor unit.
 * - `total_cost` alone makes it a plain amount (units cleared).
 * - An update naming neither keeps the amount, except that a unit-priced
 *   expense moved to another category, or to a project whose currency takes other
 *   decimal places, is re-priced from its units; a plain amount must fit the new currency.
 */
export function resolveAmount(
  input: { total_cost?: number; units?: number },
  ctx: {
    current: Amount | null;
    category: CategoryPrice;
    categoryChanged: boolean;
    currency: string;
    /** The expense moved to a project whose currency takes other decimal places. */
    decimalsChanged: boolean;
  },
): Amount {
  const decimals = costDecimals(ctx.currency);
  const hasCost = input.total_cost !== undefined;
  const hasUnits = input.units !== undefined;
  if (hasCost && hasUnits) {
    throw badRequest('Send either total_cost or units, not both.', { field: 'units' });
  }
  const fromUnits = (units: Decimal.Value, field: string): Amount => {
    if (ctx.category.unit_price === null) {
      throw badRequest(`The category '${ctx.category.name}' has no unit price; send total_cost instead of units.`, { field });
    }
    const total = unitTotal(units, ctx.category.unit_price, decimals);
    if (total.gt(TOTAL_COST_MAX)) {
      throw badRequest(`units × unit price (${total.toFixed()}) is more than ${TOTAL_COST_MAX.toFixed()}.`, { field });
    }
    return { units: new Decimal(units).toFixed(), total_cost: total.toFixed(decimals) };
  };
  if (hasCost) return { units: null, total_cost: parseTotalCost(input.total_cost!, decimals, ctx.currency) };
  if (hasUnits) return fromUnits(parseUnits(input.units!), 'units');
  if (ctx.current === null) {
    throw badRequest('Send exactly one of total_cost or units.', { field: 'total_cost' });
  }
  if (ctx.current.units !== null && (ctx.categoryChanged || ctx.decimalsChanged)) {
    return fromUnits(ctx.current.units, 'expense_category_id');
  }
  if (ctx.decimalsChanged && new Decimal(ctx.current.total_cost).decimalPlaces() > decimals) {
    throw badRequest(`total_cost (${ctx.current.total_cost}) does not fit ${ctx.currency}; send total_cost with the project change.`, {
      field: 'total_cost',
    });
  }
  return ctx.current;
}

/** `spent_date`: the time entries' rule. */
export function parseSpentDate(value: string): string {
  const result = checkSpentDate(value);
  if (isRuleError(result)) throw badRequest(result.message, { field: result.field });
  return result;
}

/** A list's spent_date range (from..to, inclusive, either open): 400 when to is before from. */
export function checkSpentRange(from: string | undefined, to: string | undefined): void {
  if (from && to && from > to) throw badRequest('to must not be before from.', { field: 'to' });
}

/** `notes`: at most 10,000 characters, kept as written; blank is null (the time entries' rule). */
export function parseNotes(value: string | null): string | null {
  const result = checkNotes(value);
  if (isRuleError(result)) throw badRequest(result.message, { field: result.field });
  return result;
}

/** `metadata`: a JSON object of at most 4 KB, or null (the time entries' rule); stored as JSON text. */
export function parseMetadata(value: Record<string, unknown> | null): string | null {
  if (value === null) return null;
  const error = checkMetadata(value);
  if (error) throw badRequest(error.message, { field: error.field });
  return JSON.stringify(value);
}
