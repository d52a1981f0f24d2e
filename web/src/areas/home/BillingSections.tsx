import { Link } from '../../ui/Link.tsx';
import type { Home } from './api.ts';
import { Section } from './Section.tsx';
import { useHomeTexts } from './texts.ts';
import { useFormat } from '../../api/format.ts';

type Uninvoiced = NonNullable<Home['uninvoiced']>;
type Overdue = NonNullable<Home['overdue_invoices']>;

/** One line per currency: amounts of different currencies are never added. */
function Amounts({ amounts, label }: { amounts: { currency: string; amount: number; count?: number }[]; label: string }) {
  const t = useHomeTexts();
  const format = useFormat();
  return (
    <ul aria-label={label} className="flex flex-col gap-1">
      {amounts.map((a) => (
        <li key={a.currency} className="flex items-baseline justify-between gap-4">
          <span className="text-xl font-semibold text-stone-900 tabular-nums">{format.money(a.amount, a.currency)}</span>
          {a.count !== undefined && (
            <span className="text-sm text-stone-600">{t('overdue.invoices', { count: a.count })}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

export function UninvoicedSection({ uninvoiced }: { uninvoiced: Uninvoiced }) {
  const t = useHomeTexts();
  return (
    <Section title={t('uninvoiced.title')} action={<Link href={`/reports/uninvoiced?from=${uninvoiced.from}&to=${uninvoiced.to}`}>{t('uninvoiced.openReport')}</Link>}>
      {uninvoiced.amounts.length === 0 ? (
        <p className="text-sm text-stone-600">{t('uninvoiced.none')}</p>
      ) : (
        <>
          <Amounts amounts={uninvoiced.amounts} label={t('uninvoiced.amounts')} />
          <p className="mt-2 text-xs text-stone-600">{t('uninvoiced.explained')}</p>
        </>
      )}
    </Section>
  );
}

export function OverdueSection({ overdue }: { overdue: Overdue }) {
  const t = useHomeTexts();
  return (
    <Section title={t('overdue.title')} action={<Link href="/invoices?state=open">{t('overdue.openInvoices')}</Link>}>
      {overdue.count === 0 ? (
        <p className="text-sm text-stone-600">{t('overdue.none')}</p>
      ) : (
        <>
          <p className="mb-2 text-sm text-stone-700">{t('overdue.count', { count: overdue.count })}</p>
          <Amounts amounts={overdue.amounts} label={t('overdue.amounts')} />
        </>
      )}
    </Section>
  );
}
