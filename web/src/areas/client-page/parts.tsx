import type { ReactNode } from 'react';
import type { createFormat } from '../../ui/format.ts';
import { kindText } from '../../ui/kinds.ts';
import { Logo } from '../../ui/Logo.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { documentTotals, LinesTable, type ShownTotal } from '../../ui/LinesTable.tsx';
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

/** Who sends the document, and to whom: as the PDF prints them, with the tax number and the VAT IDs. */
export function Parties({ seller, client }: Pick<ClientPageData, 'seller' | 'client'>) {
  const t = useClientPageTexts();
  return (
    <div className="grid gap-4 text-sm sm:grid-cols-2">
      <Party
        label={t('from')}
        name={seller.name}
        lines={[
          seller.address,
          seller.email,
          seller.phone,
          seller.tax_id ? t('taxId', { id: seller.tax_id }) : null,
          seller.vat_id ? t('vatId', { id: seller.vat_id }) : null,
        ]}
      />
      <Party label={t('to')} name={client.name} lines={[client.address, client.vat_id ? t('vatId', { id: client.vat_id }) : null]} />
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

/**
 * The lines (stacked on a phone) and the totals of an invoice or an estimate, in ui/LinesTable as
 * the team's pages show them; `amountText` writes a line's amount (an invoice's credit lines say
 * so), `after` are totals rows after the total (an invoice's paid and due amounts).
 */
export function LinesAndTotals<L extends Line>({
  caption,
  lines,
  totals,
  money,
  format,
  amountText = (l) => money(l.amount),
  after = [],
}: {
  caption: string;
  lines: L[];
  totals: Parameters<typeof documentTotals>[0];
  money: (n: number) => string;
  format: Format;
  amountText?: (line: L) => string;
  after?: ShownTotal[];
}) {
  const t = useClientPageTexts();
  const percent = (n: number) => format.number(n, 4);
  return (
    <section aria-labelledby="client-lines" className="flex flex-col gap-2">
      <h2 id="client-lines" className="text-lg font-semibold text-stone-900">
        {t('lines')}
      </h2>
      <LinesTable
        headingId="client-lines"
        caption={caption}
        columns={{ description: t('description'), quantity: t('quantity'), unitPrice: t('unitPrice'), amount: t('amount') }}
        lines={lines.map((l, n) => ({
          id: String(n),
          // As the team's invoice page shows it: "Service", not the import's "SERVICE".
          kind: kindText(t, l.kind),
          description: l.description ?? '',
          quantity: format.quantity(l.quantity),
          unitPrice: money(l.unit_price),
          amount: amountText(l),
        }))}
        totalsLabel={t('totals')}
        totals={[
          ...documentTotals(
            totals,
            money,
            {
              subtotal: t('subtotal'),
              discount: (p) => t('discount', { percent: p }),
              tax: (p) => t('tax', { percent: p }),
              tax2: (p) => t('tax2', { percent: p }),
              retainerCredit: t('retainerCredit'),
              amount: t('total'),
            },
            percent,
          ),
          ...after,
        ]}
      />
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
