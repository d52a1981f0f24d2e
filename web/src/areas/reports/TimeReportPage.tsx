import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useFormat } from '../../api/format.ts';
import { Select } from '../../ui/Select.tsx';
import { timeQuery, type GroupBy, type TimeGroup, type TimeTotals } from './api.ts';
import { currenciesOf } from './currencies.ts';
import { GROUPS, groupByOf } from './params.ts';
import { AmountCells, Chart, Downloads, Empty, LoadError, Loading, PeriodPicker, TableBox, TotalRow, num, th, usePeriod, useSearchUpdate, usePagedRows } from './parts.tsx';
import { SaveReport } from './save.tsx';
import { useReportTexts } from './texts.ts';

/** Time over any period grouped by project, task, person or client: the caller's visible time, amounts only when they see rates. */
export function TimeReportPage() {
  const t = useReportTexts();
  const [params] = useSearchParams();
  const update = useSearchUpdate();
  const range = usePeriod();
  const groupBy = groupByOf(params);
  const { data, error, isPlaceholderData } = useQuery(timeQuery(range, groupBy));
  const exportParams = { ...range, group_by: groupBy };

  return (
    <section aria-labelledby="time-report" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="time-report" className="text-lg font-semibold text-stone-900">
          {t(`time.heading.${groupBy}`)}
        </h2>
        <SaveReport report="time" range={range} group_by={groupBy} />
      </div>
      <div className="grid gap-3 lg:grid-cols-[3fr_1fr]">
        <PeriodPicker range={range} />
        <Select
          label={t('time.groupBy')}
          options={GROUPS.map((id) => ({ id, label: t(`groups.${id}`) }))}
          selectedKey={groupBy}
          onSelectionChange={(key) => update({ group_by: String(key) })}
        />
      </div>
      {error && !data && <LoadError error={error} />}
      {!data && !error && <Loading text={t('loading.time')} />}
      {data && (
        <div aria-busy={isPlaceholderData} className="flex flex-col gap-4">
          {data.results.length === 0 ? (
            <Empty>{t('time.empty')}</Empty>
          ) : (
            <>
              <Chart
                label={t(`time.chart.${groupBy}`)}
                data={data.results.map((g) => ({ name: g.name, hours: g.hours, billable_hours: g.billable_hours }))}
                series={[
                  { key: 'hours', label: t('hours'), color: '#0f766e' },
                  { key: 'billable_hours', label: t('billableHours'), color: '#f59e0b' },
                ]}
                unit="hours"
              />
              <TimeTable groupBy={groupBy} rows={data.results} totals={data.totals} />
            </>
          )}
          <div className="flex flex-col gap-2">
            <Downloads report="time" params={exportParams} label={t(`time.download.${groupBy}`)} title={t('time.thisTable')} />
            <Downloads report="time" params={{ ...exportParams, rows: 'entries' }} label={t('time.everyEntry')} title={t('time.everyEntryTitle')} />
          </div>
        </div>
      )}
    </section>
  );
}

function TimeTable({ groupBy, rows, totals }: { groupBy: GroupBy; rows: TimeGroup[]; totals: TimeTotals }) {
  const { shown, pager } = usePagedRows(rows);
  const t = useReportTexts();
  const format = useFormat();
  const currencies = currenciesOf(rows);
  const amounts = rows.some((r) => r.billable_amounts !== undefined);
  return (
    <TableBox label={t(`time.table.${groupBy}`)} pager={pager}>
      <table data-stack className={`w-full border-collapse text-sm ${amounts ? 'min-w-[32rem]' : ''}`}>
        <caption className="sr-only">{t(`time.caption.${groupBy}`)}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className={th}>
              {t(`groups.${groupBy}`)}
            </th>
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
            <tr key={r.id}>
              <th scope="row" className="px-3 py-2.5 text-left font-normal">
                <span className="block font-medium text-stone-900">{r.name}</span>
                {r.client_name && <span className="block text-xs text-stone-600">{r.client_name}</span>}
              </th>
              <td className={num}>{format.hours(r.hours)}</td>
              <td className={num}>{format.hours(r.billable_hours)}</td>
              {amounts && <AmountCells amounts={r.billable_amounts} currencies={currencies} />}
            </tr>
          ))}
        </tbody>
        <TotalRow>
          <td className={num}>{format.hours(totals.hours)}</td>
          <td className={num}>{format.hours(totals.billable_hours)}</td>
          {amounts && <AmountCells amounts={totals.billable_amounts} currencies={currencies} />}
        </TotalRow>
      </table>
    </TableBox>
  );
}
