import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { api } from '../../api/client.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import { markStale } from '../../api/stale.ts';
import type { paths } from '../../api/schema';

/**
 * Invoice item categories (/web/api/item-categories, web only): the whole list,
 * archived ones too; added, renamed, archived and restored by owners and
 * administrators. A change also stales the invoice line editors' kind choices.
 */
export type ItemCategory = paths['/web/api/item-categories']['get']['responses'][200]['content']['application/json']['item_categories'][number];
export type CategoryPatch = NonNullable<paths['/web/api/item-categories/{id}']['patch']['requestBody']>['content']['application/json'];

export const itemCategoriesQuery = queryOptions({
  queryKey: ['item-categories', 'list'],
  queryFn: () => call(api.GET('/web/api/item-categories')),
  select: (data) => data.item_categories,
});

export function useCreateItemCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, key }: { name: string; key: string }) =>
      call(api.POST('/web/api/item-categories', { body: { name }, headers: idempotencyHeader(key) })),
    onSettled: () => void markStale(queryClient, 'item_category'),
  });
}

export function useUpdateItemCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: CategoryPatch }) => call(api.PATCH('/web/api/item-categories/{id}', { params: { path: { id } }, body })),
    onSettled: () => void markStale(queryClient, 'item_category'),
  });
}
