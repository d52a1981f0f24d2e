import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { guardPage, isManagerOrAbove } from '../../api/access.ts';
import { kindChoicesQuery } from '../../api/item-categories.ts';
import { estimateLinksQuery, estimateQuery, estimatesQuery, type EstimateState } from './api.ts';
import { activeClientsQuery } from '../../api/clients.ts';

/**
 * /estimates (the list, its state in the URL), /estimates/new, /estimates/:id and
 * /estimates/:id/edit: one lazy chunk per page; the loaders fetch with the chunk. Who:
 * whoever uses invoices (owners, administrators, managers), as the server decides.
 */
const whenAllowed = async (queryClient: QueryClient, fetch: () => Promise<unknown>) => {
  if (await guardPage(queryClient, isManagerOrAbove)) await fetch();
  return null;
};

const stateOf = (url: string) => (new URL(url).searchParams.get('state') ?? undefined) as EstimateState | undefined;

export const estimatesRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    path: 'estimates',
    children: [
      {
        index: true,
        loader: ({ request }: LoaderFunctionArgs) => whenAllowed(queryClient, () => queryClient.prefetchQuery(estimatesQuery(stateOf(request.url)))),
        lazy: () => import('./EstimatesPage.tsx').then((m) => ({ Component: m.EstimatesPage })),
      },
      {
        path: 'new',
        loader: () => whenAllowed(queryClient, () => Promise.all([queryClient.prefetchQuery(activeClientsQuery), queryClient.prefetchQuery(kindChoicesQuery)])),
        lazy: () => import('./EstimateFormPage.tsx').then((m) => ({ Component: m.NewEstimatePage })),
      },
      {
        path: ':id/edit',
        loader: ({ params }: LoaderFunctionArgs) =>
          whenAllowed(queryClient, () => Promise.all([queryClient.prefetchQuery(estimateQuery(params.id!)), queryClient.prefetchQuery(kindChoicesQuery)])),
        lazy: () => import('./EstimateFormPage.tsx').then((m) => ({ Component: m.EditEstimatePage })),
      },
      {
        path: ':id',
        loader: ({ params }: LoaderFunctionArgs) =>
          whenAllowed(queryClient, () => Promise.all([queryClient.prefetchQuery(estimateQuery(params.id!)), queryClient.prefetchQuery(estimateLinksQuery(params.id!))])),
        lazy: () => import('./EstimatePage.tsx').then((m) => ({ Component: m.EstimatePage })),
      },
    ],
  },
];
