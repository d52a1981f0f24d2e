import { useFormat } from '../../api/format.ts';
import { TotalRow as Total } from '../../ui/Definitions.tsx';
import { focusRingCss } from '../../ui/styles.ts';
import type { Invoice } from './api.ts';
import { kindText } from './kinds.ts';
import { useInvoiceTexts } from './texts.ts';

/**
 * An invoice's lines and the server's totals, as they are (the browser adds nothing):
 * the invoice page and the preview of a new invoice show the same table.
 */
export function InvoiceLines({ invoice: i, headingId }: { invoice: Invoice; headingId: string }) {
  const t = useInvoiceTexts();
  const format = useFormat();
  const money = (n: number) => format.money(n, i.currency);
  const percent = (n: number) => format.number(n, 4);
  return (
    <>
      {/* Scrolls sideways at 390 px; focusable so the keyboard can scroll it too (nothing in it takes focus). */}
      <div tabIndex={0} role="region" aria-labelledby={headingId} className={`relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs ${focusRingCss}`}>
        <table data-stack className="w-full min-w-[36rem] border-collapse text-sm">
          <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2">{t('lines.description')}</th>
              <th scope="col" className="px-3 py-2 text-right">{t('lines.quantity')}</th>
              <th scope="col" className="px-3 py-2 text-right">{t('lines.unitPrice')}</th>
              <th scope="col" className="px-3 py-2 text-right">{t('lines.amount')}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {i.line_items.map((l) => (
              <tr key={l.id} className="align-top">
                <th scope="row" className="px-3 py-2.5 text-left font-normal">
                  <span className="block text-xs text-stone-600">{kindText(t, l.kind)}</span>
                  <span className="block whitespace-pre-line text-stone-900">{l.description || '—'}</span>
                  {/* A line's tax flags matter only where the invoice has that tax. */}
                  {((l.taxed && i.tax > 0) || (l.taxed2 && i.tax2 > 0)) && (
                    <span className="block text-xs text-stone-600">
                      {l.taxed && i.tax > 0 ? t(l.taxed2 && i.tax2 > 0 ? 'lines.taxedBoth' : 'lines.taxed') : t('lines.taxed2')}
                    </span>
                  )}
                </th>
                <td className="px-3 py-2.5 text-right tabular-nums">{format.number(l.quantity, 4)}</td>
                <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">{money(l.unit_price)}</td>
                <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">{l.effect === 'credit' ? t('lines.credit', { amount: money(l.amount) }) : money(l.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl aria-label={t('totals.label')} className="ml-auto grid w-full max-w-sm grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
        <Total label={t('totals.subtotal')} value={money(i.subtotal)} />
        {i.discount > 0 && <Total label={t('totals.discount', { percent: percent(i.discount) })} value={`−${money(i.discount_amount)}`} />}
        {i.tax > 0 && <Total label={t('totals.tax', { percent: percent(i.tax) })} value={money(i.tax_amount)} />}
        {i.tax2 > 0 && <Total label={t('totals.tax2', { percent: percent(i.tax2) })} value={money(i.tax2_amount)} />}
        <Total label={t('totals.amount')} value={money(i.amount)} strong />
        {i.state !== 'draft' || i.paid_amount > 0 ? (
          <>
            <Total label={t('totals.paid')} value={money(i.paid_amount)} />
            <Total label={t('totals.amountDue')} value={money(i.due_amount)} strong />
          </>
        ) : null}
      </dl>
    </>
  );
}
