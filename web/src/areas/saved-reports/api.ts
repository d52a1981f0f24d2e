import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import { markStale } from '../../api/stale.ts';
import type { paths } from '../../api/schema';

/**
 * Saved reports (/web/api/saved_reports, session only): the caller's own and the
 * workspace's shared ones whose report the caller may run, ordered by name; keys rooted
 * at ['saved-reports']. Only the owner changes one; the owner, and owners and
 * administrators for a shared one, delete it.
 */
export type SavedReport = paths['/web/api/saved_reports/{id}']['get']['responses'][200]['content']['application/json'];
export type NewSavedReport = paths['/web/api/saved_reports']['post']['requestBody']['content']['application/json'];
export type SavedReportPatch = NonNullable<paths['/web/api/saved_reports/{id}']['patch']['requestBody']>['content']['application/json'];

export const savedReportsQuery = queryOptions({
  queryKey: ['saved-reports', 'list'],
  queryFn: () => call(api.GET('/web/api/saved_reports')),
  select: (data) => data.saved_reports,
});

export function useCreateSavedReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: NewSavedReport; key: string }) => call(api.POST('/web/api/saved_reports', { body, headers: idempotencyHeader(key) })),
    onSettled: () => void markStale(queryClient, 'saved_report'),
  });
}

export function useUpdateSavedReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: SavedReportPatch }) => call(api.PATCH('/web/api/saved_reports/{id}', { params: { path: { id } }, body })),
    onSettled: () => void markStale(queryClient, 'saved_report'),
  });
}

export function useDeleteSavedReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/web/api/saved_reports/{id}', { params: { path: { id } } })),
    onSettled: () => void markStale(queryClient, 'saved_report'),
  });
}
