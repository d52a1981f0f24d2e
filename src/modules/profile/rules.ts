import type { DateFormat, DurationFormat, Language } from '../../db/types.ts';

/**
 * A person's display preferences: stored per person (users, 0070), returned with
 * the session, used by the web app's formatting and translations. The lists here
 * are the route schemas' and the migration's checks.
 */
export const LANGUAGES: readonly Language[] = ['en', 'de'];
export const DATE_FORMATS: readonly DateFormat[] = ['YYYY-MM-DD', 'DD.MM.YYYY', 'DD/MM/YYYY', 'MM/DD/YYYY'];
export const DURATION_FORMATS: readonly DurationFormat[] = ['h:mm', 'decimal'];

export interface Preferences {
  language: Language;
  date_format: DateFormat;
  duration_format: DurationFormat;
}

export const preferencesOf = (row: Preferences): Preferences => ({
  language: row.language,
  date_format: row.date_format,
  duration_format: row.duration_format,
});

export const fullName = (u: { first_name: string; last_name: string }) => [u.first_name, u.last_name].filter(Boolean).join(' ');
