import { useQuery } from '@tanstack/react-query';
import { Link as AriaLink, useLocale } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import { Alert } from '../../ui/Alert.tsx';
import { buttonClass } from '../../ui/Button.tsx';
import { uninvoicedQuery, type Range, type UninvoicedRow } from './api.ts';
import { formatHours, formatMoney } from './format.ts';
import { periodOf, spanDays } from './period.ts';
import { Chart, Downloads, Empty, LoadError, Loading, PeriodPicker, TableBox, num, th } from './parts.tsx';

const MAX_DAYS = 366;

interface ClientGroup {
  client_id: string;
  client_name: string;
  rows: UninvoicedRow[];
}

function byClient(rows: UninvoicedRow[]): ClientGroup[] {
  const groups = new Map<string, ClientGroup>();
  for (const r of rows) {
    const g = groups.get(r.client_id) ?? { client_id: r.client_id, client_name: r.client_name, rows: [] };
    g.rows.push(r);
    groups.set(r.client_id, g);
  }
  return [...groups.values()];
}

/** The new-invoice page for a client's uninvoiced work of the period (the invoices area builds it from these). */
export function invoiceHref(group: ClientGroup, range: Range) {
  const query = new URLSearchParams({ client_id: group.client_id, from: range.from, to: range.to, project_ids: group.rows.map((r) => r.project_id).join(',') });
  return `/invoices/new?${query}`;
}

/** Uninvoiced time and expenses per client and project, with "Create invoice" per client. */
export function UninvoicedReportPage() {
  const [params] = useSearchParams();
  const range = periodOf(params);
  const tooLong = spanDays(range) > MAX_DAYS;
  const { data, error, isPlaceholderData } = useQuery({ ...uninvoicedQuery(range), enabled: !tooLong });

  return (
    <section aria-labelledby="uninvoiced-report" className="flex flex-col gap-4">
      <h2 id="uninvoiced-report" className="text-lg font-semibold text-stone-900">
        Uninvoiced
      </h2>
      <PeriodPicker range={range} />
      {tooLong && <Alert>The uninvoiced report covers at most a year: choose a shorter period.</Alert>}
      {error && !data && <LoadError error={error} />}
      {!data && !error && !tooLong && <Loading what="the uninvoiced report" />}
      {data && !tooLong && (
        <div aria-busy={isPlaceholderData} className="flex flex-col gap-4">
          {data.results.length === 0 ? (
            <Empty>Nothing left to invoice in this period.</Empty>
          ) : (
            <>
              <Chart
                label="Uninvoiced hours per project"
                data={data.results.map((r) => ({ name: r.project_name, uninvoiced_hours: r.uninvoiced_hours, total_hours: r.total_hours }))}
                series={[
                  { key: 'total_hours', label: 'Hours', color: '#a8a29e' },
                  { key: 'uninvoiced_hours', label: 'Uninvoiced hours', color: '#0f766e' },
                ]}
                format={(v) => formatHours(v)}
              />
              {byClient(data.results).map((group) => (
                <ClientTable key={group.client_id} group={group} range={range} />
              ))}
              {data.total_pages > 1 && <p className="text-sm text-stone-600">The first {data.results.length} of {data.total_entries} projects; the downloads list all.</p>}
            </>
          )}
          <Downloads report="uninvoiced" params={range} label="the uninvoiced report" />
        </div>
      )}
    </section>
  );
}

function ClientTable({ group, range }: { group: ClientGroup; range: Range }) {
  const { locale } = useLocale();
  const id = `client-${group.client_id}`;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={id} className="font-semibold text-stone-900">
          {group.client_name}
        </h3>
        <AriaLink href={invoiceHref(group, range)} className={buttonClass('primary')} aria-label={`Create invoice for ${group.client_name}`}>
          Create invoice
        </AriaLink>
      </div>
      <TableBox label={`Uninvoiced work for ${group.client_name}, table`}>
        <table className="w-full min-w-[36rem] border-collapse text-sm">
          <caption className="sr-only">Uninvoiced work for {group.client_name}</caption>
          <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
            <tr>
              <th scope="col" className={th}>Project</th>
              <th scope="col" className={`${th} text-right`}>Hours</th>
              <th scope="col" className={`${th} text-right`}>Uninvoiced hours</th>
              <th scope="col" className={`${th} text-right`}>Uninvoiced expenses</th>
              <th scope="col" className={`${th} text-right`}>Uninvoiced amount</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {group.rows.map((r) => (
              <tr key={r.project_id}>
                <th scope="row" className="px-3 py-2.5 text-left font-medium text-stone-900">
                  {r.project_name}
                </th>
                <td className={num}>{formatHours(r.total_hours, locale)}</td>
                <td className={num}>{formatHours(r.uninvoiced_hours, locale)}</td>
                <td className={num}>{formatMoney(r.uninvoiced_expenses, r.currency, locale)}</td>
                <td className={`${num} font-medium`}>{formatMoney(r.uninvoiced_amount, r.currency, locale)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableBox>
    </section>
  );
}
