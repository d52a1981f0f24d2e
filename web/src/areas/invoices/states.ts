import type { InvoiceState } from './api.ts';

/** The invoice states in the list's order, with their badge colours; their names are in texts.ts (`states.*`). */
export const STATES: { id: InvoiceState; badge: string }[] = [
  { id: 'draft', badge: 'bg-stone-100 text-stone-800 ring-stone-300' },
  { id: 'open', badge: 'bg-sky-50 text-sky-900 ring-sky-300' },
  { id: 'paid', badge: 'bg-emerald-50 text-emerald-900 ring-emerald-300' },
  { id: 'closed', badge: 'bg-violet-50 text-violet-900 ring-violet-300' },
  { id: 'voided', badge: 'bg-red-50 text-red-900 ring-red-300' },
];

export const stateOf = (state: InvoiceState) => STATES.find((s) => s.id === state) ?? STATES[0]!;
