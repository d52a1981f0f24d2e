import { createContext, useContext } from 'react';
import type { DateFormat } from './format.ts';

/**
 * The person's date pattern (Settings → Profile), for the order a date field's day, month and
 * year are typed in (DatePicker). The signed-in shell provides it; without it a field follows the
 * language's own order.
 */
export const DateOrderContext = createContext<DateFormat | undefined>(undefined);

/** An English locale whose numeric date is each pattern (Intl and React Aria agree on these). */
const ENGLISH_BY_PATTERN: Record<DateFormat, string> = {
  'YYYY-MM-DD': 'en-CA',
  'DD.MM.YYYY': 'en-CH',
  'DD/MM/YYYY': 'en-GB',
  'MM/DD/YYYY': 'en-US',
};

/**
 * The locale a date field is typed in. React Aria orders a field's segments and separators by its
 * locale, and writes its placeholders (dd, mm, yyyy) in the locale's language. English has a
 * locale for each of the four patterns; German has one only for its own (DD.MM.YYYY), and another
 * language's locale would bring that language's placeholders into the field, so a German field
 * keeps the German order whatever the pattern (docs/decisions.md). The calendar that opens from
 * the field keeps the app's locale: its month names and the week's first day.
 */
export function dateFieldLocale(locale: string, pattern: DateFormat | undefined): string {
  if (!pattern || locale.split('-')[0] !== 'en') return locale;
  return ENGLISH_BY_PATTERN[pattern];
}

/**
 * How a date field is typed for the person: the locale (dateFieldLocale) and, with a pattern,
 * two-digit days and months (every pattern writes 03/31, where en-US alone would write 3/31).
 */
export function useDateFieldOrder(locale: string): { locale: string; shouldForceLeadingZeros: boolean | undefined } {
  const pattern = useContext(DateOrderContext);
  return { locale: dateFieldLocale(locale, pattern), shouldForceLeadingZeros: pattern ? true : undefined };
}
