import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import { markStale } from '../../api/stale.ts';
import type { paths } from '../../api/schema';

/**
 * The retainers area's data (WEB-STYLE 2): session routes under /web/api/retainers (the API
 * has none), keys rooted at ['retainers']. Balances follow the invoices (a payment, a void):
 * an invoice's change stales them too (api/stale.ts).
 */

export type Retainer = paths['/web/api/retainers/{id}']['get']['responses'][200]['content']['application/json'];
export type RetainerSummary = paths['/web/api/retainers']['get']['responses'][200]['content']['application/json']['retainers'][number];
export type CreateBody = NonNullable<paths['/web/api/retainers']['post']['requestBody']>['content']['application/json'];
export type PatchBody = NonNullable<paths['/web/api/retainers/{id}']['patch']['requestBody']>['content']['application/json'];
export type FundBody = NonNullable<paths['/web/api/retainers/{id}/fund']['post']['requestBody']>['content']['application/json'];

export const retainersQuery = (archived: boolean) =>
  queryOptions({
    queryKey: ['retainers', 'list', { archived }],
    queryFn: () => call(api.GET('/web/api/retainers', { params: { query: { archived } } })),
  });

export const retainerQuery = (id: string) =>
  queryOptions({
    queryKey: ['retainers', 'one', id],
    queryFn: () => call(api.GET('/web/api/retainers/{id}', { params: { path: { id } } })),
  });

function useRetainerMutation<V, R extends { id: string } | { retainer: Retainer }>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (answer: R) => {
      const retainer = 'retainer' in answer ? answer.retainer : (answer as unknown as Retainer);
      queryClient.setQueryData(retainerQuery(retainer.id).queryKey, retainer);
    },
    onSettled: () => markStale(queryClient, 'retainer'),
  });
}

export const useCreateRetainer = () =>
  useRetainerMutation(({ body, key }: { body: CreateBody; key: string }) => call(api.POST('/web/api/retainers', { body, headers: idempotencyHeader(key) })));

export const useUpdateRetainer = (id: string) =>
  useRetainerMutation((body: PatchBody) => call(api.PATCH('/web/api/retainers/{id}', { params: { path: { id } }, body })));

export const useFundRetainer = (id: string) =>
  useRetainerMutation(({ body, key }: { body: FundBody; key: string }) =>
    call(api.POST('/web/api/retainers/{id}/fund', { params: { path: { id } }, body, headers: idempotencyHeader(key) })),
  );
