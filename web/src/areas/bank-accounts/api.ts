import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { api } from '../../api/client.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import { markStale } from '../../api/stale.ts';
import type { paths } from '../../api/schema';

/**
 * Bank accounts (/web/api/bank_accounts, session only): the accounts invoices print as
 * payment details, for owners and administrators. One list, by currency, the default first.
 */
export type BankAccount = paths['/web/api/bank_accounts']['get']['responses'][200]['content']['application/json']['bank_accounts'][number];
export type NewBankAccount = paths['/web/api/bank_accounts']['post']['requestBody']['content']['application/json'];
export type BankAccountPatch = NonNullable<paths['/web/api/bank_accounts/{id}']['patch']['requestBody']>['content']['application/json'];

export const bankAccountsQuery = queryOptions({
  queryKey: ['bank-accounts', 'list'],
  queryFn: () => call(api.GET('/web/api/bank_accounts')),
  select: (data) => data.bank_accounts,
});

export function useCreateBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: NewBankAccount; key: string }) => call(api.POST('/web/api/bank_accounts', { body, headers: idempotencyHeader(key) })),
    onSettled: () => void markStale(queryClient, 'bank_account'),
  });
}

export function useUpdateBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: BankAccountPatch }) => call(api.PATCH('/web/api/bank_accounts/{id}', { params: { path: { id } }, body })),
    onSettled: () => void markStale(queryClient, 'bank_account'),
  });
}

export function useDeleteBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/web/api/bank_accounts/{id}', { params: { path: { id } } })),
    onSettled: () => void markStale(queryClient, 'bank_account'),
  });
}
