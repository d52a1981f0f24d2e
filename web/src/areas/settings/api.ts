import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { markStale, sameKey } from '../../api/stale.ts';
import { api } from '../../api/client.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import type { paths } from '../../api/schema';

/** Settings: the workspace's own settings and the API keys (/web/api/workspace, /web/api/keys). */

export type WorkspaceSettings = paths['/web/api/workspace']['get']['responses'][200]['content']['application/json'];
export type WorkspacePatch = NonNullable<paths['/web/api/workspace']['patch']['requestBody']>['content']['application/json'];
export type KeyList = paths['/web/api/keys']['get']['responses'][200]['content']['application/json'];
export type ApiKey = KeyList['keys'][number];
export type NewKey = paths['/web/api/keys']['post']['requestBody']['content']['application/json'];
export type IssuedKey = paths['/web/api/keys']['post']['responses'][201]['content']['application/json'];

export const workspaceQuery = queryOptions({
  queryKey: ['workspace'],
  queryFn: () => call(api.GET('/web/api/workspace')),
});

export const keysQuery = queryOptions({
  queryKey: ['keys', 'list'],
  queryFn: () => call(api.GET('/web/api/keys')),
});

export function useUpdateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WorkspacePatch) => call(api.PATCH('/web/api/workspace', { body })),
    onSuccess: (workspace) => {
      queryClient.setQueryData(workspaceQuery.queryKey, workspace);
      // The workspace's name shows in the session (the switcher, the header); the answer is the settings here.
      void markStale(queryClient, 'settings', { except: sameKey(workspaceQuery.queryKey) });
    },
  });
}

export function useCreateKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: NewKey; key: string }) => call(api.POST('/web/api/keys', { body, headers: idempotencyHeader(key) })),
    onSettled: () => markStale(queryClient, 'api_key'),
  });
}

export function useRotateKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.POST('/web/api/keys/{id}/rotate', { params: { path: { id } } })),
    onSettled: () => markStale(queryClient, 'api_key'),
  });
}

export function useRevokeKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/web/api/keys/{id}', { params: { path: { id } } })),
    onSettled: () => markStale(queryClient, 'api_key'),
  });
}

/** A person (with their e-mail address) or an agent (`email` null: the page names it an agent). */
export type MemberChoice = { id: string; name: string; email: string | null };

/**
 * The people a full-access key can be bound to (active humans and agents). Same key as
 * the members area's list: one request serves both when both are on screen.
 */
export const keyOwnersQuery = queryOptions({
  queryKey: ['members', 'list'],
  queryFn: () => call(api.GET('/web/api/members')),
  select: (data): MemberChoice[] =>
    data.members
      .filter((m) => m.is_active && m.role !== 'client')
      .map((m) => ({
        id: m.id,
        name: [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email,
        email: m.user_type === 'agent' ? null : m.email,
      })),
});

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
