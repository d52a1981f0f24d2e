import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { guardPage, holds } from '../../api/access.ts';
import { sessionQuery } from '../../api/session.ts';
import { mayUseInvoices } from './access.ts';
import { invoiceQuery, invoicesQuery, kindChoicesQuery, paymentsQuery } from './queries.ts';
import { filterOf } from './filters.ts';
import { sharingQuery } from './sharing-api.ts';
import { invoiceRetainersQuery } from './retainer-api.ts';
import { activeClientsQuery } from '../../api/clients.ts';

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

/**
 * The invoice and what its page shows beside it (the payments; the attachments and client links in one
 * request), side by side: after the invoice, they would be a third call in a row.
 */
const loadWith = (queryClient: QueryClient, beside: (id: string) => Promise<void>) => ({ params }: LoaderFunctionArgs) =>
  whenAllowed(queryClient, async () => {
    await Promise.all([queryClient.prefetchQuery(invoiceQuery(params.id!)), beside(params.id!)]);
  });

/** The retainer panel's data, for those who see every invoice (the panel's own rule), beside the invoice. */
const retainersBeside = async (queryClient: QueryClient, id: string) => {
  const workspace = queryClient.getQueryData(sessionQuery.queryKey)?.workspace;
  if (workspace && holds(workspace, 'view_invoices')) await queryClient.prefetchQuery(invoiceRetainersQuery(id));
};

const loadClients = (queryClient: QueryClient) => () => whenAllowed(queryClient, () => queryClient.prefetchQuery(activeClientsQuery));

export const invoicesRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    path: 'invoices',
    children: [
      { index: true, loader: loadList(queryClient), lazy: () => import('./InvoicesPage.tsx').then((m) => ({ Component: m.InvoicesPage })) },
      { path: 'new', loader: loadClients(queryClient), lazy: () => import('./NewInvoicePage.tsx').then((m) => ({ Component: m.NewInvoicePage })) },
      { path: ':id/edit', loader: loadWith(queryClient, () => queryClient.prefetchQuery(kindChoicesQuery)), lazy: () => import('./EditInvoicePage.tsx').then((m) => ({ Component: m.EditInvoicePage })) },
      { path: ':id', loader: loadWith(queryClient, async (id) => void (await Promise.all([queryClient.prefetchQuery(paymentsQuery(id)), queryClient.prefetchQuery(sharingQuery(id)), retainersBeside(queryClient, id)]))), lazy: () => import('./InvoicePage.tsx').then((m) => ({ Component: m.InvoicePage })) },
    ],
  },
];
