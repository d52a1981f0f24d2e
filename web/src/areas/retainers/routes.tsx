import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { guardPage, holds } from '../../api/access.ts';
import { retainerQuery, retainersQuery } from './api.ts';

/**
 * /invoices/retainers (the list; ?archived=true the archived ones) and /invoices/retainers/:id:
 * for those who see every invoice (owners, administrators, managers with View invoices), as the
 * server decides; others: not for their role.
 */
const whenAllowed = async (queryClient: QueryClient, fetch: () => Promise<unknown>) => {
  if (await guardPage(queryClient, (w) => holds(w, 'view_invoices'))) await fetch();
  return null;
};

export const retainersRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    path: 'invoices/retainers',
    children: [
      {
        index: true,
        loader: ({ request }: LoaderFunctionArgs) =>
          whenAllowed(queryClient, () => queryClient.prefetchQuery(retainersQuery(new URL(request.url).searchParams.get('archived') === 'true'))),
        lazy: () => import('./RetainersPage.tsx').then((m) => ({ Component: m.RetainersPage })),
      },
      {
        path: ':id',
        loader: ({ params }: LoaderFunctionArgs) => whenAllowed(queryClient, () => queryClient.prefetchQuery(retainerQuery(params.id!))),
        lazy: () => import('./RetainerPage.tsx').then((m) => ({ Component: m.RetainerPage })),
      },
    ],
  },
];
