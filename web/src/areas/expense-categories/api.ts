import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { markStale } from '../../api/stale.ts';
import { api } from '../../api/client.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import type { paths } from '../../api/schema';

/**
 * Expense categories (/api/v2/expense_categories, with the session): the whole list
 * in one page (archived ones too), created and changed by whoever holds Edit
 * clients and tasks. A change also stales the expense form's choices (the expenses
 * area keys them under ['expenses', 'choices']).
 */
export type ExpenseCategory = paths['/api/v2/expense_categories']['get']['responses'][200]['content']['application/json']['expense_categories'][number];
export type NewCategory = paths['/api/v2/expense_categories']['post']['requestBody']['content']['application/json'];
export type CategoryPatch = NonNullable<paths['/api/v2/expense_categories/{id}']['patch']['requestBody']>['content']['application/json'];

export const categoriesQuery = queryOptions({
  queryKey: ['expense-categories', 'list'],
  queryFn: () => call(api.GET('/api/v2/expense_categories', { params: { query: { per_page: 2000 } } })),
  select: (data) => data.expense_categories,
});

export function useCreateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: NewCategory; key: string }) =>
      call(api.POST('/api/v2/expense_categories', { body, headers: idempotencyHeader(key) })),
    onSettled: () => void markStale(queryClient, 'expense_category'),
  });
}

export function useUpdateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: CategoryPatch }) => call(api.PATCH('/api/v2/expense_categories/{id}', { params: { path: { id } }, body })),
    onSettled: () => void markStale(queryClient, 'expense_category'),
  });
}
