import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { homeQuery } from './api.ts';

/** The home page: its one read starts beside the page's chunk and the session (no waterfall). */
export const homeRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    index: true,
    loader: async () => {
      // A failure shows on the page, inside the shell.
      await queryClient.prefetchQuery(homeQuery);
      return null;
    },
    lazy: () => import('./HomePage.tsx').then((m) => ({ Component: m.HomePage })),
  },
];
