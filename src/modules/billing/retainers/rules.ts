import { Decimal } from 'decimal.js';
import { badRequest } from '../../../errors.ts';
import { minorUnitDigits } from '../../../money.ts';

/**
 * Pure retainer rules (no I/O). A retainer holds a client's prepaid funds in one
 * currency: funding lines of paid retainer invoices add to it, credit lines of
 * invoices that are not voided draw on it (retainer_balance() in migration 0085 is
 * the one definition of the balance; entryCounts below says the same per entry, for
 * the history, and a test holds the two equal). Failures are 400 naming the field.
 */

export const NAME_MAX = 255;
export const DESCRIPTION_MAX = 10_000;
/** The largest amount one funding or credit line takes (what an invoice line may reach). */
export const MAX_AMOUNT = new Decimal('999999999999.99');

/** A retainer's name: trimmed, 1..255 characters, no control characters. */
export function retainerName(value: string): string {
  const name = value.trim();
  if (!name) throw badRequest('name must not be blank.', { field: 'name' });
  if (name.length > NAME_MAX) throw badRequest(`name must be at most ${NAME_MAX} characters.`, { field: 'name' });
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw badRequest('name must not contain control characters.', { field: 'name' });
  return name;
}

/** An optional description: blank is null; at most 10,000 characters; no NUL. */
export function retainerDescription(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (value.includes('\u0000')) throw badRequest('description cannot contain the NUL character.', { field: 'description' });
  const text = value.trim();
  if (!text) return null;
  if (text.length > DESCRIPTION_MAX) throw badRequest(`description must be at most ${DESCRIPTION_MAX} characters.`, { field: 'description' });
  return text;
}

/**
 * An amount of money in `currency` from a JSON number: more than 0, at most the
 * currency's minor-unit digits (read through the number's shortest text, so the
 * digits are the ones sent), at most MAX_AMOUNT. The exact decimal string.
 */
export function amountValue(value: unknown, currency: string, field = 'amount'): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest(`${field} must be a number.`, { field });
  const amount = new Decimal(String(value));
  const digits = minorUnitDigits(currency);
  if (!amount.gt(0) || amount.decimalPlaces() > digits) {
    throw badRequest(`${field} must be more than 0, with at most ${digits} decimal places in ${currency}.`, { field });
  }
  if (amount.gt(MAX_AMOUNT)) throw badRequest(`${field} must be at most ${MAX_AMOUNT.toFixed()}.`, { field });
  return amount.toFixed();
}

/**
 * A draw: the amount must fit both what the retainer holds and what the invoice still
 * asks for (its amount due before the credit), so neither goes below 0.
 */
export function assertDrawFits(amount: Decimal.Value, balance: Decimal.Value, due: Decimal.Value, currency: string, field = 'amount') {
  const digits = minorUnitDigits(currency);
  if (new Decimal(amount).gt(balance)) {
    throw badRequest(`${field} is more than the ${new Decimal(balance).toFixed(digits)} ${currency} the retainer holds.`, { field });
  }
  if (new Decimal(amount).gt(due)) {
    throw badRequest(`${field} is more than the ${new Decimal(due).toFixed(digits)} ${currency} the invoice asks for.`, { field });
  }
}

export type EntryKind = 'funding' | 'credit';

/**
 * Whether a retainer line counts in the balance now, as retainer_balance() counts it:
 * a funding line once its invoice is paid; a credit line unless its invoice is voided.
 */
export function entryCounts(kind: EntryKind, invoiceState: string): boolean {
  return kind === 'funding' ? invoiceState === 'paid' : invoiceState !== 'voided';
}

/** A funding line waiting for its invoice's payment (draft or open): the history's "awaiting payment". */
export const entryPending = (kind: EntryKind, invoiceState: string) => kind === 'funding' && (invoiceState === 'draft' || invoiceState === 'open');
