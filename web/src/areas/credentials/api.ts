import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { markStale } from '../../api/stale.ts';
import { api } from '../../api/client.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import type { paths } from '../../api/schema';

/** API keys (/web/api/keys): the workspace's keys, made, rotated and revoked here. */

export type KeyList = paths['/web/api/keys']['get']['responses'][200]['content']['application/json'];
export type ApiKey = KeyList['keys'][number];
export type NewKey = paths['/web/api/keys']['post']['requestBody']['content']['application/json'];
export type IssuedKey = paths['/web/api/keys']['post']['responses'][201]['content']['application/json'];

export const keysQuery = queryOptions({
  queryKey: ['keys', 'list'],
  queryFn: () => call(api.GET('/web/api/keys')),
});

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
export type MemberChoice = { id: string; name: string; email: string | null; role: string };

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
        role: m.role,
      })),
});
