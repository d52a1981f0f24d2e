import { useQueryClient } from '@tanstack/react-query';
import { useFormat } from '../../api/format.ts';
import { addDays } from '../../ui/dates.ts';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { cx } from '../../ui/styles.ts';
import { sheetQuery } from './api.ts';
import { useTimeTexts } from './texts.ts';
import { longDayLabel } from './week.ts';

/**
 * The time pages' heading: the period shown, the way to the previous and next one
 * (their data is fetched when the pointer or focus reaches the link, not on load), and
 * the switch between week, day and calendar.
 */
/** A link of the Week/Day/Calendar group; the group does not clip (a focus ring would be cut), so its ends round themselves. */
const VIEW_LINK = 'px-3 py-1.5 no-underline first:rounded-l-[5px] last:rounded-r-[5px]';

export function TimeHeader({ view, from, today, date, user, person }: { view: 'week' | 'day' | 'calendar'; from?: string; today?: string; date?: string; user?: string; person?: string }) {
  const queryClient = useQueryClient();
  const t = useTimeTexts();
  const format = useFormat();
  const weekly = view !== 'day';
  const step = weekly ? 7 : 1;
  const anchor = weekly ? from : date;
  // Another person's week stays theirs from page to page.
  const who = user ? `&user=${user}` : '';
  const href = (d: string) => (view === 'day' ? `/time/day?date=${d}${who}` : `/time/${view}?start=${d}${who}`);
  const prefetch = (d: string) => () => void queryClient.prefetchQuery(sheetQuery(d, user));
  // The day view opens on today when today is in the week shown.
  const dayOfWeek = today && from && today >= from && today <= addDays(from, 6) ? today : anchor;
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <PageHeading title={t('time')}>{t('time')}</PageHeading>
        {anchor && (
          <p className="mt-1 text-stone-600">{weekly ? t('weekOf', { day: format.day(anchor) }) : longDayLabel(format, anchor)}
            {person && <span className="font-medium text-stone-900"> · {person}</span>}
          </p>
        )}
      </div>
      {anchor && (
        <nav aria-label={weekly ? t('weeks') : t('days')} className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
          <Link href={href(addDays(anchor, -step))} onHoverStart={prefetch(addDays(anchor, -step))} onFocus={prefetch(addDays(anchor, -step))}>
            {weekly ? t('previousWeek') : t('previousDayNamed', { day: format.weekday(addDays(anchor, -1)) })}
          </Link>
          {today && <Link href={href(today)}>{weekly ? t('thisWeek') : t('today')}</Link>}
          <Link href={href(addDays(anchor, step))} onHoverStart={prefetch(addDays(anchor, step))} onFocus={prefetch(addDays(anchor, step))}>
            {weekly ? t('nextWeek') : t('nextDayNamed', { day: format.weekday(addDays(anchor, 1)) })}
          </Link>
          <span className="flex rounded-md border border-stone-300" role="group" aria-label={t('view')}>
            <Link href={view === 'week' ? '#' : `/time/week?start=${anchor}${who}`} aria-current={view === 'week' ? 'page' : undefined} className={cx(VIEW_LINK, view === 'week' && 'bg-teal-700 text-white')}>
              {t('week')}
            </Link>
            <Link href={view === 'day' ? '#' : `/time/day?date=${dayOfWeek}${who}`} aria-current={view === 'day' ? 'page' : undefined} className={cx(VIEW_LINK, view === 'day' && 'bg-teal-700 text-white')}>
              {t('day')}
            </Link>
            <Link href={view === 'calendar' ? '#' : `/time/calendar?start=${anchor}${who}`} aria-current={view === 'calendar' ? 'page' : undefined} className={cx(VIEW_LINK, view === 'calendar' && 'bg-teal-700 text-white')}>
              {t('calendar')}
            </Link>
          </span>
        </nav>
      )}
    </div>
  );
}
