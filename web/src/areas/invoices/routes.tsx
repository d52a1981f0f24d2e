import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { guardPage } from '../../api/access.ts';
import { mayUseInvoices } from './access.ts';
import { activeClientsQuery, invoiceQuery, invoicesQuery } from './api.ts';
import { filterOf } from './filters.ts';
import { sharingQuery } from './sharing-api.ts';

/**
 * /invoices (the list, its filters in the URL) and /invoices/:id (one invoice): one lazy
 * chunk per page; the loaders fetch in parallel with the chunk (failures show on the page).
 */
/**
 * Starts `fetch` once the session (the gate loads it in parallel; this waits for the same request)
 * says the area is the caller's; anyone else gets "not available to your role".
 */
const whenAllowed = async (queryClient: QueryClient, fetch: () => Promise<void>) => {
  if (await guardPage(queryClient, mayUseInvoices)) await fetch();
  return null;
};

const loadList = (queryClient: QueryClient) => ({ request }: LoaderFunctionArgs) =>
  whenAllowed(queryClient, () => queryClient.prefetchQuery(invoicesQuery(filterOf(new URL(request.url).searchParams))));

const loadOne = (queryClient: QueryClient) => ({ params }: LoaderFunctionArgs) =>
  whenAllowed(queryClient, () => queryClient.prefetchQuery(invoiceQuery(params.id!)));

/** The invoice page: the invoice, and its attachments and client links (one request), in parallel. */
const loadPage = (queryClient: QueryClient) => ({ params }: LoaderFunctionArgs) =>
  whenAllowed(queryClient, async () => {
    const id = params.id!;
    await Promise.all([queryClient.prefetchQuery(invoiceQuery(id)), queryClient.prefetchQuery(sharingQuery(id))]);
  });

const loadClients = (queryClient: QueryClient) => () => whenAllowed(queryClient, () => queryClient.prefetchQuery(activeClientsQuery));

export const invoicesRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    path: 'invoices',
    children: [
      { index: true, loader: loadList(queryClient), lazy: () => import('./InvoicesPage.tsx').then((m) => ({ Component: m.InvoicesPage })) },
      { path: 'new', loader: loadClients(queryClient), lazy: () => import('./NewInvoicePage.tsx').then((m) => ({ Component: m.NewInvoicePage })) },
      { path: ':id/edit', loader: loadOne(queryClient), lazy: () => import('./EditInvoicePage.tsx').then((m) => ({ Component: m.EditInvoicePage })) },
      { path: ':id', loader: loadPage(queryClient), lazy: () => import('./InvoicePage.tsx').then((m) => ({ Component: m.InvoicePage })) },
    ],
  },
];
