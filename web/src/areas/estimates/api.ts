import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import { markStale } from '../../api/stale.ts';
import type { paths } from '../../api/schema';

/**
 * The estimates area's data (WEB-STYLE 2): session routes under /web/api/estimates (the
 * API has none), keys rooted at ['estimates']. Totals are the server's.
 */

export type Estimate = paths['/web/api/estimates/{id}']['get']['responses'][200]['content']['application/json'];
export type EstimateState = Estimate['state'];
export type CreateBody = NonNullable<paths['/web/api/estimates']['post']['requestBody']>['content']['application/json'];
export type UpdateBody = NonNullable<paths['/web/api/estimates/{id}']['patch']['requestBody']>['content']['application/json'];
export type SendBody = NonNullable<paths['/web/api/estimates/{id}/send']['post']['requestBody']>['content']['application/json'];

export const estimatesQuery = (state?: EstimateState) =>
  queryOptions({
    queryKey: ['estimates', 'list', { state }],
    queryFn: () => call(api.GET('/web/api/estimates', { params: { query: state ? { state } : {} } })),
  });

export const estimateQuery = (id: string) =>
  queryOptions({
    queryKey: ['estimates', 'one', id],
    queryFn: () => call(api.GET('/web/api/estimates/{id}', { params: { path: { id } } })),
  });

/** The PDF as the browser downloads it with the session cookie. */
export const pdfHref = (id: string) => `/web/api/estimates/${encodeURIComponent(id)}/pdf?download=true`;

export const pdfQuery = (id: string, updatedAt: string) =>
  queryOptions({
    queryKey: ['estimates', 'pdf', id, updatedAt],
    queryFn: () => call(api.GET('/web/api/estimates/{id}/pdf', { params: { path: { id }, query: {} }, parseAs: 'arrayBuffer' })) as Promise<ArrayBuffer>,
    staleTime: Infinity,
  });

/** Every change answers with the estimate: it replaces the cached one, and the lists go stale. */
function useEstimateMutation<V>(fn: (v: V) => Promise<Estimate>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (estimate: Estimate) => queryClient.setQueryData(estimateQuery(estimate.id).queryKey, estimate),
    onSettled: () => markStale(queryClient, 'estimate'),
  });
}

export const useCreateEstimate = () =>
  useEstimateMutation(({ body, key }: { body: CreateBody; key: string }) => call(api.POST('/web/api/estimates', { body, headers: idempotencyHeader(key) })));

export const useUpdateEstimate = (id: string) =>
  useEstimateMutation((body: UpdateBody) => call(api.PATCH('/web/api/estimates/{id}', { params: { path: { id } }, body })));

export const useSendEstimate = (id: string) =>
  useEstimateMutation(({ body, key }: { body: SendBody; key: string }) =>
    call(api.POST('/web/api/estimates/{id}/send', { params: { path: { id } }, body, headers: idempotencyHeader(key) })),
  );

export type Move = 'accept' | 'decline' | 'reopen';

export const useMoveEstimate = (id: string) =>
  useEstimateMutation((move: Move) =>
    move === 'accept'
      ? call(api.POST('/web/api/estimates/{id}/accept', { params: { path: { id } } }))
      : move === 'decline'
        ? call(api.POST('/web/api/estimates/{id}/decline', { params: { path: { id } } }))
        : call(api.POST('/web/api/estimates/{id}/reopen', { params: { path: { id } } })),
  );

export function useConvertEstimate(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.POST('/web/api/estimates/{id}/convert', { params: { path: { id } } })),
    onSuccess: ({ estimate }) => queryClient.setQueryData(estimateQuery(id).queryKey, estimate),
    onSettled: () => markStale(queryClient, 'estimate'),
  });
}

export function useDeleteEstimate(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.DELETE('/web/api/estimates/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.removeQueries({ queryKey: estimateQuery(id).queryKey }),
    onSettled: () => markStale(queryClient, 'estimate'),
  });
}

/** The estimate's client links: how many work and when the client last opened one (each send makes one). */
export const estimateLinksQuery = (id: string) =>
  queryOptions({
    queryKey: ['estimates', 'links', id],
    queryFn: () => call(api.GET('/web/api/estimates/{id}/client-links', { params: { path: { id } } })),
  });

/** Ends every link to the estimate at once: the client's page, its PDF and its answer are a 404 from then on. */
export function useRevokeEstimateLinks(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.DELETE('/web/api/estimates/{id}/client-links', { params: { path: { id } } })),
    onSettled: () => markStale(queryClient, 'estimate'),
  });
}

/** Who the e-mail goes to first: the client's invoice e-mail address, else its contacts with an e-mail (the server's rule). */
export const recipientsQuery = (id: string) =>
  queryOptions({
    queryKey: ['estimates', 'recipients', id],
    queryFn: () => call(api.GET('/web/api/estimates/{id}/recipients', { params: { path: { id } } })),
    staleTime: 60_000,
  });
