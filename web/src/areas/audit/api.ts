import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import type { paths } from '../../api/schema';

/**
 * The audit log (/web/api/audit_logs, session only, owners and administrators): pages
 * newest first, older ones by `next_before`; the filters are the page's URL and the
 * query's key. The person filter lists the workspace's members (/web/api/members).
 */
type LogQuery = NonNullable<paths['/web/api/audit_logs']['get']['parameters']['query']>;
type LogPage = paths['/web/api/audit_logs']['get']['responses'][200]['content']['application/json'];
export type AuditEntry = LogPage['audit_logs'][number];
export type AuditKind = NonNullable<LogQuery['kind']>;
export type AuditFilter = Pick<LogQuery, 'person_id' | 'kind' | 'from' | 'to'>;

export const AUDIT_KINDS: readonly AuditKind[] = ['sign_ins', 'keys', 'people', 'settings', 'invoices', 'approvals', 'records', 'deletions'];

/** Entries per page. */
export const AUDIT_PAGE = 50;

export const auditLogQuery = (filter: AuditFilter) =>
  infiniteQueryOptions({
    queryKey: ['audit-logs', 'list', filter],
    queryFn: ({ pageParam }) => call(api.GET('/web/api/audit_logs', { params: { query: { ...filter, per_page: AUDIT_PAGE, ...(pageParam ? { before: pageParam } : {}) } } })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_before,
  });

export const auditPeopleQuery = queryOptions({
  queryKey: ['members', 'list'],
  queryFn: () => call(api.GET('/web/api/members')),
  select: (data) => data.members,
});

/** The CSV download's address: the same filters as the page (the browser sends the session cookie). */
export function exportUrl(filter: AuditFilter): string {
  const query = new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
  const text = query.toString();
  return `/web/api/audit_logs.csv${text ? `?${text}` : ''}`;
}
