import type { DateFormat, DurationFormat, Language, Theme } from '../../../db/types.ts';
import { LANGUAGES as SUPPORTED } from '../../../i18n/index.ts';

/**
 * A person's display preferences: stored per person (users, 0070), returned with
 * the session, used by the web app's formatting and translations. The lists here
 * are the route schemas' and the migration's checks.
 */
/** The languages the server's and the web app's catalogs have (src/i18n). */
export const LANGUAGES: readonly Language[] = SUPPORTED;
export const DATE_FORMATS: readonly DateFormat[] = ['YYYY-MM-DD', 'DD.MM.YYYY', 'DD/MM/YYYY', 'MM/DD/YYYY'];
export const DURATION_FORMATS: readonly DurationFormat[] = ['h:mm', 'decimal'];
export const THEMES: readonly Theme[] = ['system', 'light', 'dark'];

export interface Preferences {
  language: Language;
  date_format: DateFormat;
  duration_format: DurationFormat;
  theme: Theme;
}

export const preferencesOf = (row: Preferences): Preferences => ({
  language: row.language,
  date_format: row.date_format,
  duration_format: row.duration_format,
  theme: row.theme,
});
