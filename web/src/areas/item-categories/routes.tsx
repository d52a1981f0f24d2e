import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { isAdministrator } from '../../api/access.ts';
import { sessionQuery } from '../../api/session.ts';
import { itemCategoriesQuery } from './api.ts';

/** The invoice item categories page (under Settings), for owners and administrators. */
export function itemCategoriesRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'settings/item-categories',
      loader: () => {
        // Beside the session, not after it: on a first load the role is not known yet. Once it is,
        // only those who manage the categories ask for them (the page shows the others no list).
        const session = queryClient.getQueryData(sessionQuery.queryKey);
        if (!session?.workspace || isAdministrator(session.workspace)) void queryClient.prefetchQuery(itemCategoriesQuery);
        return null;
      },
      lazy: () => import('./ItemCategoriesPage.tsx').then((m) => ({ Component: m.ItemCategoriesPage })),
    },
  ];
}
