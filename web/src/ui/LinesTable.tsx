import { TotalRow } from './Definitions.tsx';
import { focusRingCss } from './styles.ts';

/**
 * A document's lines and its totals, as the server computed them (the browser adds
 * nothing): the invoice and estimate pages show the same table. Texts and formatted
 * values are the caller's.
 */
export interface ShownLine {
  id: string;
  kind: string;
  description: string;
  /** A note under the description (which taxes apply). */
  note?: string | null;
  quantity: string;
  unitPrice: string;
  amount: string;
}

export interface ShownTotal {
  label: string;
  value: string;
  strong?: boolean;
}

export function LinesTable({
  lines,
  totals,
  headingId,
  columns,
  totalsLabel,
  caption,
}: {
  lines: ShownLine[];
  totals: ShownTotal[];
  headingId: string;
  columns: { description: string; quantity: string; unitPrice: string; amount: string };
  totalsLabel: string;
  /** Read by screen readers only, when the heading alone does not say what the table lists. */
  caption?: string;
}) {
  return (
    <>
      {/* Scrolls sideways at 390 px; focusable so the keyboard can scroll it too (nothing in it takes focus).
          A group, not a region: the section around it is the region of that heading, and two landmarks of one name are one too many. */}
      <div tabIndex={0} role="group" aria-labelledby={headingId} className={`relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs ${focusRingCss}`}>
        <table data-stack className="w-full min-w-[36rem] border-collapse text-sm">
          {caption && <caption className="sr-only">{caption}</caption>}
          <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2">{columns.description}</th>
              <th scope="col" className="px-3 py-2 text-right">{columns.quantity}</th>
              <th scope="col" className="px-3 py-2 text-right">{columns.unitPrice}</th>
              <th scope="col" className="px-3 py-2 text-right">{columns.amount}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {lines.map((l) => (
              <tr key={l.id} className="align-top">
                <th scope="row" className="px-3 py-2.5 text-left font-normal">
                  <span className="block text-xs text-stone-600">{l.kind}</span>
                  <span className="block whitespace-pre-line text-stone-900">{l.description || '—'}</span>
                  {l.note && <span className="block text-xs text-stone-600">{l.note}</span>}
                </th>
                <td className="px-3 py-2.5 text-right tabular-nums">{l.quantity}</td>
                <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">{l.unitPrice}</td>
                <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">{l.amount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl aria-label={totalsLabel} className="ml-auto grid w-full max-w-sm grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
        {totals.map((r) => (
          <TotalRow key={r.label} {...r} />
        ))}
      </dl>
    </>
  );
}

/**
 * The rows of the totals every document has: subtotal, then discount, tax and second
 * tax where the document has them, then an invoice's credit drawing on a retainer (where the
 * server gives it: the totals as the PDF prints them), then the amount.
 */
export function documentTotals(
  d: {
    subtotal: number;
    discount: number;
    discount_amount: number;
    tax: number;
    tax_amount: number;
    tax2: number;
    tax2_amount: number;
    retainer_credit?: number;
    amount: number;
  },
  money: (n: number) => string,
  labels: {
    subtotal: string;
    discount: (percent: string) => string;
    tax: (percent: string) => string;
    tax2: (percent: string) => string;
    retainerCredit?: string;
    amount: string;
  },
  percent: (n: number) => string,
): ShownTotal[] {
  const rows: ShownTotal[] = [{ label: labels.subtotal, value: money(d.subtotal) }];
  if (d.discount > 0) rows.push({ label: labels.discount(percent(d.discount)), value: `−${money(d.discount_amount)}` });
  if (d.tax > 0) rows.push({ label: labels.tax(percent(d.tax)), value: money(d.tax_amount) });
  if (d.tax2 > 0) rows.push({ label: labels.tax2(percent(d.tax2)), value: money(d.tax2_amount) });
  if (d.retainer_credit && labels.retainerCredit) rows.push({ label: labels.retainerCredit, value: `−${money(d.retainer_credit)}` });
  rows.push({ label: labels.amount, value: money(d.amount), strong: true });
  return rows;
}

/** Which taxes a line bears, where the document has them: 'both', 'tax', 'tax2' or null. */
export function lineTaxes(l: { taxed: boolean; taxed2: boolean }, d: { tax: number; tax2: number }): 'both' | 'tax' | 'tax2' | null {
  const one = l.taxed && d.tax > 0;
  const two = l.taxed2 && d.tax2 > 0;
  return one && two ? 'both' : one ? 'tax' : two ? 'tax2' : null;
}
