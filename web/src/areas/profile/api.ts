import { queryOptions, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { markStale, sameKey } from '../../api/stale.ts';
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

/** The profile and the session: a profile change's answer is written into both here. */
const answeredHere = (key: QueryKey) => sameKey(profileQuery.queryKey)(key) || sameKey(sessionQuery.queryKey)(key);

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
      // Both are up to date here; other tabs read them again.
      void markStale(queryClient, 'profile', { except: answeredHere });
    },
  });
}

export function useRequestEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; current_password?: string }) => call(api.POST('/web/api/profile/email', { body })),
    onSuccess: (profile) => {
      queryClient.setQueryData(profileQuery.queryKey, profile);
      void markStale(queryClient, 'profile', { except: answeredHere });
    },
  });
}

export function useSignOutElsewhere() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.DELETE('/web/api/profile/sessions')),
    onSettled: () => markStale(queryClient, 'own_sessions'),
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/web/api/profile/sessions/{session_id}', { params: { path: { session_id: id } } })),
    onSettled: () => markStale(queryClient, 'own_sessions'),
  });
}
