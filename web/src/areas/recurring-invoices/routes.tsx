import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { guardPage, isAdministrator } from '../../api/access.ts';
import { schedulesQuery } from './api.ts';

/** /invoices/recurring: the recurring invoices of the workspace (owners and administrators; others: not for their role). */
export const recurringInvoicesRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    path: 'invoices/recurring',
    loader: async () => {
      if (await guardPage(queryClient, isAdministrator)) void queryClient.prefetchQuery(schedulesQuery);
      return null;
    },
    lazy: () => import('./RecurringInvoicesPage.tsx').then((m) => ({ Component: m.RecurringInvoicesPage })),
  },
];
