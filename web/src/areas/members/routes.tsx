import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { invitationsQuery, membersQuery } from './api.ts';

/** Members and invitations (owners and administrators), and the public page an invitation link opens. */
export function membersRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'settings/members',
      loader: () => {
        void queryClient.prefetchQuery(membersQuery);
        return null;
      },
      lazy: () => import('./MembersPage.tsx').then((m) => ({ Component: m.MembersPage })),
    },
    {
      path: 'settings/invitations',
      loader: () => {
        void queryClient.prefetchQuery(invitationsQuery);
        return null;
      },
      lazy: () => import('./InvitationsPage.tsx').then((m) => ({ Component: m.InvitationsPage })),
    },
  ];
}

export function invitationRoutes(_queryClient: QueryClient): RouteObject[] {
  return [{ path: 'invitations/accept', lazy: () => import('./AcceptInvitationPage.tsx').then((m) => ({ Component: m.AcceptInvitationPage })) }];
}
