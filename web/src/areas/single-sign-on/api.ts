import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { api } from '../../api/client.ts';
import type { paths } from '../../api/schema';

/** Settings → Single sign-on (/web/api/single-sign-on, session only): owners and administrators. */
export type SingleSignOnState = paths['/web/api/single-sign-on']['get']['responses'][200]['content']['application/json'];
export type SingleSignOnInput = paths['/web/api/single-sign-on']['put']['requestBody']['content']['application/json'];

export const singleSignOnQuery = queryOptions({
  queryKey: ['single-sign-on'],
  queryFn: () => call(api.GET('/web/api/single-sign-on')),
});

export function useSaveSingleSignOn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SingleSignOnInput) => call(api.PUT('/web/api/single-sign-on', { body })),
    onSuccess: (state) => queryClient.setQueryData(singleSignOnQuery.queryKey, state),
  });
}

export function useRemoveSingleSignOn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.DELETE('/web/api/single-sign-on')),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: singleSignOnQuery.queryKey }),
  });
}
