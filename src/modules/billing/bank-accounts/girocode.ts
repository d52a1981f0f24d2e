import { Decimal } from 'decimal.js';

/**
 * The SEPA credit-transfer payment code of an EUR invoice ("GiroCode", EPC069-12,
 * version 002): the text a banking app reads from the QR code to fill in a
 * transfer. One element per line, separated by a line feed, in this order:
 *
 *   BCD            service tag
 *   002            version (002: the BIC may be left empty inside the EEA)
 *   1              character set 1, UTF-8
 *   SCT            SEPA credit transfer
 *   BIC            optional in version 002
 *   name           the beneficiary, at most 70 characters
 *   IBAN
 *   EUR12.34       amount: EUR, then 0.01 to 999999999.99 with a decimal point; empty for none
 *   purpose        a four-letter purpose code; left empty
 *   reference      structured creditor reference; empty, as the unstructured text is used
 *   text           unstructured remittance information, at most 140 characters
 *
 * The last element carries no line feed after it (EPC069-12: no separator after the
 * last populated element). The standard allows 331 bytes; these limits keep under it.
 * Pure: the QR code itself is drawn by pdf-block.ts.
 */

export const EPC_NAME_MAX = 70;
export const EPC_TEXT_MAX = 140;
const EPC_AMOUNT_MAX = new Decimal('999999999.99');

export interface EpcTransfer {
  name: string;
  iban: string;
  bic: string | null;
  /** What is due, in EUR; none (0, negative, or more than the code can carry) leaves the amount for the payer to type. */
  amount: Decimal.Value | null;
  /** The remittance text, e.g. "Invoice 2026-001". */
  text: string;
}

/** At most `max` characters (code points), on one line. */
const clip = (s: string, max: number) => [...s.replace(/[\r\n]+/g, ' ').trim()].slice(0, max).join('');

/** The amount element: "EUR" and the amount with two decimals, or empty when the code cannot carry it. */
export function epcAmount(amount: Decimal.Value | null): string {
  if (amount === null) return '';
  const d = new Decimal(amount).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  if (d.lte(0) || d.gt(EPC_AMOUNT_MAX)) return '';
  return `EUR${d.toFixed(2)}`;
}

/** The payment code's text, its 11 elements joined by line feeds. */
export function epcPayload(t: EpcTransfer): string {
  return ['BCD', '002', '1', 'SCT', t.bic ?? '', clip(t.name, EPC_NAME_MAX), t.iban, epcAmount(t.amount), '', '', clip(t.text, EPC_TEXT_MAX)].join('\n');
}
