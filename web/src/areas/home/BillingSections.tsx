import { useLocale } from 'react-aria-components';
import { Link } from '../../ui/Link.tsx';
import { formatMoney } from '../../ui/money.ts';
import type { Home } from './api.ts';
import { Section } from './Section.tsx';

type Uninvoiced = NonNullable<Home['uninvoiced']>;
type Overdue = NonNullable<Home['overdue_invoices']>;

/** One line per currency: amounts of different currencies are never added. */
function Amounts({ amounts, label }: { amounts: { currency: string; amount: number; count?: number }[]; label: string }) {
  const { locale } = useLocale();
  return (
    <ul aria-label={label} className="flex flex-col gap-1">
      {amounts.map((a) => (
        <li key={a.currency} className="flex items-baseline justify-between gap-4">
          <span className="text-xl font-semibold text-stone-900 tabular-nums">{formatMoney(a.amount, a.currency, locale)}</span>
          {a.count !== undefined && (
            <span className="text-sm text-stone-600">
              {a.count} {a.count === 1 ? 'invoice' : 'invoices'}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

export function UninvoicedSection({ uninvoiced }: { uninvoiced: Uninvoiced }) {
  return (
    <Section title="Uninvoiced" action={<Link href={`/reports/uninvoiced?from=${uninvoiced.from}&to=${uninvoiced.to}`}>Open the report</Link>}>
      {uninvoiced.amounts.length === 0 ? (
        <p className="text-sm text-stone-600">Nothing left to invoice from the last 12 months.</p>
      ) : (
        <>
          <Amounts amounts={uninvoiced.amounts} label="Uninvoiced amounts per currency" />
          <p className="mt-2 text-xs text-stone-600">Billable work and expenses of the last 12 months not yet on an invoice.</p>
        </>
      )}
    </Section>
  );
}

export function OverdueSection({ overdue }: { overdue: Overdue }) {
  return (
    <Section title="Overdue invoices" action={<Link href="/invoices?state=open">Open invoices</Link>}>
      {overdue.count === 0 ? (
        <p className="text-sm text-stone-600">No invoice is past its due date.</p>
      ) : (
        <>
          <p className="mb-2 text-sm text-stone-700">
            {overdue.count} open {overdue.count === 1 ? 'invoice is' : 'invoices are'} past the due date.
          </p>
          <Amounts amounts={overdue.amounts} label="Overdue amounts per currency" />
        </>
      )}
    </Section>
  );
}
