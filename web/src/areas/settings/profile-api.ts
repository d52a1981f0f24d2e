import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { api } from '../../api/client.ts';
import type { paths } from '../../api/schema';
import { sessionQuery } from '../../api/session.ts';

/** Settings → Profile: the signed-in person's own name, address, preferences and sessions (/web/api/profile…). */

export type Profile = paths['/web/api/profile']['get']['responses'][200]['content']['application/json'];
export type ProfilePatch = NonNullable<paths['/web/api/profile']['patch']['requestBody']>['content']['application/json'];
export type Preferences = Profile['preferences'];
export type OwnSession = paths['/web/api/profile/sessions']['get']['responses'][200]['content']['application/json']['sessions'][number];

export const profileQuery = queryOptions({
  queryKey: ['profile'],
  queryFn: () => call(api.GET('/web/api/profile')),
});

export const ownSessionsQuery = queryOptions({
  queryKey: ['profile', 'sessions'],
  queryFn: () => call(api.GET('/web/api/profile/sessions')).then((r) => r.sessions),
});

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfilePatch) => call(api.PATCH('/web/api/profile', { body })),
    onSuccess: (profile) => {
      queryClient.setQueryData(profileQuery.queryKey, profile);
      // The name shows in the navigation and the preferences come with the session: keep it in step without asking again.
      queryClient.setQueryData(sessionQuery.queryKey, (s) =>
        s ? { ...s, user: { ...s.user, first_name: profile.first_name, last_name: profile.last_name, preferences: profile.preferences } } : s,
      );
    },
  });
}

export function useRequestEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; current_password?: string }) => call(api.POST('/web/api/profile/email', { body })),
    onSuccess: (profile) => queryClient.setQueryData(profileQuery.queryKey, profile),
  });
}

export function useSignOutElsewhere() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.DELETE('/web/api/profile/sessions')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ownSessionsQuery.queryKey }),
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/web/api/profile/sessions/{session_id}', { params: { path: { session_id: id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ownSessionsQuery.queryKey }),
  });
}
