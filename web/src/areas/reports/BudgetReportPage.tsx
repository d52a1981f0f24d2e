import { useQuery } from '@tanstack/react-query';
import { useLocale } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import { Select } from '../../ui/Select.tsx';
import { budgetQuery, type BudgetRow } from './api.ts';
import { formatHours, formatNumber } from './format.ts';
import { activeOf } from './params.ts';
import { Chart, Downloads, Empty, LoadError, Loading, TableBox, num, th, useSearchUpdate } from './parts.tsx';

/** What a budget is counted in (the API's budget_by): hours, or money (fees at the rates in force; internal cost). */
const UNIT: Record<string, { label: string; money: boolean }> = {
  project: { label: 'Hours (project)', money: false },
  task: { label: 'Hours (per task)', money: false },
  person: { label: 'Hours (per person)', money: false },
  task_fees: { label: 'Fees (per task)', money: true },
  project_cost: { label: 'Internal cost', money: true },
};

const ACTIVE = [
  { id: 'true', label: 'Active projects' },
  { id: 'false', label: 'Archived projects' },
  { id: 'all', label: 'All projects' },
];

/** Budget against spend per project: bars of spent vs budget (one chart per unit), the remainder, the monthly flag. */
export function BudgetReportPage() {
  const [params] = useSearchParams();
  const update = useSearchUpdate();
  const isActive = activeOf(params);
  const { data, error, isPlaceholderData } = useQuery(budgetQuery(isActive));
  const budgeted = (data?.results ?? []).filter((r) => r.budget !== null && r.budget_spent !== null);
  const hours = budgeted.filter((r) => !UNIT[r.budget_by]?.money);
  const money = budgeted.filter((r) => UNIT[r.budget_by]?.money);
  const bars = (rows: BudgetRow[]) => rows.map((r) => ({ name: r.project_name, spent: r.budget_spent, budget: r.budget }));
  const series = [
    { key: 'spent', label: 'Spent', color: '#0f766e' },
    { key: 'budget', label: 'Budget', color: '#a8a29e' },
  ];

  return (
    <section aria-labelledby="budget-report" className="flex flex-col gap-4">
      <h2 id="budget-report" className="text-lg font-semibold text-stone-900">
        Project budget
      </h2>
      <div className="grid gap-3 sm:grid-cols-3">
        <Select label="Projects" options={ACTIVE} selectedKey={isActive ?? 'all'} onSelectionChange={(key) => update({ active: String(key) })} />
      </div>
      <p className="text-sm text-stone-600">Monthly budgets count the current month; fee budgets count rounded time at the rate in force on each day.</p>
      {error && !data && <LoadError error={error} />}
      {!data && !error && <Loading what="the project budgets" />}
      {data && (
        <div aria-busy={isPlaceholderData} className="flex flex-col gap-4">
          {data.results.length === 0 ? (
            <Empty>No projects to show.</Empty>
          ) : (
            <>
              {hours.length > 0 && <Chart label="Hours spent against hours budgeted, per project" data={bars(hours)} series={series} format={(v) => formatHours(v)} />}
              {money.length > 0 && <Chart label="Money spent against money budgeted, per project" data={bars(money)} series={series} format={(v) => formatNumber(v)} />}
              <BudgetTable rows={data.results} />
              {data.total_pages > 1 && <p className="text-sm text-stone-600">The first {data.results.length} of {data.total_entries} projects; the downloads list all.</p>}
            </>
          )}
          <Downloads report="project_budget" params={{ is_active: isActive }} label="the project budgets" />
        </div>
      )}
    </section>
  );
}

function BudgetTable({ rows }: { rows: BudgetRow[] }) {
  const { locale } = useLocale();
  const show = (r: BudgetRow, value: number | null) =>
    value === null ? <span className="text-stone-500">—</span> : UNIT[r.budget_by]?.money ? formatNumber(value, locale) : formatHours(value, locale);
  return (
    <TableBox label={"Budget and spend per project, table"}>
      <table className="w-full min-w-[40rem] border-collapse text-sm">
        <caption className="sr-only">Budget and spend per project</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className={th}>Project</th>
            <th scope="col" className={th}>Budget by</th>
            <th scope="col" className={`${th} text-right`}>Budget</th>
            <th scope="col" className={`${th} text-right`}>Spent</th>
            <th scope="col" className={`${th} text-right`}>Remaining</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {rows.map((r) => {
            const over = r.budget_remaining !== null && r.budget_remaining < 0;
            return (
              <tr key={r.project_id}>
                <th scope="row" className="px-3 py-2.5 text-left font-normal">
                  <span className="block font-medium text-stone-900">
                    {r.project_name}
                    {!r.is_active && <span className="ml-2 text-xs font-normal text-stone-600">Archived</span>}
                  </span>
                  <span className="block text-xs text-stone-600">{r.client_name}</span>
                </th>
                <td className="px-3 py-2.5 text-stone-700">
                  {UNIT[r.budget_by]?.label ?? 'No budget'}
                  {r.budget_is_monthly && <span className="ml-2 rounded-sm bg-sky-50 px-1.5 py-0.5 text-xs font-medium text-sky-900">Monthly</span>}
                </td>
                <td className={num}>{show(r, r.budget)}</td>
                <td className={num}>{show(r, r.budget_spent)}</td>
                <td className={`${num} ${over ? 'font-semibold text-red-700' : ''}`}>
                  {show(r, r.budget_remaining)}
                  {over && <span className="block text-xs font-normal">Over budget</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableBox>
  );
}
