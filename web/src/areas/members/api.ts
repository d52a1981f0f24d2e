import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { markStale } from '../../api/stale.ts';
import { api } from '../../api/client.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import type { paths } from '../../api/schema';
import { acceptSignIn, type SignInAnswer } from '../../api/session.ts';
import { currentLanguage } from '../../ui/i18n.ts';
import type { QueryClient } from '@tanstack/react-query';

/** Members, agents and invitations (/web/api/members, /web/api/agents, /web/api/invitations). */

export type Member = paths['/web/api/members']['get']['responses'][200]['content']['application/json']['members'][number];
export type MemberPatch = NonNullable<paths['/web/api/members/{user_id}']['patch']['requestBody']>['content']['application/json'];
export type NewAgent = paths['/web/api/agents']['post']['requestBody']['content']['application/json'];
export type Invitation = paths['/web/api/invitations']['get']['responses'][200]['content']['application/json']['invitations'][number];
export type NewInvitation = paths['/web/api/invitations']['post']['requestBody']['content']['application/json'];
export type Acceptance = paths['/web/api/invitations/accept']['post']['requestBody']['content']['application/json'];

export const membersQuery = queryOptions({
  queryKey: ['members', 'list'],
  queryFn: () => call(api.GET('/web/api/members')),
});

export const invitationsQuery = queryOptions({
  queryKey: ['invitations', 'list'],
  queryFn: () => call(api.GET('/web/api/invitations')),
});

export function useUpdateMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: MemberPatch }) => call(api.PATCH('/web/api/members/{user_id}', { params: { path: { user_id: id } }, body })),
    onSettled: () => markStale(queryClient, 'member'),
  });
}

/** Signs a member out of every session (DELETE /web/api/members/:id/sessions); answers how many ended. */
export function useEndMemberSessions() {
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/web/api/members/{user_id}/sessions', { params: { path: { user_id: id } } })),
  });
}

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: NewAgent; key: string }) => call(api.POST('/web/api/agents', { body, headers: idempotencyHeader(key) })),
    onSettled: () => markStale(queryClient, 'member'),
  });
}

export function useInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: NewInvitation; key: string }) => call(api.POST('/web/api/invitations', { body, headers: idempotencyHeader(key) })),
    onSettled: () => markStale(queryClient, 'invitation'),
  });
}

export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.POST('/web/api/invitations/{id}/resend', { params: { path: { id } } })),
    onSettled: () => markStale(queryClient, 'invitation'),
  });
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/web/api/invitations/{id}', { params: { path: { id } } })),
    onSettled: () => markStale(queryClient, 'invitation'),
  });
}

/**
 * What an invitation link is for (it does not use the link up). Once accepted, never asked
 * again: signing in clears the cache, and a mounted lookup would re-ask with the used link
 * (a 400 while the page leaves); the page keeps showing what it had.
 */
export function useInvitationLookup(token: string, { accepted }: { accepted: boolean }) {
  return useQuery({
    queryKey: ['invitations', 'lookup', token],
    queryFn: () => call(api.POST('/web/api/invitations/lookup', { body: { token } })),
    enabled: token.length > 0 && !accepted,
    placeholderData: (previous) => previous,
    staleTime: Infinity,
  });
}

export function useAcceptInvitation(queryClient: QueryClient) {
  return useMutation({
    // The page's language: a new account (or one signing in for the first time) takes it as its own.
    mutationFn: (body: Acceptance): Promise<SignInAnswer> => call(api.POST('/web/api/invitations/accept', { body: { ...body, language: currentLanguage() } })),
    // Someone with two-factor codes is asked for the code next (the invitation is accepted already).
    onSuccess: (answer) => acceptSignIn(queryClient, answer),
  });
}

export const fullName = (m: { first_name: string; last_name: string; email: string }) => [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email;

// ---- working patterns (/web/api/working_patterns: owners and administrators set them) ----

export type WorkingPattern = paths['/web/api/working_patterns']['get']['responses'][200]['content']['application/json']['working_patterns'][number];
export type NewWorkingPattern = paths['/web/api/working_patterns']['post']['requestBody']['content']['application/json'];
export type WorkingPatternPatch = NonNullable<paths['/web/api/working_patterns/{id}']['patch']['requestBody']>['content']['application/json'];

/** A person's patterns, by their first day. */
export const workingPatternsQuery = (userId: string) =>
  queryOptions({
    queryKey: ['working_patterns', 'list', { user_id: userId }],
    queryFn: () => call(api.GET('/web/api/working_patterns', { params: { query: { user_id: userId } } })),
    select: (data) => data.working_patterns,
  });

export function useCreateWorkingPattern() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: NewWorkingPattern; key: string }) => call(api.POST('/web/api/working_patterns', { body, headers: idempotencyHeader(key) })),
    onSettled: () => markStale(queryClient, 'working_pattern'),
  });
}

export function useUpdateWorkingPattern() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: WorkingPatternPatch }) => call(api.PATCH('/web/api/working_patterns/{id}', { params: { path: { id } }, body })),
    onSettled: () => markStale(queryClient, 'working_pattern'),
  });
}

export function useDeleteWorkingPattern() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.DELETE('/web/api/working_patterns/{id}', { params: { path: { id } } })),
    onSettled: () => markStale(queryClient, 'working_pattern'),
  });
}
