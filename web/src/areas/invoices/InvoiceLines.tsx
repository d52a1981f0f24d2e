import { useFormat } from '../../api/format.ts';
import { documentTotals, lineTaxes, LinesTable } from '../../ui/LinesTable.tsx';
import type { Invoice } from './api.ts';
import type { InvoiceRetainers } from './retainer-api.ts';
import { kindText } from './kinds.ts';
import { useInvoiceTexts } from './texts.ts';

/** The totals as the PDF prints them, from the server (the invoice's retainer credits: retainer-api.ts). */
type PrintedTotals = InvoiceRetainers['printed'];

/**
 * An invoice's lines and the server's totals, as they are (the browser adds nothing):
 * the invoice page and the preview of a new invoice show the same table (ui/LinesTable.tsx).
 * With `printed`, the totals read as the PDF: the subtotal of the lines other than retainer
 * credits, the discount and taxes, then the credit (where there is one).
 */
export function InvoiceLines({ invoice: i, headingId, printed }: { invoice: Invoice; headingId: string; printed?: PrintedTotals }) {
  const t = useInvoiceTexts();
  const format = useFormat();
  const money = (n: number) => format.money(n, i.currency);
  const percent = (n: number) => format.number(n, 4);
  const taxNote = { both: t('lines.taxedBoth'), tax: t('lines.taxed'), tax2: t('lines.taxed2') };
  const totals = documentTotals(
    printed ? { ...i, ...printed } : i,
    money,
    {
      subtotal: t('totals.subtotal'),
      discount: (p) => t('totals.discount', { percent: p }),
      tax: (p) => t('totals.tax', { percent: p }),
      tax2: (p) => t('totals.tax2', { percent: p }),
      retainerCredit: t('totals.retainerCredit'),
      amount: t('totals.amount'),
    },
    percent,
  );
  if (i.state !== 'draft' || i.paid_amount > 0) {
    totals.push({ label: t('totals.paid'), value: money(i.paid_amount) }, { label: t('totals.amountDue'), value: money(i.due_amount), strong: true });
  }
  return (
    <LinesTable
      headingId={headingId}
      columns={{ description: t('lines.description'), quantity: t('lines.quantity'), unitPrice: t('lines.unitPrice'), amount: t('lines.amount') }}
      totalsLabel={t('totals.label')}
      totals={totals}
      lines={i.line_items.map((l) => {
        // A line's tax flags matter only where the invoice has that tax.
        const taxes = lineTaxes(l, i);
        return {
          id: l.id,
          kind: kindText(t, l.kind),
          description: l.description ?? '',
          note: taxes && taxNote[taxes],
          quantity: format.quantity(l.quantity),
          unitPrice: money(l.unit_price),
          amount: l.effect === 'credit' ? t('lines.credit', { amount: money(l.amount) }) : money(l.amount),
        };
      })}
    />
  );
}
