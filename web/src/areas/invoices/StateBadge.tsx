import type { InvoiceState } from './api.ts';
import { stateOf } from './states.ts';
import { useInvoiceTexts } from './texts.ts';

/** The invoice's state in words (the colour only repeats it). */
export function StateBadge({ state }: { state: InvoiceState }) {
  const t = useInvoiceTexts();
  const s = stateOf(state);
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${s.badge}`}>{t(`states.${s.id}`)}</span>;
}
