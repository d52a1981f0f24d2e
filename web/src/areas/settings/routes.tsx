import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { guardMemberPage, holds } from '../../api/access.ts';
import { sessionQuery } from '../../api/session.ts';
import { categoriesQuery, keysQuery, workspaceQuery } from './api.ts';
import { ownSessionsQuery, profileQuery } from './profile-api.ts';

/**
 * Settings pages. Each loader starts the page's one request beside the page's chunk
 * (not after it) and does not wait for it: the page shows its frame, then the data. A client
 * membership may use neither page.
 */
export function settingsRoutes(queryClient: QueryClient): RouteObject[] {
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
    {
      path: 'settings/expense-categories',
      loader: () => {
        // Beside the session, not after it: on a first load the role is not known yet, and anyone may
        // read the list (everyone picks a category). Once the session is known, only those who manage
        // the categories ask for them (the page shows the others no list).
        const session = queryClient.getQueryData(sessionQuery.queryKey);
        if (!session?.workspace || holds(session.workspace, 'edit_clients_and_tasks')) void queryClient.prefetchQuery(categoriesQuery);
        return null;
      },
      lazy: () => import('./ExpenseCategoriesPage.tsx').then((m) => ({ Component: m.ExpenseCategoriesPage })),
    },
  ];
}
