import { queryOptions, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { markStale, sameKey } from '../../api/stale.ts';
import { api } from '../../api/client.ts';
import type { paths } from '../../api/schema';
import { sessionQuery } from '../../api/session.ts';
import { createPasskey } from '../../api/passkeys.ts';

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

/** The person's calendar feed in the current workspace (/web/api/profile/calendar-feed): its URL only in the answer that makes it. */
export const calendarFeedQuery = queryOptions({
  queryKey: ['profile', 'calendar_feed'],
  queryFn: () => call(api.GET('/web/api/profile/calendar-feed')),
});

export function useCreateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.POST('/web/api/profile/calendar-feed')),
    onSuccess: ({ url: _url, ...status }) => queryClient.setQueryData(calendarFeedQuery.queryKey, status),
  });
}

export function useRevokeCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.DELETE('/web/api/profile/calendar-feed')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: calendarFeedQuery.queryKey }),
  });
}

/** Your two-factor sign-in (/web/api/two-factor…): whether it is on, and the steps that set it up, renew its recovery codes and turn it off. */
export type TwoFactorState = paths['/web/api/two-factor']['get']['responses'][200]['content']['application/json'];
export type TwoFactorSetup = paths['/web/api/two-factor/setup']['post']['responses'][200]['content']['application/json'];

export const twoFactorQuery = queryOptions({
  queryKey: ['profile', 'two_factor'],
  queryFn: () => call(api.GET('/web/api/two-factor')),
});

/**
 * After a change to a second factor (codes or a passkey): the state, and the session (its
 * two_factor flags and the requirement's hold), read again; resolved once both are, so a page
 * that goes on next finds the session fresh.
 */
function secondFactorsChanged(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([queryClient.invalidateQueries({ queryKey: twoFactorQuery.queryKey }), queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey })]);
}

export function useStartTwoFactorSetup() {
  return useMutation({ mutationFn: () => call(api.POST('/web/api/two-factor/setup', { body: {} })) });
}

export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => call(api.POST('/web/api/two-factor/enable', { body: { code } })).then((r) => r.recovery_codes),
    // The state is read again once the recovery codes were seen (useTwoFactorSeen): reading it now would replace them on the page.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey }),
  });
}

/** After the new recovery codes were seen: the section shows the state again. */
export function useTwoFactorSeen() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: twoFactorQuery.queryKey });
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { code: string; current_password?: string }) => call(api.POST('/web/api/two-factor/disable', { body })),
    onSuccess: () => void secondFactorsChanged(queryClient),
  });
}

export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => call(api.POST('/web/api/two-factor/recovery-codes', { body: { code } })).then((r) => r.recovery_codes),
    onSuccess: () => void secondFactorsChanged(queryClient),
  });
}

/** Your passkeys (/web/api/passkeys): listed, added through the browser's ceremony, renamed, removed. */
// The list comes with the two-factor state (twoFactorQuery), so the profile reads both in one call.
export type OwnPasskey = TwoFactorState['passkeys'][number];

export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const { options } = await call(api.POST('/web/api/passkeys/registration-options', { body: {} }));
      const credential = await createPasskey(options as Record<string, unknown>);
      return call(api.POST('/web/api/passkeys', { body: { credential: credential as never, ...(name.trim() ? { name: name.trim() } : {}) } }));
    },
    onSuccess: () => secondFactorsChanged(queryClient),
  });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => call(api.PATCH('/web/api/passkeys/{id}', { params: { path: { id } }, body: { name } })),
    onSuccess: () => secondFactorsChanged(queryClient),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/web/api/passkeys/{id}', { params: { path: { id } } })),
    onSuccess: () => secondFactorsChanged(queryClient),
  });
}
