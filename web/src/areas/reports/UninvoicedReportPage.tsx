import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link as AriaLink } from 'react-aria-components';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { buttonClass } from '../../ui/Button.tsx';
import { uninvoicedQuery, type Range, type UninvoicedRow, type UninvoicedTotal } from './api.ts';
import { beyondReportSpan } from './period.ts';
import { Chart, Downloads, Empty, LoadError, Loading, PeriodPicker, TableBox, TotalRow, num, th, usePagedRows, usePeriod } from './parts.tsx';
import { SaveReport } from './save.tsx';
import { useReportTexts } from './texts.ts';

interface ClientGroup {
  client_id: string;
  client_name: string;
  rows: UninvoicedRow[];
  /** The table's total row (the server's, over all the client's rows; one currency: the client's). */
  total?: UninvoicedTotal;
}

function byClient(rows: UninvoicedRow[], totals: UninvoicedTotal[]): ClientGroup[] {
  const groups = new Map<string, ClientGroup>();
  for (const r of rows) {
    const g = groups.get(r.client_id) ?? {
      client_id: r.client_id,
      client_name: r.client_name,
      rows: [],
      total: totals.find((x) => x.client_id === r.client_id && x.currency === r.currency),
    };
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

/**
 * Clients shown at a time: an agency's year of uninvoiced work is hundreds of clients and
 * thousands of projects, each client a table of its own; the chart and the download keep all.
 */
const CLIENTS_PER_PAGE = 20;

/** Whether a project's row has anything an invoice would take: time, expenses or a fixed fee's balance. */
const hasOpenWork = (r: UninvoicedRow) => Number(r.uninvoiced_hours) > 0 || Number(r.uninvoiced_expenses) > 0 || Number(r.uninvoiced_amount) > 0;

/** Uninvoiced time and expenses per client and project, with "Create invoice" per client. */
export function UninvoicedReportPage() {
  const t = useReportTexts();
  const range = usePeriod();
  const tooLong = beyondReportSpan(range);
  const { data, error, isPlaceholderData } = useQuery({ ...uninvoicedQuery(range), enabled: !tooLong });

  return (
    <section aria-labelledby="uninvoiced-report" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="uninvoiced-report" className="text-lg font-semibold text-stone-900">
          {t('uninvoiced.heading')}
        </h2>
        <SaveReport report="uninvoiced" range={range} />
      </div>
      <PeriodPicker range={range} />
      {tooLong && <Alert>{t('uninvoiced.tooLong')}</Alert>}
      {error && !data && !tooLong && <LoadError error={error} />}
      {!data && !error && !tooLong && <Loading text={t('loading.uninvoiced')} />}
      {data && !tooLong && (
        <div aria-busy={isPlaceholderData} className="flex flex-col gap-4">
          {data.results.length === 0 ? (
            <Empty>{t('uninvoiced.empty')}</Empty>
          ) : (
            <>
              <Chart
                label={t('uninvoiced.chart')}
                data={data.results.map((r) => ({ name: r.project_name, uninvoiced_hours: r.uninvoiced_hours, total_hours: r.total_hours }))}
                series={[
                  { key: 'total_hours', label: t('hours'), color: '#a8a29e' },
                  { key: 'uninvoiced_hours', label: t('uninvoiced.uninvoicedHours'), color: '#0f766e' },
                ]}
                unit="hours"
              />
              <ClientTables rows={data.results} totals={data.totals} range={range} />
              {data.total_pages > 1 && <p className="text-sm text-stone-600">{t('uninvoiced.firstOf', { shown: data.results.length, count: data.total_entries })}</p>}
            </>
          )}
          <Downloads report="uninvoiced" params={range} label={t('uninvoiced.download')} />
        </div>
      )}
    </section>
  );
}

/** The clients' tables, CLIENTS_PER_PAGE at a time. */
function ClientTables({ rows, totals, range }: { rows: UninvoicedRow[]; totals: UninvoicedTotal[]; range: Range }) {
  const t = useReportTexts();
  const groups = useMemo(() => byClient(rows, totals), [rows, totals]);
  const { shown, pager } = usePagedRows(groups, { size: CLIENTS_PER_PAGE, noun: t('uninvoiced.clientsNoun') });
  return (
    <>
      {shown.map((group) => (
        <ClientTable key={group.client_id} group={group} range={range} />
      ))}
      {pager}
    </>
  );
}

function ClientTable({ group, range }: { group: ClientGroup; range: Range }) {
  const t = useReportTexts();
  const format = useFormat();
  const id = `client-${group.client_id}`;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={id} className="font-semibold text-stone-900">
          {group.client_name}
        </h3>
        {group.rows.some(hasOpenWork) ? (
          <AriaLink href={invoiceHref(group, range)} className={buttonClass('primary')} aria-label={t('uninvoiced.createFor', { name: group.client_name })}>
            {t('uninvoiced.create')}
          </AriaLink>
        ) : (
          <p className="text-sm text-stone-600">{t('uninvoiced.nothingLeft')}</p>
        )}
      </div>
      <TableBox label={t('uninvoiced.table', { name: group.client_name })}>
        <table data-stack className="w-full min-w-[36rem] border-collapse text-sm">
          <caption className="sr-only">{t('uninvoiced.caption', { name: group.client_name })}</caption>
          <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
            <tr>
              <th scope="col" className={th}>{t('uninvoiced.project')}</th>
              <th scope="col" className={`${th} text-right`}>{t('hours')}</th>
              <th scope="col" className={`${th} text-right`}>{t('uninvoiced.uninvoicedHours')}</th>
              <th scope="col" className={`${th} text-right`}>{t('uninvoiced.expenses')}</th>
              <th scope="col" className={`${th} text-right`}>{t('uninvoiced.amount')}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {group.rows.map((r) => (
              <tr key={r.project_id}>
                <th scope="row" className="px-3 py-2.5 text-left font-medium text-stone-900">
                  {r.project_name}
                </th>
                <td className={num}>{format.hours(r.total_hours)}</td>
                <td className={num}>{format.hours(r.uninvoiced_hours)}</td>
                <td className={num}>{format.money(r.uninvoiced_expenses, r.currency)}</td>
                <td className={`${num} font-medium`}>{format.money(r.uninvoiced_amount, r.currency)}</td>
              </tr>
            ))}
          </tbody>
          {group.total && (
            <TotalRow>
              <td className={num}>{format.hours(group.total.total_hours)}</td>
              <td className={num}>{format.hours(group.total.uninvoiced_hours)}</td>
              <td className={num}>{format.money(group.total.uninvoiced_expenses, group.total.currency)}</td>
              <td className={num}>{format.money(group.total.uninvoiced_amount, group.total.currency)}</td>
            </TotalRow>
          )}
        </table>
      </TableBox>
    </section>
  );
}
