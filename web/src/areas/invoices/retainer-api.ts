import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import { markStale } from '../../api/stale.ts';
import type { paths } from '../../api/schema';

/**
 * The invoice page's retainer panel (issue 25 item 8): the credits on the invoice and the
 * retainers it may draw on, under ['invoices', …] so a change to the invoice stales it too.
 */

export type InvoiceRetainers = paths['/web/api/invoices/{id}/retainers']['get']['responses'][200]['content']['application/json'];

export const invoiceRetainersQuery = (id: string) =>
  queryOptions({
    queryKey: ['invoices', 'retainers', id],
    queryFn: () => call(api.GET('/web/api/invoices/{id}/retainers', { params: { path: { id } } })),
  });

export function useApplyRetainer(invoiceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ retainerId, amount, key }: { retainerId: string; amount: number; key: string }) =>
      call(api.POST('/web/api/retainers/{id}/credits', { params: { path: { id: retainerId } }, body: { invoice_id: invoiceId, amount }, headers: idempotencyHeader(key) })),
    onSettled: () => markStale(queryClient, 'retainer'),
  });
}

export function useRemoveRetainerCredit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ retainerId, lineId }: { retainerId: string; lineId: string }) =>
      call(api.DELETE('/web/api/retainers/{id}/credits/{lineId}', { params: { path: { id: retainerId, lineId } } })),
    onSettled: () => markStale(queryClient, 'retainer'),
  });
}
