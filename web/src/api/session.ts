import { queryOptions, useMutation, useQueryClient, useSuspenseQuery, type QueryClient } from '@tanstack/react-query';
import { api, rememberCsrfToken } from './client.ts';
import { call } from './call.ts';
import { isUnauthorized } from './errors.ts';
import { hearOtherTabs, tellOtherTabs } from './channel.ts';
import { markStale } from './stale.ts';
import { currentLanguage } from '../ui/i18n.ts';
import type { paths } from './schema';

/**
 * The browser session (/web/api/session...): who is signed in, in which workspace,
 * with what role. Shared by the shell, the sign-in pages and every area (their
 * permissions), so it lives beside the client rather than in one area.
 */
export type Session = paths['/web/api/session']['get']['responses'][200]['content']['application/json'];
export type Workspace = NonNullable<Session['workspace']>;
/** A session with a current workspace: what every page inside the shell has (the shell shows none otherwise). */
export type WorkspaceSession = Session & { workspace: Workspace };

export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: () => call(api.GET('/web/api/session')).then(remember),
  // Changes only through this tab's own calls (which write the cache) or another tab's (BroadcastChannel).
  staleTime: 5 * 60_000,
  retry: false,
});

function remember(session: Session): Session {
  rememberCsrfToken(session.csrf_token);
  return session;
}

/** A right password (or link, reset, invitation) of someone with two-factor codes: the code is asked next (/sign-in/code). */
export type SecondFactorChallenge = paths['/web/api/session']['post']['responses'][202]['content']['application/json'];
export type SignInAnswer = Session | SecondFactorChallenge;
export const isChallenge = (answer: SignInAnswer): answer is SecondFactorChallenge => 'second_factor_required' in answer;

/**
 * The challenge waiting for its code, in this tab's memory only (not in storage or the URL): the
 * code page reads it; a reload loses it, and the person signs in again (it lasts 5 minutes anyway).
 */
let pending: SecondFactorChallenge | null = null;
export const pendingChallenge = () => (pending && Date.parse(pending.expires_at) > Date.now() ? pending : null);
export const forgetChallenge = () => {
  pending = null;
};

/** Takes a sign-in's answer: a session is put in place; a challenge is kept for the code page (/sign-in/code). */
export function acceptSignIn(queryClient: QueryClient, answer: SignInAnswer) {
  if (isChallenge(answer)) {
    pending = answer;
    return;
  }
  pending = null;
  acceptSession(queryClient, answer, { sameUser: false });
  broadcastSession('changed');
}

/** Puts a session the server just returned (sign-in, link, switch) in place of whatever was there. */
export function acceptSession(queryClient: QueryClient, session: Session, { sameUser }: { sameUser: boolean }) {
  remember(session);
  // Another user's or another workspace's data must not show for a moment: drop it all.
  if (!sameUser) queryClient.clear();
  else queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
  queryClient.setQueryData(sessionQuery.queryKey, session);
}

/** The session of a signed-in page (the router's session gate loaded it before the page renders). */
export function useSession(): Session {
  return useSuspenseQuery(sessionQuery).data;
}

/**
 * The session of a page inside the shell, with its current workspace. A session can
 * have none (its membership was deactivated); the shell then shows the way to another
 * workspace instead of any page, so a page never meets a null workspace.
 */
export function useWorkspaceSession(): WorkspaceSession {
  const session = useSession();
  if (!session.workspace) throw new Error('useWorkspaceSession() outside the shell, or the shell showed a page without a workspace');
  return session as WorkspaceSession;
}

/** Tells this tab's other copies that the session changed (they reload it) or ended (they go to sign-in). */
export function broadcastSession(change: 'changed' | 'ended') {
  tellOtherTabs({ session: change });
}

export function onSessionBroadcast(handler: (change: 'changed' | 'ended') => void) {
  return hearOtherTabs((message) => {
    if ('session' in message) handler(message.session);
  });
}

let checking: Promise<boolean> | null = null;

/**
 * After a signed-in call's 401: asks for the session once (however many calls answered 401) and
 * says whether it has ended. A 401 can also mean only that the membership of the current workspace
 * ended while the session lives on (the shell then offers the other workspaces), so the session's
 * own answer decides; when it has ended, it is forgotten here.
 */
export function sessionHasEnded(queryClient: QueryClient): Promise<boolean> {
  checking ??= queryClient
    .fetchQuery({ ...sessionQuery, staleTime: 0 })
    .then(
      () => false,
      (error: unknown) => {
        if (!isUnauthorized(error)) return false;
        forgetSession(queryClient);
        return true;
      },
    )
    .finally(() => {
      checking = null;
    });
  return checking;
}

/** Forgets the session here (signed out, or found ended): no data of it stays in memory. */
export function forgetSession(queryClient: QueryClient) {
  rememberCsrfToken('');
  queryClient.clear();
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; password: string }): Promise<SignInAnswer> => call(api.POST('/web/api/session', { body })),
    onSuccess: (answer) => acceptSignIn(queryClient, answer),
  });
}

/** The second step: the code from the authenticator app (or a recovery code) for a challenge. */
export function useSecondFactorSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { challenge: string; code: string }) => call(api.POST('/web/api/session/two-factor', { body })),
    onSuccess: (session) => acceptSignIn(queryClient, session),
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.DELETE('/web/api/session')),
    // Signed out here even when the call failed (the cookie may be gone already): never keep showing data.
    onSettled: () => {
      forgetSession(queryClient);
      broadcastSession('ended');
    },
  });
}

export function useSwitchWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (companyId: string) => call(api.PUT('/web/api/session/workspace', { body: { company_id: companyId } })),
    onSuccess: (session) => {
      acceptSession(queryClient, session, { sameUser: true });
      broadcastSession('changed');
    },
  });
}

/**
 * Signs in with the token of a one-time link (first start, an administrator's link). The page's
 * language goes with it: an account that never signed in (the first start's owner) takes it.
 */
export async function redeemSignInLink(queryClient: QueryClient, token: string): Promise<SignInAnswer> {
  const answer: SignInAnswer = await call(api.POST('/web/api/sign-in-links/redeem', { body: { token, language: currentLanguage() } }));
  acceptSignIn(queryClient, answer);
  return answer;
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { password: string; current_password?: string }) => call(api.PUT('/web/api/password', { body })),
    onSuccess: () => {
      queryClient.setQueryData(sessionQuery.queryKey, (s) => (s ? { ...s, user: { ...s.user, has_password: true } } : s));
    },
  });
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (email: string) => call(api.POST('/web/api/password-resets', { body: { email } })),
  });
}

/** What a reset link is now (usable, used, expired, invalid), asked without using it. */
export type ResetLinkState = paths['/web/api/password-resets/lookup']['post']['responses'][200]['content']['application/json']['state'];

export async function resetLinkState(token: string): Promise<ResetLinkState> {
  if (!token) return 'invalid';
  return (await call(api.POST('/web/api/password-resets/lookup', { body: { token } }))).state;
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { token: string; password: string }): Promise<SignInAnswer> => call(api.POST('/web/api/password-resets/redeem', { body })),
    onSuccess: (answer) => acceptSignIn(queryClient, answer),
  });
}

/** The first owner's real name and address, in place of the first start's placeholder (the session comes back). */
export function useSetFirstIdentity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { first_name: string; last_name: string; email: string }) => call(api.PUT('/web/api/profile/identity', { body })),
    onSuccess: (session) => {
      queryClient.setQueryData(sessionQuery.queryKey, remember(session));
      broadcastSession('changed');
    },
  });
}

/** Opens an e-mail change link (no session needed); a signed-in copy of the app then shows the new address. */
export async function confirmEmailChange(queryClient: QueryClient, token: string): Promise<string> {
  const { email } = await call(api.POST('/web/api/profile/email/confirm', { body: { token } }));
  void markStale(queryClient, 'profile');
  broadcastSession('changed');
  return email;
}
