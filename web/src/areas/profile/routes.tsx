import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { ownSessionsQuery, profileQuery } from './api.ts';

/** The person's own profile (under Settings). Its loader starts the page's requests beside its chunk, without waiting for them. */
export function profileRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'settings/profile',
      loader: () => {
        void queryClient.prefetchQuery(profileQuery);
        void queryClient.prefetchQuery(ownSessionsQuery);
        return null;
      },
      lazy: () => import('./ProfilePage.tsx').then((m) => ({ Component: m.ProfilePage })),
    },
  ];
}

/** Where a workspace's two-factor requirement holds a person without codes: outside the shell (nothing else works yet), behind the session gate. */
export const twoFactorSetupRoute: RouteObject = {
  path: 'two-factor-setup',
  lazy: () => import('./TwoFactorRequiredPage.tsx').then((m) => ({ Component: m.TwoFactorRequiredPage })),
};
