import { Link } from '../../ui/Link.tsx';
import type { Home } from './api.ts';
import { Emphasis } from './Emphasis.tsx';
import { shareOf } from './home.ts';
import { Section } from './Section.tsx';
import { useHomeTexts } from './texts.ts';
import { useFormat } from '../../api/format.ts';

/** A bar of tracked against expected (decorative: the numbers beside it say the same). */
function Bar({ share, today }: { share: number | null; today?: boolean }) {
  if (share === null) return null;
  return (
    <div aria-hidden="true" className="h-2 w-full overflow-hidden rounded-full bg-stone-100">
      <div className={today ? 'h-full rounded-full bg-teal-600' : 'h-full rounded-full bg-teal-500/70'} style={{ width: `${Math.round(share * 100)}%` }} />
    </div>
  );
}

/** This week against the expected hours, per day (the running timer counted live by the caller). */
export function WeekSection({ week, today }: { week: Home['week']; today: string }) {
  const t = useHomeTexts();
  const format = useFormat();
  const total = week.days.reduce((sum, d) => sum + d.tracked_seconds, 0);
  return (
    <Section title={t('week.title')} action={<Link href={`/time/week?start=${week.from}`}>{t('week.open')}</Link>}>
      <p className="text-sm text-stone-700">
        <Emphasis
          text={week.expected_hours !== null ? t('week.ofExpected', { tracked: format.duration(total), expected: format.hours(week.expected_hours) }) : t('week.tracked', { tracked: format.duration(total) })}
          className="text-2xl font-semibold text-stone-900 tabular-nums"
        />
      </p>
      <div className="mt-2">
        <Bar share={shareOf(total, week.expected_hours)} />
      </div>
      <table className="mt-4 w-full border-collapse text-sm">
        <caption className="sr-only">{t('week.caption')}</caption>
        <thead className="sr-only">
          <tr>
            <th scope="col">{t('week.day')}</th>
            <th scope="col">{t('week.trackedColumn')}</th>
            <th scope="col">{t('week.expectedColumn')}</th>
          </tr>
        </thead>
        <tbody>
          {week.days.map((d) => {
            const isToday = d.date === today;
            return (
              <tr key={d.date} className={isToday ? 'font-medium text-stone-900' : 'text-stone-700'} aria-current={isToday ? 'date' : undefined}>
                <th scope="row" className="w-28 py-1 pr-3 text-left font-normal whitespace-nowrap">
                  <Link href={`/time/day?date=${d.date}`} className="font-normal">
                    {format.weekday(d.date)}
                  </Link>
                </th>
                <td className="w-16 py-1 pr-3 text-right tabular-nums">{format.duration(d.tracked_seconds)}</td>
                <td className="py-1 text-stone-600">
                  <div className="flex items-center gap-3">
                    <span className="w-20 shrink-0 text-xs whitespace-nowrap">{d.expected_hours ? t('week.ofHours', { hours: format.hours(d.expected_hours) }) : ''}</span>
                    <Bar share={shareOf(d.tracked_seconds, d.expected_hours)} today={isToday} />
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {week.expected_hours === null && <p className="mt-3 text-xs text-stone-600">{t('week.noExpected')}</p>}
    </Section>
  );
}
