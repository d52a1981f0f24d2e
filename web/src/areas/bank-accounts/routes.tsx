import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { isAdministrator } from '../../api/access.ts';
import { sessionQuery } from '../../api/session.ts';
import { bankAccountsQuery } from './api.ts';

/** The bank accounts page (under Settings). */
export function bankAccountsRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'settings/bank-accounts',
      loader: () => {
        // Beside the session, not after it; once the role is known, only administrators ask (others get a 403).
        const session = queryClient.getQueryData(sessionQuery.queryKey);
        if (!session?.workspace || isAdministrator(session.workspace)) void queryClient.prefetchQuery(bankAccountsQuery);
        return null;
      },
      lazy: () => import('./BankAccountsPage.tsx').then((m) => ({ Component: m.BankAccountsPage })),
    },
  ];
}
