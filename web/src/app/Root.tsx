import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { RouterProvider as AriaRouterProvider, I18nProvider } from 'react-aria-components';
import { Outlet, useHref, useLocation, useNavigate, type NavigateOptions } from 'react-router';
import { whenSessionEnds } from '../api/client.ts';
import { forgetSession, onSessionBroadcast, sessionHasEnded } from '../api/session.ts';
import { followOtherTabs } from '../api/stale.ts';
import { useLocale } from '../ui/i18n.ts';

declare module 'react-aria-components' {
  interface RouterConfig {
    routerOptions: NavigateOptions;
  }
}

const SIGNED_OUT_PAGES = ['/sign-in', '/forgot-password', '/reset-password'];

/**
 * The root route: React Aria links navigate through the router; a session that ends
 * (a 401 on a signed-in call, or sign-out in another tab) leads to sign-in; what another
 * tab changes is stale here too (api/stale.ts); after each
 * navigation, focus moves to the new page's heading so screen readers announce it.
 */
export function Root() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  // React Aria's own texts and formats (date fields, calendars, number fields) in the app's language.
  const locale = useLocale();

  useEffect(() => {
    const toSignIn = (reason: string) => {
      forgetSession(queryClient);
      const here = window.location.pathname + window.location.search;
      if (SIGNED_OUT_PAGES.some((p) => here.startsWith(p))) return;
      void navigate(`/sign-in?reason=${reason}&next=${encodeURIComponent(here)}`, { replace: true });
    };
    whenSessionEnds(() => {
      void sessionHasEnded(queryClient).then((ended) => ended && toSignIn('ended'));
    });
    const stop = onSessionBroadcast((change) => {
      if (change === 'ended') toSignIn('signed-out');
      // Signed in or switched elsewhere: what this tab holds may be another user's or workspace's.
      else void queryClient.invalidateQueries();
    });
    // What other tabs change (an entry, the timer, settings) is stale here too.
    const unfollow = followOtherTabs(queryClient);
    return () => {
      whenSessionEnds(() => {});
      stop();
      unfollow();
    };
  }, [navigate, queryClient]);

  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('h1')?.focus();
  }, [location.pathname]);

  return (
    <I18nProvider locale={locale}>
      <AriaRouterProvider navigate={(to, options) => void navigate(to, options)} useHref={useHref}>
        <Outlet />
      </AriaRouterProvider>
    </I18nProvider>
  );
}
