import { useQuery } from '@tanstack/react-query';
import { useLocale } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import { Select } from '../../ui/Select.tsx';
import { timeQuery, type GroupBy, type TimeGroup } from './api.ts';
import { currenciesOf, formatHours } from './format.ts';
import { GROUPS, groupByOf } from './params.ts';
import { periodOf } from './period.ts';
import { AmountCells, Chart, Downloads, Empty, LoadError, Loading, PeriodPicker, TableBox, num, th, useSearchUpdate } from './parts.tsx';

const NOUN: Record<GroupBy, string> = { project: 'project', task: 'task', person: 'person', client: 'client' };

/** Time over any period grouped by project, task, person or client: the caller's visible time, amounts only when they see rates. */
export function TimeReportPage() {
  const [params] = useSearchParams();
  const update = useSearchUpdate();
  const range = periodOf(params);
  const groupBy = groupByOf(params);
  const { data, error, isPlaceholderData } = useQuery(timeQuery(range, groupBy));
  const exportParams = { ...range, group_by: groupBy };

  return (
    <section aria-labelledby="time-report" className="flex flex-col gap-4">
      <h2 id="time-report" className="text-lg font-semibold text-stone-900">
        Time by {NOUN[groupBy]}
      </h2>
      <div className="grid gap-3 lg:grid-cols-[3fr_1fr]">
        <PeriodPicker range={range} />
        <Select
          label="Group by"
          options={GROUPS}
          selectedKey={groupBy}
          onSelectionChange={(key) => update({ group_by: String(key) })}
        />
      </div>
      {error && !data && <LoadError error={error} />}
      {!data && !error && <Loading what="the time report" />}
      {data && (
        <div aria-busy={isPlaceholderData} className="flex flex-col gap-4">
          {data.results.length === 0 ? (
            <Empty>No time in this period.</Empty>
          ) : (
            <>
              <Chart
                label={`Hours and billable hours by ${NOUN[groupBy]}`}
                data={data.results.map((g) => ({ name: g.name, hours: g.hours, billable_hours: g.billable_hours }))}
                series={[
                  { key: 'hours', label: 'Hours', color: '#0f766e' },
                  { key: 'billable_hours', label: 'Billable hours', color: '#f59e0b' },
                ]}
                format={(v) => formatHours(v)}
              />
              <TimeTable groupBy={groupBy} rows={data.results} />
            </>
          )}
          <div className="flex flex-col gap-2">
            <Downloads report="time" params={exportParams} label={`time by ${NOUN[groupBy]}`} title="This table:" />
            <Downloads report="time" params={{ ...exportParams, rows: 'entries' }} label="every time entry of the period" title="Every time entry of the period:" />
          </div>
        </div>
      )}
    </section>
  );
}

function TimeTable({ groupBy, rows }: { groupBy: GroupBy; rows: TimeGroup[] }) {
  const { locale } = useLocale();
  const currencies = currenciesOf(rows);
  const amounts = rows.some((r) => r.billable_amounts !== undefined);
  return (
    <TableBox label={`Hours by ${NOUN[groupBy]}, table`}>
      <table className={`w-full border-collapse text-sm ${amounts ? 'min-w-[32rem]' : ''}`}>
        <caption className="sr-only">Hours by {NOUN[groupBy]}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className={th}>
              {GROUPS.find((g) => g.id === groupBy)?.label}
            </th>
            <th scope="col" className={`${th} text-right`}>Hours</th>
            <th scope="col" className={`${th} text-right`}>Billable hours</th>
            {amounts &&
              currencies.map((c) => (
                <th key={c} scope="col" className={`${th} text-right`}>
                  Billable amount ({c})
                </th>
              ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {rows.map((r) => (
            <tr key={r.id}>
              <th scope="row" className="px-3 py-2.5 text-left font-normal">
                <span className="block font-medium text-stone-900">{r.name}</span>
                {r.client_name && <span className="block text-xs text-stone-600">{r.client_name}</span>}
              </th>
              <td className={num}>{formatHours(r.hours, locale)}</td>
              <td className={num}>{formatHours(r.billable_hours, locale)}</td>
              {amounts && <AmountCells amounts={r.billable_amounts} currencies={currencies} locale={locale} />}
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}
