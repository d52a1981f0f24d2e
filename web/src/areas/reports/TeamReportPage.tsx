import { useQuery } from '@tanstack/react-query';
import { useFormat } from '../../api/format.ts';
import { teamQuery, type TeamRow, type TeamTotals } from './api.ts';
import { currenciesOf } from './currencies.ts';
import { beyondReportSpan } from './period.ts';
import { AmountCells, Chart, Downloads, Empty, LoadError, Loading, PeriodPicker, TableBox, TotalRow, num, th, usePeriod, usePagedRows } from './parts.tsx';
import { SaveReport } from './save.tsx';
import { useReportTexts } from './texts.ts';
import { Alert } from '../../ui/Alert.tsx';

/** Hours and billable hours per person, and billable amounts per currency (one column each, never added together). */
export function TeamReportPage() {
  const t = useReportTexts();
  const range = usePeriod();
  const tooLong = beyondReportSpan(range);
  const { data, error, isPlaceholderData } = useQuery({ ...teamQuery(range), enabled: !tooLong });

  return (
    <section aria-labelledby="team-report" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="team-report" className="text-lg font-semibold text-stone-900">
          {t('team.heading')}
        </h2>
        <SaveReport report="team" range={range} />
      </div>
      <PeriodPicker range={range} />
      {tooLong && <Alert>{t('team.tooLong')}</Alert>}
      {error && !data && !tooLong && <LoadError error={error} />}
      {!data && !error && !tooLong && <Loading text={t('loading.team')} />}
      {data && !tooLong && (
        <div aria-busy={isPlaceholderData} className="flex flex-col gap-4">
          {data.results.length === 0 ? (
            <Empty>{t('team.empty')}</Empty>
          ) : (
            <>
              <Chart
                label={t('team.chart')}
                data={data.results.map((r) => ({ name: r.user_name, hours: r.total_hours, billable_hours: r.billable_hours }))}
                series={[
                  { key: 'hours', label: t('hours'), color: '#0f766e' },
                  { key: 'billable_hours', label: t('billableHours'), color: '#f59e0b' },
                ]}
                unit="hours"
              />
              <TeamTable rows={data.results} totals={data.totals} />
              {data.total_pages > 1 && <p className="text-sm text-stone-600">{t('team.firstOf', { shown: data.results.length, count: data.total_entries })}</p>}
            </>
          )}
          <Downloads report="team" params={range} label={t('team.download')} />
        </div>
      )}
    </section>
  );
}

function TeamTable({ rows, totals }: { rows: TeamRow[]; totals: TeamTotals }) {
  const { shown, pager } = usePagedRows(rows);
  const t = useReportTexts();
  const format = useFormat();
  const amounts = rows.some((r) => r.billable_amounts !== undefined);
  const currencies = currenciesOf(rows);
  return (
    <TableBox label={t('team.table')} pager={pager}>
      <table data-stack className={`w-full border-collapse text-sm ${amounts ? 'min-w-[32rem]' : ''}`}>
        <caption className="sr-only">{t('team.caption')}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className={th}>{t('team.person')}</th>
            <th scope="col" className={`${th} text-right`}>{t('hours')}</th>
            <th scope="col" className={`${th} text-right`}>{t('billableHours')}</th>
            {amounts &&
              currencies.map((c) => (
                <th key={c} scope="col" className={`${th} text-right`}>
                  {t('billableAmount', { currency: c })}
                </th>
              ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {shown.map((r) => (
            <tr key={r.user_id}>
              <th scope="row" className="px-3 py-2.5 text-left font-medium text-stone-900">
                {r.user_name}
                {r.is_contractor && <span className="ml-2 text-xs font-normal text-stone-600">{t('team.contractor')}</span>}
              </th>
              <td className={num}>{format.hours(r.total_hours)}</td>
              <td className={num}>{format.hours(r.billable_hours)}</td>
              {amounts && <AmountCells amounts={r.billable_amounts} currencies={currencies} />}
            </tr>
          ))}
        </tbody>
        <TotalRow>
          <td className={num}>{format.hours(totals.total_hours)}</td>
          <td className={num}>{format.hours(totals.billable_hours)}</td>
          {amounts && <AmountCells amounts={totals.billable_amounts} currencies={currencies} />}
        </TotalRow>
      </table>
    </TableBox>
  );
}
