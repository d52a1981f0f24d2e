import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import { markStale } from '../../api/stale.ts';
import type { paths } from '../../api/schema';

/**
 * Time off, public holidays and break rules (/web/api/time_off, /web/api/holidays/import,
 * /web/api/break_rules, /web/api/capacity; session only). Keys rooted at the API
 * collection: ['time_off'], ['capacity'], ['break_rules'] (api/stale.ts).
 *
 * The list always names the person: without user_id an administrator would get everyone's
 * time off. With it, the server adds the workspace's holidays (user_id null).
 */
export type TimeOff = paths['/web/api/time_off']['get']['responses'][200]['content']['application/json']['time_off'][number];
export type TimeOffKind = TimeOff['kind'];
export type NewTimeOff = paths['/web/api/time_off']['post']['requestBody']['content']['application/json'];
export type TimeOffPatch = NonNullable<paths['/web/api/time_off/{id}']['patch']['requestBody']>['content']['application/json'];
export type Capacity = paths['/web/api/capacity']['get']['responses'][200]['content']['application/json'];
export type StoredBreakRule = paths['/web/api/break_rules']['get']['responses'][200]['content']['application/json']['break_rules'][number];
export type BreakRule = paths['/web/api/break_rules']['put']['requestBody']['content']['application/json']['break_rules'][number];
export type ImportResult = paths['/web/api/holidays/import']['post']['responses'][200]['content']['application/json'];

/** The person's time off touching the period, with the workspace's holidays. */
export const timeOffQuery = (range: { from: string; to: string }, user: string) =>
  queryOptions({
    queryKey: ['time_off', 'list', { ...range, user }],
    queryFn: () => call(api.GET('/web/api/time_off', { params: { query: { ...range, user_id: user } } })),
    select: (data) => data.time_off,
  });

/** The caller's capacity per day over the period (days null: nothing is expected of them). */
export const capacityQuery = (range: { from: string; to: string }) =>
  queryOptions({
    queryKey: ['capacity', { ...range, user: 'me' }],
    queryFn: () => call(api.GET('/web/api/capacity', { params: { query: range } })),
  });

export const breakRulesQuery = queryOptions({
  queryKey: ['break_rules'],
  queryFn: () => call(api.GET('/web/api/break_rules')),
  select: (data) => data.break_rules,
});

export function useCreateTimeOff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: NewTimeOff; key: string }) => call(api.POST('/web/api/time_off', { body, headers: idempotencyHeader(key) })),
    onSettled: () => void markStale(queryClient, 'time_off'),
  });
}

export function useUpdateTimeOff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TimeOffPatch }) => call(api.PATCH('/web/api/time_off/{id}', { params: { path: { id } }, body })),
    onSettled: () => void markStale(queryClient, 'time_off'),
  });
}

export function useDeleteTimeOff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/web/api/time_off/{id}', { params: { path: { id } } })),
    onSettled: () => void markStale(queryClient, 'time_off'),
  });
}

export function useImportHolidays() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { calendar: string; year: number }) => call(api.POST('/web/api/holidays/import', { body })),
    onSettled: () => void markStale(queryClient, 'time_off'),
  });
}

export function useSetBreakRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (rules: BreakRule[]) => (await call(api.PUT('/web/api/break_rules', { body: { break_rules: rules } }))).break_rules,
    onSuccess: (saved) => queryClient.setQueryData(breakRulesQuery.queryKey, { break_rules: saved }),
    onSettled: () => void markStale(queryClient, 'break_rules', { except: (key) => key[0] === 'break_rules' }),
  });
}
