import { Decimal } from 'decimal.js';
import { minorUnitDigits } from '../../../money.ts';

/**
 * Invoice arithmetic (DESIGN.md "Invoice arithmetic"), in decimals:
 * - a line's amount is quantity × unit_price, rounded half up to the currency's
 *   minor unit; credit lines subtract;
 * - subtotal is the sum of the (signed) line amounts;
 * - discount_amount is subtotal × discount %, leaving out the lines linked to a
 *   retainer (`retainer`: its funding line, or a credit drawing on it): prepaid
 *   money is not discounted (docs/decisions.md, "Retainers");
 * - each tax applies to the discounted sum of the lines flagged for it: that sum less its share
 *   of the discount, the share rounded as the discount is, so the base is a figure in the
 *   currency's minor unit and rate × base is what a reader recomputes from the printed net
 *   (tax on an unrounded base was a cent off it: 19 % of 101.26 − 10 % is 17.31, not 17.32);
 * - amount = subtotal − discount + taxes; due_amount = amount − payments.
 *
 * `retainerCredit` is for documents only: the credits drawing on a retainer (positive), which
 * the PDF prints after the taxes instead of inside the subtotal (see pdf.ts totalsRows).
 */

export interface LineInput {
  quantity: Decimal.Value;
  unit_price: Decimal.Value;
  effect: 'charge' | 'credit';
  taxed: boolean;
  taxed2: boolean;
  /** A line linked to a retainer: outside the discount (and untaxed, by the retainer's rule). */
  retainer?: boolean;
}

export interface InvoiceRates {
  tax?: Decimal.Value | null;
  tax2?: Decimal.Value | null;
  discount?: Decimal.Value | null;
  /**
   * false: the taxes are rates of the unrounded discounted sums, as every invoice made before
   * 2026-12-06 was computed (`invoices.tax_base_rounded`; its totals must never change).
   */
  roundedTaxBase?: boolean;
}

export interface Totals {
  lineAmounts: Decimal[];
  subtotal: Decimal;
  discountAmount: Decimal;
  /** What each tax is a rate of: the discounted sum of the lines flagged for it (`taxed`, `taxed2`). */
  taxBase: Decimal;
  tax2Base: Decimal;
  taxAmount: Decimal;
  tax2Amount: Decimal;
  /** The credit lines linked to a retainer, summed (positive); already part of subtotal. */
  retainerCredit: Decimal;
  amount: Decimal;
  dueAmount: Decimal;
}

const pct = (v: Decimal.Value | null | undefined) => new Decimal(v ?? 0).div(100);

/** Line amount: quantity × unit price, rounded half up to the minor unit (positive; `effect` gives the sign). */
export function lineAmount(line: Pick<LineInput, 'quantity' | 'unit_price'>, digits: number): Decimal {
  return new Decimal(line.quantity).mul(line.unit_price).toDecimalPlaces(digits, Decimal.ROUND_HALF_UP);
}

/** The subtotal documents print (pdf.ts totalsRows): that of every line but the credits drawing on a retainer. */
export const printedSubtotal = (totals: Totals) => totals.subtotal.add(totals.retainerCredit);

export function computeTotals(lines: LineInput[], rates: InvoiceRates, currency: string, payments: Decimal.Value = 0): Totals {
  const digits = minorUnitDigits(currency);
  const round = (d: Decimal) => d.toDecimalPlaces(digits, Decimal.ROUND_HALF_UP);
  const signed = lines.map((l) => (l.effect === 'credit' ? lineAmount(l, digits).neg() : lineAmount(l, digits)));
  const sum = (ds: Decimal[]) => ds.reduce((a, b) => a.add(b), new Decimal(0));
  const subtotal = sum(signed);
  const discountRate = pct(rates.discount);
  const discountAmount = round(sum(signed.filter((_, i) => !lines[i].retainer)).mul(discountRate));
  const discounted = (flagged: Decimal) =>
    rates.roundedTaxBase === false ? flagged.mul(new Decimal(1).sub(discountRate)) : flagged.sub(round(flagged.mul(discountRate)));
  const taxBase = discounted(sum(signed.filter((_, i) => lines[i].taxed)));
  const tax2Base = discounted(sum(signed.filter((_, i) => lines[i].taxed2)));
  const taxAmount = round(taxBase.mul(pct(rates.tax)));
  const tax2Amount = round(tax2Base.mul(pct(rates.tax2)));
  const amount = subtotal.sub(discountAmount).add(taxAmount).add(tax2Amount);
  return {
    lineAmounts: signed.map((d) => d.abs()),
    subtotal,
    discountAmount,
    taxBase,
    tax2Base,
    taxAmount,
    tax2Amount,
    retainerCredit: sum(signed.filter((_, i) => lines[i].retainer && lines[i].effect === 'credit')).neg(),
    amount,
    dueAmount: amount.sub(payments),
  };
}
