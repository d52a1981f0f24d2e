import { useQuery } from '@tanstack/react-query';
import { Link as AriaLink } from 'react-aria-components';
import type { TFunction } from 'i18next';
import { Trans } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { usePersonChoices } from '../../api/people.ts';
import { useSession } from '../../api/session.ts';
import { useFormat } from '../../api/format.ts';
import { PersonPicker } from '../../ui/PersonPicker.tsx';
import { Alert } from '../../ui/Alert.tsx';
import { buttonClass } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select, type SelectOption } from '../../ui/Select.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { sheetQuery, type Sheet, type SheetFilter, type WebExpense } from './api.ts';
import { filterOf, searchOf } from './filters.ts';
import { PERIODS, periodRange, type Period } from './period.ts';
import { ReceiptPreview } from './Receipt.tsx';
import { statusOf } from './status.ts';
import { useExpenseTexts } from './texts.ts';

/**
 * A person's expenses (the caller's; managers and administrators pick someone else's),
 * newest first: filters in the URL, pages of 25, each row opening the form.
 */
export function ExpensesPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const t = useExpenseTexts();
  const filter = filterOf(params);
  const { data: sheet, error, isPlaceholderData } = useQuery(sheetQuery(filter));
  const go = (next: SheetFilter) => navigate(`/expenses${searchOf(next)}`);
  const filtered = !!(filter.from || filter.to || filter.project_id || filter.expense_category_id);
  const someoneElse = !!sheet && sheet.user.id !== session.user.id;

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageHeading>{someoneElse ? t('expensesOf', { name: sheet.user.name }) : t('expenses')}</PageHeading>
        {!someoneElse && (
          <AriaLink href="/expenses/new" className={buttonClass('primary')}>
            {t('recordAnExpense')}
          </AriaLink>
        )}
      </div>
      {error && !sheet && <Alert>{describeError(error).message}</Alert>}
      {sheet && <PersonSwitch person={sheet.user} onPick={(user_id) => go({ ...filter, user_id, page: undefined })} />}
      {sheet && <Filters sheet={sheet} filter={filter} onChange={(f) => go({ ...f, page: undefined })} />}
      {!sheet && !error && (
        <div role="status" className="rounded-lg border border-stone-200 bg-white p-6 text-stone-600 shadow-xs">
          {t('loadingExpenses')}
        </div>
      )}
      {sheet && (
        <section aria-labelledby="expenses-list" aria-busy={isPlaceholderData} className="flex flex-col gap-3">
          <h2 id="expenses-list" className="sr-only">
            {someoneElse ? t('theirExpenses') : t('yourExpenses')}
          </h2>
          {sheet.expenses.length === 0 && someoneElse ? (
            <div className="rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-700">
              <p>{filtered ? t('noneOfTheirsMatch') : t('noneOfTheirs', { name: sheet.user.name })}</p>
            </div>
          ) : sheet.expenses.length === 0 ? (
            <div className="rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-700">
              {filtered ? (
                <p>
                  {t('noMatch')} <Link href="/expenses">{t('showAll')}</Link>
                </p>
              ) : (
                <p>
                  <Trans t={t as unknown as TFunction} i18nKey="noneYet" components={{ action: <Link href="/expenses/new" /> }} />
                </p>
              )}
            </div>
          ) : (
            <ExpenseTable expenses={sheet.expenses} caption={someoneElse ? t('list.captionTheirs', { name: sheet.user.name }) : t('list.captionYours')} />
          )}
          {sheet.total_pages > 1 && <Pager list={sheet} noun={t('pagerNoun')} onPage={(page) => go({ ...filter, page })} />}
        </section>
      )}
    </div>
  );
}

function Filters({ sheet, filter, onChange }: { sheet: Sheet; filter: SheetFilter; onChange: (f: SheetFilter) => void }) {
  const t = useExpenseTexts();
  const format = useFormat();
  const preset = PERIODS.find((p) => {
    const range = periodRange(p, sheet.today);
    return range.from === filter.from && range.to === filter.to;
  });
  const periods: SelectOption[] = PERIODS.map((p) => ({ id: p, label: t(`periods.${p}`) }));
  if (!preset) {
    periods.push({ id: 'custom', label: t('customPeriod', { from: filter.from ? format.day(filter.from) : '…', to: filter.to ? format.day(filter.to) : '…' }) });
  }
  const projects: SelectOption[] = [
    { id: 'all', label: t('allProjects') },
    ...sheet.projects.map((p) => ({ id: p.id, label: `${p.client_name} - ${p.name}` })),
  ];
  const categories: SelectOption[] = [
    { id: 'all', label: t('allCategories') },
    ...sheet.categories.map((c) => ({ id: c.id, label: c.is_active ? c.name : t('archivedCategory', { name: c.name }) })),
  ];
  return (
    <div className="grid gap-3 sm:grid-cols-3" role="group" aria-label={t('filters')}>
      <Select
        label={t('period')}
        options={periods}
        selectedKey={preset ?? 'custom'}
        onSelectionChange={(key) => {
          if (key === 'custom') return;
          const range = periodRange(key as Period, sheet.today);
          onChange({ ...filter, from: range.from, to: range.to });
        }}
      />
      <Select
        label={t('project')}
        options={projects}
        selectedKey={filter.project_id ?? 'all'}
        onSelectionChange={(key) => onChange({ ...filter, project_id: key === 'all' ? undefined : String(key) })}
      />
      <Select
        label={t('category')}
        options={categories}
        selectedKey={filter.expense_category_id ?? 'all'}
        onSelectionChange={(key) => onChange({ ...filter, expense_category_id: key === 'all' ? undefined : String(key) })}
      />
    </div>
  );
}

/** Whose expenses the list shows, for owners, administrators and managers (the `user` of the URL). */
function PersonSwitch({ person, onPick }: { person: { id: string; name: string }; onPick: (userId: string | undefined) => void }) {
  const choices = usePersonChoices(person);
  return choices && <PersonPicker choices={choices} person={person} onPick={onPick} />;
}

function ExpenseTable({ expenses, caption }: { expenses: WebExpense[]; caption: string }) {
  const t = useExpenseTexts();
  return (
    <div className="relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs">
      <table data-stack className="w-full min-w-[44rem] border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">{t('list.date')}</th>
            <th scope="col" className="px-3 py-2">{t('list.project')}</th>
            <th scope="col" className="px-3 py-2">{t('list.categoryAndNotes')}</th>
            <th scope="col" className="px-3 py-2 text-right">{t('list.amount')}</th>
            <th scope="col" className="px-3 py-2">{t('list.receipt')}</th>
            <th scope="col" className="px-3 py-2">{t('list.status')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {expenses.map((e) => (
            <ExpenseRow key={e.id} expense={e} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ExpenseRow({ expense: e }: { expense: WebExpense }) {
  const t = useExpenseTexts();
  const format = useFormat();
  const status = statusOf(e);
  const day = format.day(e.spent_date);
  return (
    <tr className="align-top">
      <th scope="row" className="px-3 py-2.5 text-left font-normal whitespace-nowrap">
        <Link href={`/expenses/${e.id}`} aria-label={t(e.is_locked ? 'list.view' : 'list.edit', { date: day, category: e.expense_category.name })}>
          {day}
        </Link>
      </th>
      <td className="px-3 py-2.5">
        <span className="block font-medium text-stone-900">{e.project.name}</span>
        <span className="block text-xs text-stone-600">{e.project.client_name}</span>
      </td>
      <td className="px-3 py-2.5">
        <span className="block text-stone-900">{e.expense_category.name}</span>
        {e.units !== null && e.expense_category.unit_name && (
          <span className="block text-xs text-stone-600">
            {t('list.units', { units: format.number(e.units, 6), unit: e.expense_category.unit_name })}
          </span>
        )}
        {e.notes && <span className="mt-0.5 block text-stone-700">{e.notes}</span>}
      </td>
      <td className="px-3 py-2.5 text-right font-medium whitespace-nowrap tabular-nums">
        {format.money(e.total_cost, e.currency)}
        {!e.billable && <span className="block text-xs font-normal text-stone-600">{t('list.notBillable')}</span>}
      </td>
      <td className="px-3 py-2.5">{e.receipt ? <ReceiptPreview expense={e} /> : <span className="text-stone-500">{t('list.noReceipt')}</span>}</td>
      <td className="px-3 py-2.5 text-stone-700">{status ? t(`status.${status}`) : <span className="sr-only">{t('list.notSubmitted')}</span>}</td>
    </tr>
  );
}
