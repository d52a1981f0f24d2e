import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { guardMemberPage } from '../../api/access.ts';
import { keysQuery } from './api.ts';

/** The API keys page (under Settings); a client membership may not use it. Its loader starts the page's one request beside its chunk. */
export function credentialsRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'settings/api',
      loader: () => guardMemberPage(queryClient, async () => void queryClient.prefetchQuery(keysQuery)),
      lazy: () => import('./ApiPage.tsx').then((m) => ({ Component: m.ApiPage })),
    },
  ];
}
