import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { guardPage, isAdministrator } from '../../api/access.ts';

/**
 * Settings → Import (/settings/import): owners and administrators, as the server decides;
 * anyone else typing the address gets "not available to your role". The page loads nothing
 * of its own: it asks the server only once a file is chosen.
 */
export function importRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'settings/import',
      loader: async () => {
        await guardPage(queryClient, isAdministrator);
        return null;
      },
      lazy: () => import('./ImportPage.tsx').then((m) => ({ Component: m.ImportPage })),
    },
  ];
}
