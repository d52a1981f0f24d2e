import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { guardMemberPage, guardPage } from '../../api/access.ts';
import { clientAccess } from './access.ts';
import { clientQuery, clientsQuery, contactsQuery } from './api.ts';
import { apiQuery, filterOf } from './filters.ts';

/**
 * /clients (the list, status, search and page in the URL), /clients/new and /clients/:id
 * (the client with its contacts): one lazy chunk per page; the loaders fetch in parallel
 * with the chunk and with each other (failures show on the page, inside the shell).
 */
const loadList = (queryClient: QueryClient) => ({ request }: LoaderFunctionArgs) =>
  guardMemberPage(queryClient, () => queryClient.prefetchQuery(clientsQuery(apiQuery(filterOf(new URL(request.url).searchParams)))));

const loadOne = (queryClient: QueryClient) => ({ params }: LoaderFunctionArgs) =>
  guardMemberPage(queryClient, () => Promise.all([queryClient.prefetchQuery(clientQuery(params.id!)), queryClient.prefetchQuery(contactsQuery(params.id!))]));

/** /clients/new: those who may add clients; anyone else typing the address is told it is not for their role. */
const loadNew = (queryClient: QueryClient) => async () => {
  await guardPage(queryClient, (w) => clientAccess(w).writes);
  return null;
};

const clientPage = () => import('./ClientPage.tsx').then((m) => ({ Component: m.ClientPage }));

export const clientsRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    path: 'clients',
    children: [
      { index: true, loader: loadList(queryClient), lazy: () => import('./ClientsPage.tsx').then((m) => ({ Component: m.ClientsPage })) },
      { path: 'new', loader: loadNew(queryClient), lazy: clientPage },
      { path: ':id', loader: loadOne(queryClient), lazy: clientPage },
    ],
  },
];
