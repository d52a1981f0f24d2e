/**
 * The list's state lives in the URL (/clients?status=archived&q=acme&page=2), so a
 * filtered list survives a reload and can be shared. `status` is active (the default),
 * archived or all; `q` filters the loaded page by name; `page` is the API's page.
 */
export type Status = 'active' | 'archived' | 'all';

export interface ListFilter {
  status: Status;
  q: string;
  page: number;
}

export function filterOf(params: URLSearchParams): ListFilter {
  const status = params.get('status');
  const page = Number(params.get('page'));
  return {
    status: status === 'archived' || status === 'all' ? status : 'active',
    q: params.get('q') ?? '',
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

export function searchOf(filter: ListFilter): string {
  const params = new URLSearchParams();
  if (filter.status !== 'active') params.set('status', filter.status);
  if (filter.q) params.set('q', filter.q);
  if (filter.page > 1) params.set('page', String(filter.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The API query of a filter (the name search is not one: the API has none). */
export function apiQuery(filter: ListFilter): { is_active?: 'true' | 'false'; page?: number } {
  return {
    ...(filter.status === 'all' ? {} : { is_active: filter.status === 'active' ? 'true' : 'false' }),
    ...(filter.page > 1 ? { page: filter.page } : {}),
  };
}

/** Case- and accent-insensitive "contains" on every word typed, in any order. */
export function matchesName(name: string, q: string): boolean {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();
  const hay = fold(name);
  return fold(q)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => hay.includes(word));
}
