import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { sessionQuery } from '../../api/session.ts';
import { APPROVER_ROLES } from './format.ts';
import { myWeekQuery, queueQuery } from './api.ts';

/**
 * /approvals?date=YYYY-MM-DD: the caller's week (submit) and, for approvers, the queue.
 * The loader starts both reads beside the page's chunk and does not wait for them.
 */
const load = (queryClient: QueryClient) => async ({ request }: LoaderFunctionArgs) => {
  const date = new URL(request.url).searchParams.get('date') ?? undefined;
  void queryClient.prefetchQuery(myWeekQuery(date));
  // The session gate loads the session in parallel; this waits for the same request.
  void queryClient.ensureQueryData(sessionQuery).then((s) => {
    if (s.workspace && APPROVER_ROLES.includes(s.workspace.role)) void queryClient.prefetchQuery(queueQuery);
  }, () => undefined);
  return null;
};

export const approvalsRoutes = (queryClient: QueryClient): RouteObject[] => [
  { path: 'approvals', loader: load(queryClient), lazy: () => import('./ApprovalsPage.tsx').then((m) => ({ Component: m.ApprovalsPage })) },
];
