import type { ReactNode } from 'react';

/** One labelled value of a `<dl>` grid (an invoice's dates, terms, periods). */
export function DefinitionField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-semibold text-stone-600 uppercase">{label}</dt>
      <dd className="mt-0.5 text-stone-900">{children}</dd>
    </div>
  );
}

/** One line of a totals list (`<dl>` of two columns): label left, amount right; `strong` for the sums that matter. */
export function TotalRow({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <>
      <dt className={strong ? 'font-semibold text-stone-900' : 'text-stone-700'}>{label}</dt>
      <dd className={`text-right tabular-nums ${strong ? 'font-semibold text-stone-900' : 'text-stone-800'}`}>{value}</dd>
    </>
  );
}
