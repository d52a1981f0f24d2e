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
