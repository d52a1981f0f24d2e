import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Select } from '../../ui/Select.tsx';
import { budgetQuery, type BudgetRow } from './api.ts';
import { useFormat } from '../../api/format.ts';
import { SaveReport } from './save.tsx';
import { useReportTexts } from './texts.ts';
import { activeOf } from './params.ts';
import { Chart, Downloads, Empty, LoadError, Loading, TableBox, num, th, useSearchUpdate, usePagedRows } from './parts.tsx';

/** What a budget is counted in (the API's budget_by): hours, or money (fees at the rates in force; internal cost). */
const UNITS = ['project', 'task', 'person', 'task_fees', 'project_cost'] as const;
type Unit = (typeof UNITS)[number];
const unitOf = (budgetBy: string): Unit | undefined => UNITS.find((u) => u === budgetBy);

const ACTIVE = ['true', 'false', 'all'] as const;

/** Budget against spend per project: bars of spent vs budget (one chart per unit), the remainder, the monthly flag. */
export function BudgetReportPage() {
  const t = useReportTexts();
  const [params] = useSearchParams();
  const update = useSearchUpdate();
  const isActive = activeOf(params);
  const { data, error, isPlaceholderData } = useQuery(budgetQuery(isActive));
  const budgeted = (data?.results ?? []).filter((r) => r.budget !== null && r.budget_spent !== null);
  // A money budget is one with a currency (the report names it); the rest count hours.
  const hours = budgeted.filter((r) => r.currency === null);
  const money = budgeted.filter((r) => r.currency !== null);
  const bars = (rows: BudgetRow[]) => rows.map((r) => ({ name: r.project_name, spent: r.budget_spent, budget: r.budget }));
  const series = [
    { key: 'spent', label: t('budget.spent'), color: '#0f766e' },
    { key: 'budget', label: t('budget.budget'), color: '#a8a29e' },
  ];

  return (
    <section aria-labelledby="budget-report" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="budget-report" className="text-lg font-semibold text-stone-900">
          {t('budget.heading')}
        </h2>
        <SaveReport report="project_budget" range={null} is_active={isActive === undefined ? null : isActive === 'true'} />
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <Select label={t('budget.projects')} options={ACTIVE.map((id) => ({ id, label: t(`budget.active.${id}`) }))} selectedKey={isActive ?? 'all'} onSelectionChange={(key) => update({ active: String(key) })} />
      </div>
      <p className="text-sm text-stone-600">{t('budget.explained')}</p>
      {error && !data && <LoadError error={error} />}
      {!data && !error && <Loading text={t('loading.budget')} />}
      {data && (
        <div aria-busy={isPlaceholderData} className="flex flex-col gap-4">
          {data.results.length === 0 ? (
            <Empty>{t('budget.empty')}</Empty>
          ) : (
            <>
              {hours.length > 0 && <Chart label={t('budget.hoursChart')} data={bars(hours)} series={series} unit="hours" />}
              {money.length > 0 && <Chart label={t('budget.moneyChart')} data={bars(money)} series={series} unit="amount" />}
              <BudgetTable rows={data.results} />
              {data.total_pages > 1 && <p className="text-sm text-stone-600">{t('budget.firstOf', { shown: data.results.length, count: data.total_entries })}</p>}
            </>
          )}
          <Downloads report="project_budget" params={{ is_active: isActive }} label={t('budget.download')} />
        </div>
      )}
    </section>
  );
}

function BudgetTable({ rows }: { rows: BudgetRow[] }) {
  const { shown, pager } = usePagedRows(rows);
  const t = useReportTexts();
  const format = useFormat();
  const unitLabel = (budgetBy: string) => {
    const unit = unitOf(budgetBy);
    return unit ? t(`budget.units.${unit}`) : t('budget.noBudget');
  };
  const show = (r: BudgetRow, value: number | null) =>
    value === null ? <span className="text-stone-500">—</span> : r.currency ? format.money(value, r.currency) : format.hours(value);
  return (
    <TableBox label={t('budget.table')} pager={pager}>
      <table data-stack className="w-full min-w-[40rem] border-collapse text-sm">
        <caption className="sr-only">{t('budget.caption')}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className={th}>{t('budget.project')}</th>
            <th scope="col" className={th}>{t('budget.budgetBy')}</th>
            <th scope="col" className={`${th} text-right`}>{t('budget.budget')}</th>
            <th scope="col" className={`${th} text-right`}>{t('budget.spent')}</th>
            <th scope="col" className={`${th} text-right`}>{t('budget.remaining')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {shown.map((r) => {
            const over = r.budget_remaining !== null && r.budget_remaining < 0;
            return (
              <tr key={r.project_id}>
                <th scope="row" className="px-3 py-2.5 text-left font-normal">
                  <span className="block font-medium text-stone-900">
                    {r.project_name}
                    {!r.is_active && <span className="ml-2 text-xs font-normal text-stone-600">{t('budget.archived')}</span>}
                  </span>
                  <span className="block text-xs text-stone-600">{r.client_name}</span>
                </th>
                <td className="px-3 py-2.5 text-stone-700">
                  {unitLabel(r.budget_by)}
                  {r.budget_is_monthly && <span className="ml-2 rounded-sm bg-sky-50 px-1.5 py-0.5 text-xs font-medium text-sky-900">{t('budget.monthly')}</span>}
                </td>
                <td className={num}>{show(r, r.budget)}</td>
                <td className={num}>{show(r, r.budget_spent)}</td>
                <td className={`${num} ${over ? 'font-semibold text-red-700' : ''}`}>
                  {show(r, r.budget_remaining)}
                  {over && <span className="block text-xs font-normal">{t('budget.over')}</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableBox>
  );
}
