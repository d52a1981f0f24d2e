import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import { markStale } from '../../api/stale.ts';
import type { paths } from '../../api/schema';

/**
 * Webhook endpoints (/web/api/webhook_endpoints, session only, owners and administrators):
 * the endpoints with their pending and failed counts, one endpoint, its delivery log (newest
 * first, older pages by `next_before`); keys rooted at ['webhook-endpoints']. Create and
 * rotate answer with the signing secret, the only time it is shown.
 */
export type WebhookEndpoint = paths['/web/api/webhook_endpoints/{id}']['get']['responses'][200]['content']['application/json'];
export type NewWebhookEndpoint = paths['/web/api/webhook_endpoints']['post']['requestBody']['content']['application/json'];
export type WebhookEndpointPatch = NonNullable<paths['/web/api/webhook_endpoints/{id}']['patch']['requestBody']>['content']['application/json'];
export type WithSecret = paths['/web/api/webhook_endpoints']['post']['responses'][201]['content']['application/json'];
type DeliveryPage = paths['/web/api/webhook_endpoints/{id}/deliveries']['get']['responses'][200]['content']['application/json'];
export type WebhookDelivery = DeliveryPage['deliveries'][number];

/** Deliveries per page of the log. */
export const LOG_PAGE = 50;

export const webhookEndpointsQuery = queryOptions({
  queryKey: ['webhook-endpoints', 'list'],
  queryFn: () => call(api.GET('/web/api/webhook_endpoints')),
  select: (data) => data.webhook_endpoints,
});

export const webhookEndpointQuery = (id: string) =>
  queryOptions({
    queryKey: ['webhook-endpoints', 'detail', id],
    queryFn: () => call(api.GET('/web/api/webhook_endpoints/{id}', { params: { path: { id } } })),
  });

export const deliveriesQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: ['webhook-endpoints', 'deliveries', id],
    queryFn: ({ pageParam }) =>
      call(api.GET('/web/api/webhook_endpoints/{id}/deliveries', { params: { path: { id }, query: { per_page: LOG_PAGE, ...(pageParam ? { before: pageParam } : {}) } } })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_before,
  });

/** The queries of one endpoint (kept as they are once it is deleted: nothing is left to ask for). */
const ofEndpoint = (id: string) => (key: readonly unknown[]) => key[0] === 'webhook-endpoints' && key[2] === id;

export function useCreateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: NewWebhookEndpoint; key: string }) => call(api.POST('/web/api/webhook_endpoints', { body, headers: idempotencyHeader(key) })),
    onSettled: () => void markStale(queryClient, 'webhook_endpoint'),
  });
}

export function useUpdateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: WebhookEndpointPatch }) => call(api.PATCH('/web/api/webhook_endpoints/{id}', { params: { path: { id } }, body })),
    onSuccess: (saved) => queryClient.setQueryData(webhookEndpointQuery(saved.id).queryKey, saved),
    onSettled: () => void markStale(queryClient, 'webhook_endpoint'),
  });
}

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.POST('/web/api/webhook_endpoints/{id}/rotate_secret', { params: { path: { id } } })),
    onSettled: () => void markStale(queryClient, 'webhook_endpoint'),
  });
}

export function useDeleteWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/web/api/webhook_endpoints/{id}', { params: { path: { id } } })),
    onSettled: (_data, _error, id) => void markStale(queryClient, 'webhook_endpoint', { except: ofEndpoint(id) }),
  });
}

/** Sends a delivery again: the row shows pending at once (the server's answer), then the log and counts refresh. */
export function useResendDelivery(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      call(api.POST('/web/api/webhook_endpoints/{id}/deliveries/{delivery_id}/resend', { params: { path: { id: endpointId, delivery_id: deliveryId } } })),
    onSuccess: (resent) =>
      queryClient.setQueryData<InfiniteData<DeliveryPage, string | null>>(deliveriesQuery(endpointId).queryKey, (data) =>
        data && { ...data, pages: data.pages.map((p) => ({ ...p, deliveries: p.deliveries.map((d) => (d.id === resent.id ? resent : d)) })) },
      ),
    onSettled: () => void markStale(queryClient, 'webhook_endpoint'),
  });
}
