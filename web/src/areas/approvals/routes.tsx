import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { guardMemberPage, isManagerOrAbove } from '../../api/access.ts';
import { sessionQuery } from '../../api/session.ts';
import { myWeekQuery } from '../../api/approval-week.ts';
import { queueQuery } from './api.ts';

/**
 * /approvals?date=YYYY-MM-DD: the caller's week (submit) and, for approvers, the queue.
 * The loader starts both reads beside the page's chunk and does not wait for them.
 */
const load = (queryClient: QueryClient) => ({ request }: LoaderFunctionArgs) => {
  const date = new URL(request.url).searchParams.get('date') ?? undefined;
  // The session gate loads the session in parallel; this waits for the same request.
  void queryClient.ensureQueryData(sessionQuery).then((s) => {
    if (s.workspace && isManagerOrAbove(s.workspace)) void queryClient.prefetchQuery(queueQuery);
  }, () => undefined);
  return guardMemberPage(queryClient, async () => void queryClient.prefetchQuery(myWeekQuery(date)));
};

export const approvalsRoutes = (queryClient: QueryClient): RouteObject[] => [
  { path: 'approvals', loader: load(queryClient), lazy: () => import('./ApprovalsPage.tsx').then((m) => ({ Component: m.ApprovalsPage })) },
];
