import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { holds } from '../../api/access.ts';
import { sessionQuery } from '../../api/session.ts';
import { categoriesQuery } from './api.ts';

/** The expense categories page (under Settings). */
export function expenseCategoriesRoutes(queryClient: QueryClient): RouteObject[] {
  return [
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
