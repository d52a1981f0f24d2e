import type { QueryClient } from '@tanstack/react-query';
import { replace, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { HttpError } from '../../api/call.ts';
import { describeError } from '../../api/errors.ts';
import { confirmEmailChange, isChallenge, pendingChallenge, redeemSignInLink, resetLinkState, sessionQuery } from '../../api/session.ts';
import type { ConfirmEmailOutcome } from './ConfirmEmailPage.tsx';
import { safeNext } from './next.ts';

/**
 * The session's pages. Loaders are static (they start with the navigation, beside
 * the page's chunk); components load lazily, one chunk per page.
 */
export function signedOutRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'sign-in',
      loader: async ({ request }: LoaderFunctionArgs) => {
        const params = new URL(request.url).searchParams;
        // Just signed out or found signed out: no need to ask the server again.
        if (params.has('reason')) return null;
        try {
          await queryClient.fetchQuery(sessionQuery);
        } catch {
          return null; // not signed in (or the server is away): the form it is
        }
        return replace(safeNext(params.get('next')));
      },
      lazy: () => import('./SignInPage.tsx').then((m) => ({ Component: m.SignInPage })),
    },
    {
      // The second step of a sign-in with two-factor codes; without a challenge waiting (a reload), back to sign-in.
      path: 'sign-in/code',
      loader: () => (pendingChallenge() ? null : replace('/sign-in')),
      lazy: () => import('./SecondFactorPage.tsx').then((m) => ({ Component: m.SecondFactorPage })),
    },
    {
      // /sign-in/link#<token> (first start, an administrator's link): redeemed once, by the loader, never by a re-render.
      path: 'sign-in/link',
      loader: async () => {
        const token = window.location.hash.slice(1);
        if (!token) return null;
        try {
          const session = await redeemSignInLink(queryClient, token);
          if (isChallenge(session)) return replace('/sign-in/code');
          // replace: the used link leaves the history, so Back does not land on a dead link.
          // The first start's owner names themselves first (then chooses a password), anyone else without one chooses it.
          return replace(session.user.needs_identity ? '/welcome' : session.user.has_password ? '/' : '/settings/password');
        } catch (error) {
          if (error instanceof HttpError && error.status === 400) return null;
          throw error;
        }
      },
      lazy: () => import('./SignInLinkPage.tsx').then((m) => ({ Component: m.SignInLinkPage })),
    },
    {
      // /confirm-email#<token>: an e-mail change link, used once by the loader; no session needed (another device may open it).
      path: 'confirm-email',
      loader: async (): Promise<ConfirmEmailOutcome> => {
        const token = window.location.hash.slice(1);
        if (!token) return { problem: 'link' };
        try {
          const email = await confirmEmailChange(queryClient, token);
          // The used link leaves the address bar (and the history entry keeps no token).
          window.history.replaceState(window.history.state, '', '/confirm-email');
          return { email };
        } catch (error) {
          const { code, message } = describeError(error);
          if (code === 'link_invalid' || (error instanceof HttpError && error.status === 400)) return { problem: 'link' };
          return { problem: 'other', message };
        }
      },
      lazy: () => import('./ConfirmEmailPage.tsx').then((m) => ({ Component: m.ConfirmEmailPage })),
    },
    { path: 'forgot-password', lazy: () => import('./ForgotPasswordPage.tsx').then((m) => ({ Component: m.ForgotPasswordPage })) },
    {
      // /reset-password#<token>: whether the link still works is asked when the page opens, not after a password is typed.
      path: 'reset-password',
      loader: () => resetLinkState(window.location.hash.slice(1)),
      lazy: () => import('./ResetPasswordPage.tsx').then((m) => ({ Component: m.ResetPasswordPage })),
    },
  ];
}

/** The first owner's first step, outside the shell (nothing else comes first); the router puts it behind the session gate. */
export const welcomeRoute: RouteObject = { path: 'welcome', lazy: () => import('./WelcomePage.tsx').then((m) => ({ Component: m.WelcomePage })) };

export const signedInRoutes: RouteObject[] = [
  { path: 'settings/password', lazy: () => import('./PasswordPage.tsx').then((m) => ({ Component: m.PasswordPage })) },
];
