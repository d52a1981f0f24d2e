import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { guardPage, isAdministrator } from '../../api/access.ts';
import { singleSignOnQuery } from './api.ts';

/** Settings → Single sign-on (/settings/single-sign-on): owners and administrators, as the server decides. */
export function singleSignOnRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'settings/single-sign-on',
      loader: async () => {
        if (await guardPage(queryClient, isAdministrator)) void queryClient.prefetchQuery(singleSignOnQuery);
        return null;
      },
      lazy: () => import('./SingleSignOnPage.tsx').then((m) => ({ Component: m.SingleSignOnPage })),
    },
  ];
}
