import { useQueryClient } from '@tanstack/react-query';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { cx } from '../../ui/styles.ts';
import { sheetQuery } from './api.ts';
import { addDays, dayLabel, longDayLabel } from './week.ts';

/**
 * The time pages' heading: the period shown, the way to the previous and next one
 * (their data is fetched when the pointer or focus reaches the link, not on load), and
 * the switch between week and day.
 */
export function TimeHeader({ view, from, today, date, user, person }: { view: 'week' | 'day'; from?: string; today?: string; date?: string; user?: string; person?: string }) {
  const queryClient = useQueryClient();
  const step = view === 'week' ? 7 : 1;
  const anchor = view === 'week' ? from : date;
  // Another person's week stays theirs from page to page.
  const who = user ? `&user=${user}` : '';
  const href = (d: string) => (view === 'week' ? `/time/week?start=${d}${who}` : `/time/day?date=${d}${who}`);
  const prefetch = (d: string) => () => void queryClient.prefetchQuery(sheetQuery(d, user));
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <PageHeading title="Time">Time</PageHeading>
        {anchor && (
          <p className="mt-1 text-stone-600">{view === 'week' ? `Week of ${longDayLabel(anchor)}` : longDayLabel(anchor)}
            {person && <span className="font-medium text-stone-900"> · {person}</span>}
          </p>
        )}
      </div>
      {anchor && (
        <nav aria-label={view === 'week' ? 'Weeks' : 'Days'} className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
          <Link href={href(addDays(anchor, -step))} onHoverStart={prefetch(addDays(anchor, -step))} onFocus={prefetch(addDays(anchor, -step))}>
            {view === 'week' ? 'Previous week' : `Previous day (${dayLabel(addDays(anchor, -1))})`}
          </Link>
          {today && <Link href={href(today)}>{view === 'week' ? 'This week' : 'Today'}</Link>}
          <Link href={href(addDays(anchor, step))} onHoverStart={prefetch(addDays(anchor, step))} onFocus={prefetch(addDays(anchor, step))}>
            {view === 'week' ? 'Next week' : `Next day (${dayLabel(addDays(anchor, 1))})`}
          </Link>
          <span className="flex overflow-hidden rounded-md border border-stone-300" role="group" aria-label="View">
            <Link href={view === 'week' ? '#' : `/time/week?start=${anchor}${who}`} aria-current={view === 'week' ? 'page' : undefined} className={cx('px-3 py-1.5 no-underline', view === 'week' && 'bg-teal-700 text-white')}>
              Week
            </Link>
            <Link href={view === 'day' ? '#' : `/time/day?date=${today && from && today >= from && today <= addDays(from, 6) ? today : anchor}${who}`} aria-current={view === 'day' ? 'page' : undefined} className={cx('px-3 py-1.5 no-underline', view === 'day' && 'bg-teal-700 text-white')}>
              Day
            </Link>
          </span>
        </nav>
      )}
    </div>
  );
}
