import { formatInvoiceNumber, numberFormatProblem } from '../../../../src/modules/billing/invoice-settings/number-format.ts';

/** The number format's rules are the server's (one module, no imports): the page's check and live example. */
export { numberFormatProblem };

/**
 * The example the page shows: the number the next invoice of `year` gets by the
 * format as typed (a number already taken would be skipped), or null when the
 * format is not one yet. Without a format, null too: the next all-digit number.
 */
export function nextNumberExample(format: string, nextNumber: number, year: number): string | null {
  const trimmed = format.trim();
  if (!trimmed || numberFormatProblem(trimmed) || !Number.isInteger(nextNumber) || nextNumber < 1) return null;
  return formatInvoiceNumber(trimmed, year, nextNumber);
}
