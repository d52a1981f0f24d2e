import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { guardPage, isAdministrator } from '../../api/access.ts';
import { invitationsQuery, membersQuery } from './api.ts';

/**
 * Members and invitations (owners and administrators; anyone else typing the address gets
 * "not available to your role"), and the public page an invitation link opens. Each loader
 * starts its list once the session allows it and does not wait for it.
 */
const adminPage = (queryClient: QueryClient, prefetch: () => Promise<void>) => async () => {
  if (await guardPage(queryClient, isAdministrator)) void prefetch();
  return null;
};

export function membersRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'settings/members',
      loader: adminPage(queryClient, () => queryClient.prefetchQuery(membersQuery)),
      lazy: () => import('./MembersPage.tsx').then((m) => ({ Component: m.MembersPage })),
    },
    {
      path: 'settings/invitations',
      loader: adminPage(queryClient, () => queryClient.prefetchQuery(invitationsQuery)),
      lazy: () => import('./InvitationsPage.tsx').then((m) => ({ Component: m.InvitationsPage })),
    },
  ];
}

export function invitationRoutes(_queryClient: QueryClient): RouteObject[] {
  return [{ path: 'invitations/accept', lazy: () => import('./AcceptInvitationPage.tsx').then((m) => ({ Component: m.AcceptInvitationPage })) }];
}
