import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { guardPage, isAdministrator } from '../../api/access.ts';
import { invoiceSettingsQuery } from './api.ts';

/**
 * Settings → Invoicing: owners and administrators, who change the workspace's other
 * settings the invoice prints; anyone else typing the address gets "not available to
 * your role". The loader starts the settings' request once the session allows it.
 */
export function invoiceSettingsRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'settings/invoicing',
      loader: async () => {
        if (await guardPage(queryClient, isAdministrator)) void queryClient.prefetchQuery(invoiceSettingsQuery);
        return null;
      },
      lazy: () => import('./InvoicingPage.tsx').then((m) => ({ Component: m.InvoicingPage })),
    },
  ];
}
