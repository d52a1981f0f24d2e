import { queryOptions } from '@tanstack/react-query';
import { api } from './client.ts';
import { call } from './call.ts';

/**
 * The clients and projects that billing's forms pick from (invoices, estimates, retainers,
 * recurring invoices), one query each so every form shares one cache entry.
 */

/** The active clients, one request of up to 2,000 (as the catalog lists load). */
export const activeClientsQuery = queryOptions({
  queryKey: ['clients', 'list', { per_page: 2000, is_active: true }],
  queryFn: () => call(api.GET('/api/v2/clients', { params: { query: { per_page: 2000, is_active: 'true' } } })),
  staleTime: 5 * 60_000,
});

/**
 * A client's projects: the active ones, for choosing which to bill (loaded when the choice is
 * opened), or all of them, archived too (an import takes the work of both), for naming the
 * projects of an invoice preview's lines at 0.00 (loaded only when it has some).
 */
export const clientProjectsQuery = (clientId: string, which: 'active' | 'all' = 'active') => {
  const query = { client_id: clientId, per_page: 2000, ...(which === 'active' ? { is_active: 'true' as const } : {}) };
  return queryOptions({
    queryKey: ['projects', 'list', { client_id: clientId, per_page: 2000, ...(which === 'active' ? { is_active: true } : {}) }],
    queryFn: () => call(api.GET('/api/v2/projects', { params: { query } })),
    staleTime: 60_000,
  });
};
