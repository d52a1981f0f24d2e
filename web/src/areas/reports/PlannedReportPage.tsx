import { useQuery } from '@tanstack/react-query';
import { useFormat } from '../../api/format.ts';
import type { Format } from '../../ui/format.ts';
import { plannedQuery, type PlannedRow, type PlannedTotals } from './api.ts';
import { Downloads, Empty, LoadError, Loading, PeriodPicker, TableBox, TotalRow, num, th, usePeriod, usePagedRows } from './parts.tsx';
import { SaveReport } from './save.tsx';
import { useReportTexts } from './texts.ts';

/**
 * Planned against tracked hours per project (the planner's assignments beside the time
 * tracked): owners and administrators see every project, managers the ones they manage.
 * The total row is the server's (the exact sums of every row's hours as shown). The downloads
 * have every row, hours as exact decimals; "Save report" keeps the period.
 */
export function PlannedReportPage() {
  const t = useReportTexts();
  const range = usePeriod();
  const { data, error, isPlaceholderData } = useQuery(plannedQuery(range));
  return (
    <section aria-labelledby="planned-report" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="planned-report" className="text-lg font-semibold text-stone-900">
          {t('planned.heading')}
        </h2>
        <SaveReport report="planned_vs_tracked" range={range} />
      </div>
      <p className="-mt-2 text-sm text-stone-600">{t('planned.explained')}</p>
      <PeriodPicker range={range} />
      {error && !data && <LoadError error={error} />}
      {!data && !error && <Loading text={t('loading.planned')} />}
      {data && (
        <div aria-busy={isPlaceholderData} className="flex flex-col gap-4">
          {data.projects.length === 0 ? <Empty>{t('planned.empty')}</Empty> : <PlannedTable rows={data.projects} totals={data.totals} />}
          <Downloads report="planned_vs_tracked" params={range} label={t('planned.download')} />
        </div>
      )}
    </section>
  );
}

const seconds = (hours: number) => Math.round(hours * 3600);

/** Tracked less planned, signed ("+1:30", "−2:00"). */
const signed = (format: Format, diffSeconds: number) => `${diffSeconds > 0 ? '+' : diffSeconds < 0 ? '−' : ''}${format.duration(Math.abs(diffSeconds))}`;

function PlannedTable({ rows, totals }: { rows: PlannedRow[]; totals: PlannedTotals }) {
  const { shown, pager } = usePagedRows(rows);
  const t = useReportTexts();
  const format = useFormat();
  return (
    <TableBox label={t('planned.table')} pager={pager}>
      <table data-stack className="w-full border-collapse text-sm">
        <caption className="sr-only">{t('planned.caption')}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className={th}>{t('planned.client')}</th>
            <th scope="col" className={th}>{t('planned.project')}</th>
            <th scope="col" className={`${th} text-right`}>{t('planned.planned')}</th>
            <th scope="col" className={`${th} text-right`}>{t('planned.tracked')}</th>
            <th scope="col" className={`${th} text-right`}>{t('planned.difference')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {shown.map((r) => {
            const diff = seconds(r.difference_hours);
            return (
              <tr key={r.project.id}>
                <td className="px-3 py-2.5 text-stone-700">{r.project.client_name}</td>
                <td className="px-3 py-2.5 font-medium text-stone-900">{r.project.name}</td>
                <td className={num}>{format.hours(r.planned_hours)}</td>
                <td className={num}>{format.hours(r.tracked_hours)}</td>
                <td className={`${num} ${diff > 0 ? 'text-amber-800' : diff < 0 ? 'text-stone-700' : 'text-stone-500'}`}>{signed(format, diff)}</td>
              </tr>
            );
          })}
        </tbody>
        <TotalRow span={2}>
          <td className={num}>{format.hours(totals.planned_hours)}</td>
          <td className={num}>{format.hours(totals.tracked_hours)}</td>
          <td className={num}>{signed(format, seconds(totals.difference_hours))}</td>
        </TotalRow>
      </table>
    </TableBox>
  );
}
