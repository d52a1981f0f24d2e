import { parseDate } from '@internationalized/date';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { buttonClass } from '../../ui/Button.tsx';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { pageOfRows } from '../../ui/pages.ts';
import { Select, type SelectOption } from '../../ui/Select.tsx';
import { cx, focusRingCss } from '../../ui/styles.ts';
import { useFormat } from '../../api/format.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { exportUrl, type ExportReport, type Range } from './api.ts';
import { PERIODS, TABLE_ROWS, periodOf, periodRange, presetOf, today, type Period } from './period.ts';
import { useReportTexts } from './texts.ts';

/** Changes some of the URL's parameters, keeping the others (the page's state lives in the URL). */
export function useSearchUpdate() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  return (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) next.delete(name);
      else next.set(name, value);
    }
    navigate({ search: `?${next}` }, { replace: false });
  };
}

/** Today in the workspace's time zone (the server's clock). */
export function useToday(): string {
  return today(useFormat());
}

/** The workspace's first day of the week (Settings → Workspace): the weeks of This week and Last week. */
export function useWeekStart(): string {
  return useWorkspaceSession().workspace.week_start;
}

/** The page's period: from and to in the URL, else this month of the workspace's calendar. */
export function usePeriod(): { from: string; to: string } {
  const [params] = useSearchParams();
  return periodOf(params, useToday());
}

/** The period: a named one, or any from and to typed or picked. */
export function PeriodPicker({ range, maxDays }: { range: Range; maxDays?: number }) {
  const t = useReportTexts();
  const format = useFormat();
  const update = useSearchUpdate();
  const day = useToday();
  const weekStart = useWeekStart();
  const preset = presetOf(range, day, weekStart);
  const options: SelectOption[] = PERIODS.map((id) => ({ id, label: t(`periods.${id}`) }));
  if (!preset) options.push({ id: 'custom', label: format.dayRange(range.from, range.to) });
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      <Select
        label={t('period')}
        options={options}
        selectedKey={preset ?? 'custom'}
        onSelectionChange={(key) => {
          if (key === 'custom') return;
          const r = periodRange(key as Period, day, weekStart);
          update({ from: r.from, to: r.to });
        }}
      />
      <DatePicker
        label={t('from')}
        value={parseDate(range.from)}
        onChange={(d) => d && d.toString() <= range.to && update({ from: d.toString() })}
      />
      <DatePicker
        label={t('to')}
        value={parseDate(range.to)}
        onChange={(d) => d && d.toString() >= range.from && update({ to: d.toString() })}
      />
      {maxDays && <p className="text-sm text-stone-600 sm:col-span-3">{t('atMostDays', { count: maxDays })}</p>}
    </div>
  );
}

/** A table's downloads: every row (not only those shown), streamed by the server. `title` says what is downloaded. */
export function Downloads({ report, params, label, title }: { report: ExportReport; params: Record<string, string | undefined>; label: string; title?: string }) {
  const t = useReportTexts();
  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label={t('downloadNamed', { what: label })}>
      {title && <span className="text-sm text-stone-700">{title}</span>}
      <a href={exportUrl(report, 'csv', params)} download className={buttonClass('secondary')} aria-label={t('csvOf', { what: label })}>
        {t('downloadCsv')}
      </a>
      <a href={exportUrl(report, 'xlsx', params)} download className={buttonClass('secondary')} aria-label={t('xlsxOf', { what: label })}>
        {t('downloadXlsx')}
      </a>
    </div>
  );
}

export function Loading({ text }: { text: string }) {
  return (
    <div role="status" className="rounded-lg border border-stone-200 bg-white p-6 text-stone-600 shadow-xs">
      {text}
    </div>
  );
}

export function LoadError({ error }: { error: unknown }) {
  return <Alert>{describeError(error).message}</Alert>;
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-700">{children}</div>;
}

/** The charts, in a chunk of their own (recharts), loaded after the table is on screen. */
export const BarsChart = lazy(() => import('./Charts.tsx').then((m) => ({ default: m.BarsChart })));

export function Chart(props: Parameters<typeof BarsChart>[0]) {
  return (
    <Suspense fallback={<div className="h-48 rounded-lg border border-stone-200 bg-white" aria-hidden="true" />}>
      <BarsChart {...props} />
    </Suspense>
  );
}

/**
 * A scrolling box for a wide table (positioned: screen-reader-only text inside it must not widen
 * the page); focusable and named, so a keyboard can scroll it at phone width.
 */
export function TableBox({ label, pager, children }: { label: string; pager?: ReactNode; children: ReactNode }) {
  return (
    <>
      <div role="region" aria-label={label} tabIndex={0} className={cx('relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs', focusRingCss)}>
        {children}
      </div>
      {/* Below the box, not in it: the box scrolls sideways on a phone, the pager stays in view. */}
      {pager}
    </>
  );
}

/**
 * A report table's rows TABLE_ROWS at a time (pageOfRows), and its pager when there is more than one
 * page; `size` and `noun` for other things than rows (the uninvoiced report's clients). Other rows
 * (another period, grouping or filter) start on the first page again.
 */
export function usePagedRows<T>(rows: readonly T[], { size = TABLE_ROWS, noun }: { size?: number; noun?: string } = {}): { shown: readonly T[]; pager: ReactNode } {
  const t = useReportTexts();
  const [wanted, setWanted] = useState({ page: 1, rows });
  const { shown, page, pages } = pageOfRows(rows, wanted.rows === rows ? wanted.page : 1, size);
  const pager =
    pages > 1 ? <Pager list={{ page, total_pages: pages, total_entries: rows.length }} noun={noun ?? t('rowsNoun')} onPage={(next) => setWanted({ page: next, rows })} /> : null;
  return { shown, pager };
}

export const th = 'px-3 py-2';
export const num = 'px-3 py-2.5 text-right whitespace-nowrap tabular-nums';

/** A row's billable amounts, one cell per currency of the table (a dash where it has none): currencies are never added. */
export function AmountCells({ amounts, currencies }: { amounts: { currency: string; billable_amount: number }[] | undefined; currencies: string[] }) {
  const format = useFormat();
  return currencies.map((c) => {
    const a = amounts?.find((x) => x.currency === c);
    return (
      <td key={c} className={num}>
        {a ? format.money(a.billable_amount, c) : <span className="text-stone-500">—</span>}
      </td>
    );
  });
}

/**
 * A report table's total row: a <tfoot> whose row header says "Total" (over `span` columns), then
 * its cells. The figures are the server's, summed over every row of the report, so the pager
 * (usePagedRows) never changes them; stacked on a phone, its cells are named like the body's.
 */
export function TotalRow({ span = 1, children }: { span?: number; children: ReactNode }) {
  const t = useReportTexts();
  return (
    <tfoot className="border-t-2 border-stone-300 bg-stone-50 font-semibold text-stone-900">
      <tr>
        <th scope="row" colSpan={span} className="px-3 py-2.5 text-left">
          {t('total')}
        </th>
        {children}
      </tr>
    </tfoot>
  );
}
