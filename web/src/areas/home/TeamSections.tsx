import { useLocale } from 'react-aria-components';
import { formatDuration } from '../../ui/duration.ts';
import { Link } from '../../ui/Link.tsx';
import type { Home } from './api.ts';
import { isMoneyBudget, pendingText } from './home.ts';
import { Section } from './Section.tsx';

type Approvals = NonNullable<Home['approvals']>;
type Budgets = NonNullable<Home['budgets']>;

/** Weeks submitted to the caller and not yet approved or rejected. */
export function ApprovalsSection({ approvals }: { approvals: Approvals }) {
  return (
    <Section title="Awaiting your approval" action={<Link href="/approvals">Review approvals</Link>}>
      {approvals.weeks === 0 ? (
        <p className="text-sm text-stone-600">Nothing awaits your approval.</p>
      ) : (
        <p className="text-sm text-stone-700">
          <span className="text-2xl font-semibold text-stone-900 tabular-nums">{approvals.weeks}</span> {pendingText(approvals.weeks, approvals.people)}.
        </p>
      )}
    </Section>
  );
}

/** Active projects the caller watches whose budget is used at 80 % or more. */
export function BudgetsSection({ budgets }: { budgets: Budgets }) {
  const { locale } = useLocale();
  const amount = (budgetBy: string, value: number) =>
    isMoneyBudget(budgetBy) ? new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value) : `${formatDuration(Math.round(value * 3600))} h`;
  return (
    <Section title="Budgets">
      {budgets.count === 0 ? (
        <p className="text-sm text-stone-600">No project you watch has used 80 % of its budget.</p>
      ) : (
        <>
          <ul className="divide-y divide-stone-100">
            {budgets.projects.map((p) => {
              const over = p.level === 'over_100';
              return (
                <li key={p.project_id} className="flex items-center justify-between gap-3 py-2.5">
                  <div className="min-w-0">
                    <Link href={`/projects/${p.project_id}`} className="block truncate text-sm">
                      {p.project_name}
                    </Link>
                    <p className="truncate text-xs text-stone-600">
                      {p.client_name} · {amount(p.budget_by, p.budget_spent)} of {amount(p.budget_by, p.budget)}
                      {p.budget_is_monthly ? ' this month' : ''}
                    </p>
                  </div>
                  <span
                    className={
                      over
                        ? 'shrink-0 rounded-sm bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-800'
                        : 'shrink-0 rounded-sm bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900'
                    }
                  >
                    {p.percent} % · {over ? 'Over budget' : 'Over 80 %'}
                  </span>
                </li>
              );
            })}
          </ul>
          {budgets.count > budgets.projects.length && (
            <p className="mt-2 text-xs text-stone-600">
              The {budgets.projects.length} most used of {budgets.count} projects.
            </p>
          )}
        </>
      )}
    </Section>
  );
}
