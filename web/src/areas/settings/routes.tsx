import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { guardMemberPage } from '../../api/access.ts';
import { keysQuery, workspaceQuery } from './api.ts';

/**
 * Settings pages. Each loader starts the page's one request beside the page's chunk
 * (not after it) and does not wait for it: the page shows its frame, then the data. A client
 * membership may use neither page.
 */
export function settingsRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'settings/workspace',
      loader: () => guardMemberPage(queryClient, async () => void queryClient.prefetchQuery(workspaceQuery)),
      lazy: () => import('./WorkspacePage.tsx').then((m) => ({ Component: m.WorkspacePage })),
    },
    {
      path: 'settings/api',
      loader: () => guardMemberPage(queryClient, async () => void queryClient.prefetchQuery(keysQuery)),
      lazy: () => import('./ApiPage.tsx').then((m) => ({ Component: m.ApiPage })),
    },
  ];
}
