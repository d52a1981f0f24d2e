import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import { markStale } from '../../api/stale.ts';
import type { paths } from '../../api/schema';

/** Recurring invoices (`/web/api/recurring_invoices`, owners and administrators): keys rooted at ['recurring-invoices']. */

export type Schedule = paths['/web/api/recurring_invoices/{id}']['get']['responses'][200]['content']['application/json'];
export type Occurrence = Schedule['occurrences'][number];
export type ScheduleBody = paths['/web/api/recurring_invoices']['post']['requestBody']['content']['application/json'];
export type SchedulePatch = paths['/web/api/recurring_invoices/{id}']['patch']['requestBody']['content']['application/json'];

export const schedulesQuery = queryOptions({
  queryKey: ['recurring-invoices', 'list'],
  queryFn: () => call(api.GET('/web/api/recurring_invoices')),
  select: (data) => data.recurring_invoices,
});

export function useCreateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: ScheduleBody; key: string }) => call(api.POST('/web/api/recurring_invoices', { body, headers: idempotencyHeader(key) })),
    onSettled: () => markStale(queryClient, 'recurring_invoice'),
  });
}

export function useUpdateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: SchedulePatch }) => call(api.PATCH('/web/api/recurring_invoices/{id}', { params: { path: { id } }, body })),
    onSettled: () => markStale(queryClient, 'recurring_invoice'),
  });
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/web/api/recurring_invoices/{id}', { params: { path: { id } } })),
    onSettled: () => markStale(queryClient, 'recurring_invoice'),
  });
}
