import type { InvoiceState } from './api.ts';
import { STATES } from './states.ts';

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
