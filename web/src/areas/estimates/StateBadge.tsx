import type { EstimateState } from './api.ts';
import { useEstimateTexts } from './texts.ts';

/** The estimate states in the list's order, with their badge colours; their names are in texts.ts (`states.*`). */
export const STATES: { id: EstimateState; badge: string }[] = [
  { id: 'draft', badge: 'bg-stone-100 text-stone-800 ring-stone-300' },
  { id: 'sent', badge: 'bg-sky-50 text-sky-900 ring-sky-300' },
  { id: 'accepted', badge: 'bg-emerald-50 text-emerald-900 ring-emerald-300' },
  { id: 'declined', badge: 'bg-red-50 text-red-900 ring-red-300' },
];

/** The estimate's state in words (the colour only repeats it). */
export function StateBadge({ state }: { state: EstimateState }) {
  const t = useEstimateTexts();
  const badge = (STATES.find((s) => s.id === state) ?? STATES[0]!).badge;
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${badge}`}>{t(`states.${state}`)}</span>;
}
