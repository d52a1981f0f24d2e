import { useQuery } from '@tanstack/react-query';
import { useLocale } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import { teamQuery, type TeamRow } from './api.ts';
import { currenciesOf, formatHours } from './format.ts';
import { periodOf, spanDays } from './period.ts';
import { AmountCells, Chart, Downloads, Empty, LoadError, Loading, PeriodPicker, TableBox, num, th } from './parts.tsx';
import { Alert } from '../../ui/Alert.tsx';

const MAX_DAYS = 366;

/** Hours and billable hours per person, and billable amounts per currency (one column each, never added together). */
export function TeamReportPage() {
  const [params] = useSearchParams();
  const range = periodOf(params);
  const tooLong = spanDays(range) > MAX_DAYS;
  const { data, error, isPlaceholderData } = useQuery({ ...teamQuery(range), enabled: !tooLong });

  return (
    <section aria-labelledby="team-report" className="flex flex-col gap-4">
      <h2 id="team-report" className="text-lg font-semibold text-stone-900">
        Team time
      </h2>
      <PeriodPicker range={range} />
      {tooLong && <Alert>The team report covers at most a year: choose a shorter period.</Alert>}
      {error && !data && <LoadError error={error} />}
      {!data && !error && !tooLong && <Loading what="the team report" />}
      {data && !tooLong && (
        <div aria-busy={isPlaceholderData} className="flex flex-col gap-4">
          {data.results.length === 0 ? (
            <Empty>Nobody in your team tracked time in this period.</Empty>
          ) : (
            <>
              <Chart
                label="Hours and billable hours per person"
                data={data.results.map((r) => ({ name: r.user_name, hours: r.total_hours, billable_hours: r.billable_hours }))}
                series={[
                  { key: 'hours', label: 'Hours', color: '#0f766e' },
                  { key: 'billable_hours', label: 'Billable hours', color: '#f59e0b' },
                ]}
                format={(v) => formatHours(v)}
              />
              <TeamTable rows={data.results} />
              {data.total_pages > 1 && <p className="text-sm text-stone-600">The first {data.results.length} of {data.total_entries} people; the downloads list everyone.</p>}
            </>
          )}
          <Downloads report="team" params={range} label="the team report" />
        </div>
      )}
    </section>
  );
}

function TeamTable({ rows }: { rows: TeamRow[] }) {
  const { locale } = useLocale();
  const amounts = rows.some((r) => r.billable_amounts !== undefined);
  const currencies = currenciesOf(rows);
  return (
    <TableBox label={"Hours per person, table"}>
      <table className={`w-full border-collapse text-sm ${amounts ? 'min-w-[32rem]' : ''}`}>
        <caption className="sr-only">Hours per person</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className={th}>Person</th>
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
            <tr key={r.user_id}>
              <th scope="row" className="px-3 py-2.5 text-left font-medium text-stone-900">
                {r.user_name}
                {r.is_contractor && <span className="ml-2 text-xs font-normal text-stone-600">Contractor</span>}
              </th>
              <td className={num}>{formatHours(r.total_hours, locale)}</td>
              <td className={num}>{formatHours(r.billable_hours, locale)}</td>
              {amounts && <AmountCells amounts={r.billable_amounts} currencies={currencies} locale={locale} />}
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}
