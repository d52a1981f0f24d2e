import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';

/**
 * The web app's languages (issue 21 item 12): i18next with react-i18next, the library the
 * server's e-mails and PDFs use too (docs/decisions.md, "Languages"). Texts live beside the
 * code that shows them: each area (and ui/, app/) has a `texts.ts` that calls defineTexts()
 * with its English texts and their German translation, as one i18next namespace loaded with
 * the area's chunk, so the first load carries only the shell's texts.
 *
 * The German catalog is typed from the English one, so a missing or extra key fails the type
 * check; web/src/ui/i18n.test.ts also refuses empty texts and placeholders that differ. A key
 * asked for at run time that no catalog has is a console error (which the browser tests fail on).
 */

export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** The Intl locale of a language: numbers, dates and day names follow it. */
export const LOCALES: Record<Language, string> = { en: 'en-GB', de: 'de-DE' };

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  resources: {},
  initAsync: false,
  // React renders text nodes (escaped by React itself); nothing here becomes HTML.
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
  saveMissing: true,
  missingKeyHandler: (_languages, namespace, key) => console.error(`Missing text: ${namespace}:${key}`),
});

/** Every catalog defined so far (the completeness test reads them). */
export const catalogs = new Map<string, { en: object; de: object }>();

/** The German (or any other) catalog of an English one: the same keys, every value a text. */
export type Catalog<T> = { [K in keyof T]: T[K] extends string ? string : Catalog<T[K]> };

type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type Base<K extends string> = K extends `${infer B}_${PluralSuffix}` ? B : K;
/** The dotted keys of a catalog, plural forms (`items_one`, `items_other`) asked for by their base (`items`). */
export type TextKey<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${Base<K>}` : TextKey<T[K], `${P}${K}.`>;
}[keyof T & string];

export type Translate<T> = (key: TextKey<T>, values?: Record<string, unknown>) => string;

/**
 * Registers a namespace's texts in both languages. Returns its hook for components
 * (`const t = useTexts(); t('save')`, `t('items', { count })`) and `t` for code outside
 * React (in the current language). Keys are checked against the English catalog.
 */
export function defineTexts<T extends object>(namespace: string, en: T, de: Catalog<T>): { useTexts: () => Translate<T>; t: Translate<T> } {
  i18n.addResourceBundle('en', namespace, en, true, true);
  i18n.addResourceBundle('de', namespace, de, true, true);
  catalogs.set(namespace, { en, de });
  return {
    useTexts: () => useTranslation(namespace, { i18n }).t as unknown as Translate<T>,
    t: ((key: string, values?: Record<string, unknown>) => i18n.t(key, { ns: namespace, ...values })) as Translate<T>,
  };
}

/** Switches the app's language (the person's preference); the page's `lang` follows for screen readers. */
export function setLanguage(language: string | null | undefined) {
  const next = isLanguage(language) ? language : 'en';
  if (i18n.language !== next) void i18n.changeLanguage(next);
  document.documentElement.lang = next;
}

export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : 'en');

/** The first of the browser's languages the app has (`de-AT` is German): the language of pages shown before anyone signs in. */
export function browserLanguage(preferred: readonly string[] = navigator.languages ?? [navigator.language]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

/** The Intl locale of the current language, re-rendering the caller when the language changes (React Aria's I18nProvider takes it). */
export function useLocale(): string {
  const { i18n: instance } = useTranslation(undefined, { i18n });
  return LOCALES[isLanguage(instance.language) ? instance.language : 'en'];
}
