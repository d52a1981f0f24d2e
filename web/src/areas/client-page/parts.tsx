import type { ReactNode } from 'react';
import { TotalRow as Total } from '../../ui/Definitions.tsx';
import type { createFormat } from '../../ui/format.ts';
import { Logo } from '../../ui/Logo.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { focusRingCss } from '../../ui/styles.ts';
import type { ClientPageData } from './api.ts';
import { useClientPageTexts } from './texts.ts';

type Format = ReturnType<typeof createFormat>;

/** The client page's frame: the logo and one card, outside the signed-in shell. */
export function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-dvh bg-stone-50 px-4 py-8 sm:py-12">
      <div className="mx-auto w-full max-w-3xl">
        <header className="mb-6">
          <Logo />
        </header>
        <main className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-8">{children}</main>
      </div>
    </div>
  );
}

/** Who sends the document, or whom it is for: a label, the name and the address lines. */
export function Party({ label, name, lines }: { label: string; name: string; lines: Array<string | null> }) {
  return (
    <div>
      <p className="text-xs font-semibold text-stone-600 uppercase">{label}</p>
      <p className="mt-0.5 font-medium text-stone-900">{name}</p>
      {lines.filter((l): l is string => Boolean(l)).map((l, n) => (
        <p key={n} className="whitespace-pre-line text-stone-700">
          {l}
        </p>
      ))}
    </div>
  );
}

/** A document's heading: its title, subject and state. */
export function DocumentTitle({ title, subject, state }: { title: string; subject: string | null; state: string }) {
  return (
    <div className="flex flex-col gap-1">
      <PageHeading>{title}</PageHeading>
      {subject && <p className="text-stone-700">{subject}</p>}
      <p>
        <span className="inline-flex rounded-full bg-stone-100 px-2.5 py-0.5 text-xs font-semibold text-stone-800">{state}</span>
      </p>
    </div>
  );
}

/** Who sends the document, and to whom. */
export function Parties({ seller, client }: Pick<ClientPageData, 'seller' | 'client'>) {
  const t = useClientPageTexts();
  return (
    <div className="grid gap-4 text-sm sm:grid-cols-2">
      <Party label={t('from')} name={seller.name} lines={[seller.address, seller.email, seller.phone, seller.tax_id ? t('taxId', { id: seller.tax_id }) : null]} />
      <Party label={t('to')} name={client.name} lines={[client.address]} />
    </div>
  );
}

interface Line {
  kind: string;
  description: string | null;
  quantity: number;
  unit_price: number;
  amount: number;
}

interface Totals {
  subtotal: number;
  discount: number;
  discount_amount: number;
  tax: number;
  tax_amount: number;
  tax2: number;
  tax2_amount: number;
  amount: number;
}

/**
 * The lines (stacked on a phone) and the totals of an invoice or an estimate; `amountText`
 * writes a line's amount (an invoice's credit lines say so), `children` are totals rows after
 * the total (an invoice's paid and due amounts).
 */
export function LinesAndTotals<L extends Line>({
  caption,
  lines,
  totals,
  money,
  format,
  amountText = (l) => money(l.amount),
  children,
}: {
  caption: string;
  lines: L[];
  totals: Totals;
  money: (n: number) => string;
  format: Format;
  amountText?: (line: L) => string;
  children?: ReactNode;
}) {
  const t = useClientPageTexts();
  const percent = (n: number) => format.number(n, 4);
  return (
    <section aria-labelledby="client-lines" className="flex flex-col gap-2">
      <h2 id="client-lines" className="text-lg font-semibold text-stone-900">
        {t('lines')}
      </h2>
      <div tabIndex={0} role="region" aria-labelledby="client-lines" className={`overflow-x-auto rounded-lg border border-stone-200 ${focusRingCss}`}>
        <table data-stack className="w-full min-w-[32rem] border-collapse text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2">{t('description')}</th>
              <th scope="col" className="px-3 py-2 text-right">{t('quantity')}</th>
              <th scope="col" className="px-3 py-2 text-right">{t('unitPrice')}</th>
              <th scope="col" className="px-3 py-2 text-right">{t('amount')}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {lines.map((l, n) => (
              <tr key={n} className="align-top">
                <th scope="row" className="px-3 py-2.5 text-left font-normal">
                  <span className="block text-xs text-stone-600">{l.kind}</span>
                  <span className="block whitespace-pre-line text-stone-900">{l.description || '—'}</span>
                </th>
                <td className="px-3 py-2.5 text-right tabular-nums">{format.number(l.quantity, 4)}</td>
                <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">{money(l.unit_price)}</td>
                <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">{amountText(l)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl aria-label={t('totals')} className="ml-auto grid w-full max-w-sm grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
        <Total label={t('subtotal')} value={money(totals.subtotal)} />
        {totals.discount > 0 && <Total label={t('discount', { percent: percent(totals.discount) })} value={`−${money(totals.discount_amount)}`} />}
        {totals.tax > 0 && <Total label={t('tax', { percent: percent(totals.tax) })} value={money(totals.tax_amount)} />}
        {totals.tax2 > 0 && <Total label={t('tax2', { percent: percent(totals.tax2) })} value={money(totals.tax2_amount)} />}
        <Total label={t('total')} value={money(totals.amount)} strong />
        {children}
      </dl>
    </section>
  );
}

/** The document's notes, when it has any. */
export function Notes({ text }: { text: string | null }) {
  const t = useClientPageTexts();
  if (!text) return null;
  return (
    <section aria-labelledby="client-notes" className="flex flex-col gap-2">
      <h2 id="client-notes" className="text-lg font-semibold text-stone-900">
        {t('notes')}
      </h2>
      <p className="text-sm whitespace-pre-line text-stone-800">{text}</p>
    </section>
  );
}
