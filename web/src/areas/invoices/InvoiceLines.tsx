import { useLocale } from 'react-aria-components';
import { focusRingCss } from '../../ui/styles.ts';
import type { Invoice } from './api.ts';
import { formatMoney, kindLabel } from './format.ts';

/**
 * An invoice's lines and the server's totals, as they are (the browser adds nothing):
 * the invoice page and the preview of a new invoice show the same table.
 */
export function InvoiceLines({ invoice: i, headingId }: { invoice: Invoice; headingId: string }) {
  const { locale } = useLocale();
  const money = (n: number) => formatMoney(n, i.currency, locale);
  return (
    <>
      {/* Scrolls sideways at 390 px; focusable so the keyboard can scroll it too (nothing in it takes focus). */}
      <div tabIndex={0} role="region" aria-labelledby={headingId} className={`relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs ${focusRingCss}`}>
        <table className="w-full min-w-[36rem] border-collapse text-sm">
          <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2">Description</th>
              <th scope="col" className="px-3 py-2 text-right">Quantity</th>
              <th scope="col" className="px-3 py-2 text-right">Unit price</th>
              <th scope="col" className="px-3 py-2 text-right">Amount</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {i.line_items.map((l) => (
              <tr key={l.id} className="align-top">
                <th scope="row" className="px-3 py-2.5 text-left font-normal">
                  <span className="block text-xs text-stone-600">{kindLabel(l.kind)}</span>
                  <span className="block whitespace-pre-line text-stone-900">{l.description || '—'}</span>
                  {/* A line's tax flags matter only where the invoice has that tax. */}
                  {((l.taxed && i.tax > 0) || (l.taxed2 && i.tax2 > 0)) && (
                    <span className="block text-xs text-stone-600">
                      {[l.taxed && i.tax > 0 && 'Tax', l.taxed2 && i.tax2 > 0 && 'Tax 2'].filter(Boolean).join(', ')}
                    </span>
                  )}
                </th>
                <td className="px-3 py-2.5 text-right tabular-nums">{new Intl.NumberFormat(locale, { maximumFractionDigits: 4 }).format(l.quantity)}</td>
                <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">{money(l.unit_price)}</td>
                <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">{l.effect === 'credit' ? <>Credit {money(l.amount)}</> : money(l.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl aria-label="Totals" className="ml-auto grid w-full max-w-sm grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
        <Total label="Subtotal" value={money(i.subtotal)} />
        {i.discount > 0 && <Total label={`Discount (${i.discount}%)`} value={`−${money(i.discount_amount)}`} />}
        {i.tax > 0 && <Total label={`Tax (${i.tax}%)`} value={money(i.tax_amount)} />}
        {i.tax2 > 0 && <Total label={`Tax 2 (${i.tax2}%)`} value={money(i.tax2_amount)} />}
        <Total label="Amount" value={money(i.amount)} strong />
        {i.state !== 'draft' || i.paid_amount > 0 ? (
          <>
            <Total label="Paid" value={money(i.paid_amount)} />
            <Total label="Amount due" value={money(i.due_amount)} strong />
          </>
        ) : null}
      </dl>
    </>
  );
}

function Total({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <>
      <dt className={strong ? 'font-semibold text-stone-900' : 'text-stone-700'}>{label}</dt>
      <dd className={`text-right tabular-nums ${strong ? 'font-semibold text-stone-900' : 'text-stone-800'}`}>{value}</dd>
    </>
  );
}
