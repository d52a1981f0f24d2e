import { formErrors } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import type { Format } from '../../ui/format.ts';
import { Link } from '../../ui/Link.tsx';
import type { TimeOff } from './api.ts';
import { daysIn, overlapOf } from './rules.ts';
import { useTimeOffTexts } from './texts.ts';

/** A range of days as the person writes dates: one day alone, or first – last. */
export const datesText = (format: Format, t: Pick<TimeOff, 'starts_on' | 'ends_on'>) => (t.starts_on === t.ends_on ? format.day(t.starts_on) : format.dayRange(t.starts_on, t.ends_on));

/**
 * A refused save split for a time off or holiday form (api/errors.ts formErrors), with an overlap
 * worded here in the person's language and date format, under the first day.
 */
export function useTimeOffFormErrors(holiday: boolean) {
  const t = useTimeOffTexts();
  const format = useFormat();
  return (error: unknown, fields: readonly string[]): ReturnType<typeof formErrors> => {
    const clash = overlapOf(error);
    if (!clash) return formErrors(error, fields);
    const message = t(holiday ? 'overlapsHoliday' : 'overlapsTimeOff', { dates: datesText(format, clash) });
    return fields.includes('starts_on') ? { fieldErrors: { starts_on: message } } : { summary: message };
  };
}

/** "Whole days (3)" or "4 h per day". */
export function useLengthText() {
  const t = useTimeOffTexts();
  return (format: Format, item: Pick<TimeOff, 'starts_on' | 'ends_on' | 'hours'>) =>
    item.hours === null ? t('page.wholeDay', { count: daysIn(item) }) : t('page.perDay', { hours: format.number(item.hours, 2) });
}

/**
 * The year shown (?year= in the URL) and the way to the one before and after; their data
 * is fetched when the pointer or focus reaches the link, not on load.
 */
export function YearNav({ path, year, current, prefetch }: { path: string; year: number; current: number; prefetch: (year: number) => void }) {
  const t = useTimeOffTexts();
  const warm = (y: number) => () => prefetch(y);
  return (
    <nav aria-label={t('years')} className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
      <Link href={`${path}?year=${year - 1}`} aria-label={t('previousYear', { year: year - 1 })} onHoverStart={warm(year - 1)} onFocus={warm(year - 1)}>
        ‹ {year - 1}
      </Link>
      <span aria-current="page" className="text-base font-semibold text-stone-900 tabular-nums">
        {year}
      </span>
      <Link href={`${path}?year=${year + 1}`} aria-label={t('nextYear', { year: year + 1 })} onHoverStart={warm(year + 1)} onFocus={warm(year + 1)}>
        {year + 1} ›
      </Link>
      {year !== current && <Link href={path}>{t('thisYear')}</Link>}
    </nav>
  );
}
