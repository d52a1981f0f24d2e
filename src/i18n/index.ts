import i18next, { type TFunction } from 'i18next';
import { de } from './de.ts';
import { en } from './en.ts';

/**
 * What the server writes in a person's or a client's language (issue 21 item 12):
 * i18next, the same library the web app uses (docs/decisions.md, "Languages"), with
 * the catalogs in en.ts and de.ts. One instance, initialised synchronously at import
 * (the catalogs are in memory), with no HTML escaping: the texts go into plain-text
 * e-mails and PDFs, never into HTML.
 */

export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** The Intl locale of a language's numbers and dates in documents. English keeps the US money style the PDFs always had ("€1,066.50"). */
export const DOCUMENT_LOCALES: Record<Language, string> = { en: 'en-US', de: 'de-DE' };
export const documentLocale = (language: string | null | undefined) => DOCUMENT_LOCALES[isLanguage(language) ? language : DEFAULT_LANGUAGE];

const instance = i18next.createInstance();
void instance.init({
  resources: { en: { translation: en }, de: { translation: de } },
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** The texts in `language` (an unknown or missing language reads English). */
export function translator(language: string | null | undefined): TFunction {
  return instance.getFixedT(isLanguage(language) ? language : DEFAULT_LANGUAGE);
}

const mailFormats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

/**
 * A calendar day (YYYY-MM-DD) in a mail to a person, in their language: English
 * mails keep the ISO date they always had; German ones read "04.05.2026" (the
 * document locale's numeric date), read as a calendar day (UTC, no zone).
 */
export function mailDate(date: string, language: string | null | undefined): string {
  if (!isLanguage(language) || language === DEFAULT_LANGUAGE) return date;
  const locale = documentLocale(language);
  let format = mailFormats.get(`d|${locale}`) as Intl.DateTimeFormat | undefined;
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });
    mailFormats.set(`d|${locale}`, format);
  }
  return format.format(new Date(`${date}T00:00:00Z`));
}

/** The month of a calendar day (YYYY-MM-DD) in a mail, named in the person's language: "December 2026", "Dezember 2026". */
export function mailMonth(date: string, language: string | null | undefined): string {
  const locale = documentLocale(language);
  let format = mailFormats.get(`m|${locale}`) as Intl.DateTimeFormat | undefined;
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
    mailFormats.set(`m|${locale}`, format);
  }
  return format.format(new Date(`${date}T00:00:00Z`));
}

/**
 * A decimal (as a plain decimal string, "7.5") in a mail to a person: as written in
 * English, with the document locale's decimal sign otherwise ("7,5"), no grouping.
 */
export function mailNumber(decimal: string, language: string | null | undefined): string {
  if (!isLanguage(language) || language === DEFAULT_LANGUAGE) return decimal;
  const locale = documentLocale(language);
  let format = mailFormats.get(`n|${locale}`) as Intl.NumberFormat | undefined;
  if (!format) {
    format = new Intl.NumberFormat(locale, { useGrouping: false, maximumFractionDigits: 20 });
    mailFormats.set(`n|${locale}`, format);
  }
  // Intl formats a decimal string exactly (no binary float on the way).
  return format.format(decimal as unknown as number);
}
