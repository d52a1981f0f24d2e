import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { guardPage, isAdministrator } from '../../api/access.ts';
import { auditLogQuery, auditPeopleQuery } from './api.ts';
import { filterOf } from './filter.ts';

/**
 * Settings → Audit log (/settings/audit): owners and administrators, as the server decides;
 * anyone else typing the address gets "not available to your role". The loader starts the
 * first page (with the URL's filters) and the people list beside the page's chunk.
 */
export function auditRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'settings/audit',
      loader: async ({ request }: LoaderFunctionArgs) => {
        if (await guardPage(queryClient, isAdministrator)) {
          void queryClient.prefetchInfiniteQuery(auditLogQuery(filterOf(new URL(request.url).searchParams)));
          void queryClient.prefetchQuery(auditPeopleQuery);
        }
        return null;
      },
      lazy: () => import('./AuditPage.tsx').then((m) => ({ Component: m.AuditPage })),
    },
  ];
}
