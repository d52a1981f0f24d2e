import { Link } from '../../ui/Link.tsx';
import type { Home } from './api.ts';
import { Emphasis } from './Emphasis.tsx';
import { Section } from './Section.tsx';
import { useHomeTexts } from './texts.ts';
import { useFormat } from '../../api/format.ts';

type Approvals = NonNullable<Home['approvals']>;
type Budgets = NonNullable<Home['budgets']>;

/** Weeks submitted to the caller and not yet approved or rejected. */
export function ApprovalsSection({ approvals }: { approvals: Approvals }) {
  const t = useHomeTexts();
  return (
    <Section title={t('approvals.title')} action={<Link href="/approvals">{t('approvals.review')}</Link>}>
      {approvals.weeks === 0 ? (
        <p className="text-sm text-stone-600">{t('approvals.none')}</p>
      ) : (
        <p className="text-sm text-stone-700">
          <Emphasis
            text={t(approvals.people === 1 ? 'approvals.byOne' : 'approvals.byMany', { count: approvals.weeks, people: approvals.people })}
            className="text-2xl font-semibold text-stone-900 tabular-nums"
          />
        </p>
      )}
    </Section>
  );
}

/** Active projects the caller watches whose budget is used at 80 % or more. */
export function BudgetsSection({ budgets }: { budgets: Budgets }) {
  const t = useHomeTexts();
  const format = useFormat();
  // A money budget in its currency (fees: the client's; internal cost: the workspace's); hours have none.
  const amount = (p: { currency: string | null }, value: number) => (p.currency ? format.money(value, p.currency) : t('budgets.hours', { hours: format.hours(value) }));
  return (
    <Section title={t('budgets.title')}>
      {budgets.count === 0 ? (
        <p className="text-sm text-stone-600">{t('budgets.none')}</p>
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
                      {p.client_name} · {t(p.budget_is_monthly ? 'budgets.usedThisMonth' : 'budgets.used', { spent: amount(p, p.budget_spent), budget: amount(p, p.budget) })}
                    </p>
                  </div>
                  <span
                    className={
                      over
                        ? 'shrink-0 rounded-sm bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-800'
                        : 'shrink-0 rounded-sm bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900'
                    }
                  >
                    {t(over ? 'budgets.overBudget' : 'budgets.over80', { percent: format.number(p.percent, 0) })}
                  </span>
                </li>
              );
            })}
          </ul>
          {budgets.count > budgets.projects.length && (
            <p className="mt-2 text-xs text-stone-600">
              {t('budgets.mostUsed', { shown: budgets.projects.length, total: budgets.count })}
            </p>
          )}
        </>
      )}
    </Section>
  );
}
