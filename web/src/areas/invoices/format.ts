import type { InvoiceState } from './api.ts';

export { formatMoney } from '../../ui/money.ts';
/** A line's kind as people read it: the same function the PDF uses (the API keeps the spec's `SERVICE`). */
export { kindLabel } from '../../../../src/modules/invoices/kinds.ts';

/** A YYYY-MM-DD date as people read it; read as a calendar day (UTC), so no zone moves it. */
export function dateLabel(date: string, locale?: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(Date.UTC(y!, m! - 1, d!)));
}

export const STATES: { id: InvoiceState; label: string; badge: string }[] = [
  { id: 'draft', label: 'Draft', badge: 'bg-stone-100 text-stone-800 ring-stone-300' },
  { id: 'open', label: 'Open', badge: 'bg-sky-50 text-sky-900 ring-sky-300' },
  { id: 'paid', label: 'Paid', badge: 'bg-emerald-50 text-emerald-900 ring-emerald-300' },
  { id: 'closed', label: 'Closed', badge: 'bg-violet-50 text-violet-900 ring-violet-300' },
  { id: 'voided', label: 'Voided', badge: 'bg-red-50 text-red-900 ring-red-300' },
];

export const stateOf = (state: InvoiceState) => STATES.find((s) => s.id === state) ?? STATES[0]!;

/** The list's filters from the URL (unknown values dropped), and back. */
export function filterOf(params: URLSearchParams): { state?: InvoiceState; client_id?: string; page?: number } {
  const state = STATES.find((s) => s.id === params.get('state'))?.id;
  const client = params.get('client_id') || undefined;
  const page = Number(params.get('page'));
  return { ...(state ? { state } : {}), ...(client ? { client_id: client } : {}), ...(Number.isInteger(page) && page > 1 ? { page } : {}) };
}

export function searchOf(f: { state?: string; client_id?: string; page?: number }): string {
  const p = new URLSearchParams();
  if (f.state) p.set('state', f.state);
  if (f.client_id) p.set('client_id', f.client_id);
  if (f.page && f.page > 1) p.set('page', String(f.page));
  const s = p.toString();
  return s ? `?${s}` : '';
}
