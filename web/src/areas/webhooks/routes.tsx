import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { guardPage, isAdministrator } from '../../api/access.ts';
import { deliveriesQuery, webhookEndpointQuery, webhookEndpointsQuery } from './api.ts';

/**
 * Settings → Webhooks (/settings/webhooks, and /settings/webhooks/:id with its delivery log):
 * owners and administrators, as the server decides; anyone else typing the address gets "not
 * available to your role". Each loader starts its requests once the session allows them,
 * the endpoint and its log side by side.
 */
const adminPage = (queryClient: QueryClient, prefetch: () => void) => async () => {
  if (await guardPage(queryClient, isAdministrator)) prefetch();
  return null;
};

export function webhooksRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'settings/webhooks',
      loader: adminPage(queryClient, () => void queryClient.prefetchQuery(webhookEndpointsQuery)),
      lazy: () => import('./WebhooksPage.tsx').then((m) => ({ Component: m.WebhooksPage })),
    },
    {
      path: 'settings/webhooks/:id',
      loader: (args: LoaderFunctionArgs) =>
        adminPage(queryClient, () => {
          void queryClient.prefetchQuery(webhookEndpointQuery(args.params.id!));
          void queryClient.prefetchInfiniteQuery(deliveriesQuery(args.params.id!));
        })(),
      lazy: () => import('./WebhookPage.tsx').then((m) => ({ Component: m.WebhookPage })),
    },
  ];
}
