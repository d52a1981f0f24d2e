import { Decimal } from 'decimal.js';
import { minorUnitDigits } from '../../money.ts';

/**
 * How invoice figures read in documents and e-mails (the PDF, default message
 * bodies): money through Intl.NumberFormat in the invoice currency (en-US
 * conventions: "€1,066.50", "¥1,000", "CHF 1,066.50"), dates as "15 March 2026".
 * Never used for API values, which are JSON numbers.
 */

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string, extraDigits: boolean) {
  const key = `${currency}:${extraDigits}`;
  let f = moneyFormats.get(key);
  if (!f) {
    const digits = minorUnitDigits(currency);
    f = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: extraDigits ? Math.max(digits, 4) : digits,
    });
    moneyFormats.set(key, f);
  }
  return f;
}

/**
 * A money amount in the currency. Intl formats from a decimal string exactly
 * (no binary float on the way), so 0.1 + 0.2 prints as 0.30. `unitPrice` keeps up
 * to four decimals (a rate of 12.3456 is shown as it is charged).
 */
export function formatMoney(value: Decimal.Value, currency: string, { unitPrice = false } = {}): string {
  const text = new Decimal(value).toFixed();
  return moneyFormat(currency, unitPrice).format(text as unknown as number);
}

/** A quantity as stored (up to four decimals), without trailing zeros: "1.5", "0.3333", "12". */
const quantityFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });

export function formatQuantity(value: Decimal.Value): string {
  return quantityFormat.format(new Decimal(value).toFixed() as unknown as number);
}

/** A percentage: "20%", "8.25%". */
export function formatPercent(value: Decimal.Value): string {
  return `${new Decimal(value).toFixed()}%`;
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A calendar date YYYY-MM-DD as "15 March 2026". */
export function formatDate(date: string): string {
  return dateFormat.format(new Date(`${date}T00:00:00Z`));
}

/** A filename-safe form of an invoice number ("2026/001" → "2026_001"). */
export function fileSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || 'invoice';
}

export const pdfFilename = (number: string) => `invoice-${fileSafe(number)}.pdf`;
