import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { guardMemberPage } from '../../api/access.ts';
import { workspaceQuery } from './api.ts';

/**
 * The workspace's settings page. Its loader starts the page's one request beside the page's
 * chunk (not after it) and does not wait for it: the page shows its frame, then the data. A
 * client membership may not use it.
 */
export function settingsRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'settings/workspace',
      loader: () => guardMemberPage(queryClient, async () => void queryClient.prefetchQuery(workspaceQuery)),
      lazy: () => import('./WorkspacePage.tsx').then((m) => ({ Component: m.WorkspacePage })),
    },
  ];
}
