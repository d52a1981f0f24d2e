import type { ListFilter } from './api.ts';

/**
 * The list's search and filters live in the URL (/projects?search=web&client_id=…&status=archived&page=2),
 * so a filtered list survives a reload and can be shared. Malformed values are dropped here rather
 * than sent (the server would refuse them with a 400). Status: active (the default), archived or all.
 */
const ID = /^[0-9a-f-]{36}$/i;

export type Status = 'active' | 'archived' | 'all';

export interface Filter {
  search?: string;
  client_id?: string;
  owner_id?: string;
  status: Status;
  page?: number;
}

export function filterOf(params: URLSearchParams): Filter {
  const filter: Filter = { status: 'active' };
  const search = params.get('search')?.trim();
  if (search) filter.search = search.slice(0, 255);
  for (const name of ['client_id', 'owner_id'] as const) {
    const value = params.get(name);
    if (value && ID.test(value)) filter[name] = value;
  }
  const status = params.get('status');
  if (status === 'archived' || status === 'all') filter.status = status;
  const page = Number(params.get('page'));
  if (Number.isInteger(page) && page > 1) filter.page = page;
  return filter;
}

/** The URL query of a filter (the defaults, active and page 1, are left out). */
export function searchOf(filter: Filter): string {
  const params = new URLSearchParams();
  if (filter.search) params.set('search', filter.search);
  if (filter.client_id) params.set('client_id', filter.client_id);
  if (filter.owner_id) params.set('owner_id', filter.owner_id);
  if (filter.status !== 'active') params.set('status', filter.status);
  if (filter.page && filter.page > 1) params.set('page', String(filter.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** What the server is asked for. */
export function queryOf(filter: Filter): ListFilter {
  const query: ListFilter = {};
  if (filter.search) query.search = filter.search;
  if (filter.client_id) query.client_id = filter.client_id;
  if (filter.owner_id) query.owner_id = filter.owner_id;
  if (filter.status !== 'all') query.is_active = filter.status === 'active' ? 'true' : 'false';
  if (filter.page) query.page = filter.page;
  return query;
}
