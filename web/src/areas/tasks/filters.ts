/** The list's state in the URL (/tasks?status=archived&page=2): status is active (the default), archived or all. */
export type Status = 'active' | 'archived' | 'all';

export interface ListFilter {
  status: Status;
  page: number;
}

export function filterOf(params: URLSearchParams): ListFilter {
  const status = params.get('status');
  const page = Number(params.get('page'));
  return { status: status === 'archived' || status === 'all' ? status : 'active', page: Number.isInteger(page) && page > 1 ? page : 1 };
}

export function searchOf(filter: ListFilter): string {
  const params = new URLSearchParams();
  if (filter.status !== 'active') params.set('status', filter.status);
  if (filter.page > 1) params.set('page', String(filter.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function apiQuery(filter: ListFilter): { is_active?: 'true' | 'false'; page?: number } {
  return {
    ...(filter.status === 'all' ? {} : { is_active: filter.status === 'active' ? 'true' : 'false' }),
    ...(filter.page > 1 ? { page: filter.page } : {}),
  };
}
