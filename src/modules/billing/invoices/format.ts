import { Decimal } from 'decimal.js';
import { DOCUMENT_LOCALES, documentLocale, isLanguage, translator, type Language } from '../../../i18n/index.ts';
import { minorUnitDigits } from '../../../money.ts';

/**
 * How invoice figures read in documents and e-mails (the PDF, default message
 * bodies), in the client's language (src/i18n): money through Intl.NumberFormat in
 * the invoice currency ("€1,066.50" in English, "1.066,50 €" in German), dates as
 * "15 March 2026" / "15. März 2026". Never used for API values, which are JSON numbers.
 */

const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let f = formats.get(key) as T | undefined;
  if (!f) formats.set(key, (f = make()));
  return f;
}

/**
 * A money amount in the currency. Intl formats from a decimal string exactly
 * (no binary float on the way), so 0.1 + 0.2 prints as 0.30. `unitPrice` keeps up
 * to four decimals (a rate of 12.3456 is shown as it is charged).
 */
export function formatMoney(value: Decimal.Value, currency: string, { unitPrice = false, language }: { unitPrice?: boolean; language?: Language | string } = {}): string {
  const locale = documentLocale(language);
  const format = cached(`m|${locale}|${currency}|${unitPrice}`, () => {
    const digits = minorUnitDigits(currency);
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: unitPrice ? Math.max(digits, 4) : digits,
    });
  });
  return format.format(new Decimal(value).toFixed() as unknown as number);
}

/**
 * A quantity as stored, without trailing zeros: "1.5", "0.3333", "12" ("1,5" in German); an
 * imported time line's hours keep their six places ("0.333333"), as its amount is priced from them.
 */
export function formatQuantity(value: Decimal.Value, language?: string): string {
  const locale = documentLocale(language);
  return cached(`q|${locale}`, () => new Intl.NumberFormat(locale, { maximumFractionDigits: 6 })).format(new Decimal(value).toFixed() as unknown as number);
}

/** A percentage: "20%", "8.25%" ("8,25 %" in German), from the exact decimal. */
export function formatPercent(value: Decimal.Value, language?: string): string {
  const locale = documentLocale(language);
  const format = cached(`p|${locale}`, () => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 4 }));
  return format.format(new Decimal(value).div(100).toFixed() as unknown as number);
}

/** A calendar date YYYY-MM-DD as "15 March 2026" ("15. März 2026"), read as a calendar day (UTC). */
export function formatDate(date: string, language?: string): string {
  // English documents keep the day-month-year order they always had (en-GB), whatever the money style.
  const locale = isLanguage(language) && language !== 'en' ? DOCUMENT_LOCALES[language] : 'en-GB';
  const format = cached(`d|${locale}`, () => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }));
  return format.format(new Date(`${date}T00:00:00Z`));
}

/** A filename-safe form of an invoice number ("2026/001" → "2026_001"). */
export function fileSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || 'invoice';
}

/**
 * A document's file name, in its language (the client's, as the document is written in):
 * invoice-2026_001.pdf, Rechnung-2026_001.pdf, estimate-7.pdf, Angebot-7.pdf; `rest` follows
 * the number (".pdf", "-facturx.pdf", "-cii.xml").
 */
export const documentFilename = (kind: 'invoice' | 'estimate', number: string, language: string, rest = '.pdf') =>
  `${translator(language)(`files.${kind}`)}-${fileSafe(number)}${rest}`;

export const pdfFilename = (number: string, language: string) => documentFilename('invoice', number, language);
