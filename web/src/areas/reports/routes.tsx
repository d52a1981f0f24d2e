import type { QueryClient } from '@tanstack/react-query';
import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { guardPage } from '../../api/access.ts';
import type { Workspace } from '../../api/session.ts';
import { mayRunBudgetReport, mayRunTeamReport, mayRunTimeReport, mayRunUninvoicedReport } from './access.ts';
import { budgetQuery, teamQuery, timeQuery, uninvoicedQuery } from './api.ts';
import { activeOf, groupByOf } from './params.ts';
import { periodOf } from './period.ts';

/**
 * /reports/time, /reports/team, /reports/budget, /reports/uninvoiced (period and filters in the
 * URL): one lazy chunk per page, charts in a chunk of their own; each loader fetches its report
 * in parallel with the chunk, once the session (loaded by the gate meanwhile) says the caller
 * may run it; a report the role may not run is "not available to your role".
 */
const when =
  (queryClient: QueryClient, allowed: (w: Workspace) => boolean, fetch: (search: URLSearchParams) => Promise<void>) =>
  async ({ request }: LoaderFunctionArgs) => {
    if (await guardPage(queryClient, allowed)) await fetch(new URL(request.url).searchParams);
    return null;
  };

export const reportsRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    path: 'reports',
    lazy: () => import('./ReportsLayout.tsx').then((m) => ({ Component: m.ReportsLayout })),
    children: [
      { index: true, loader: () => redirect('/reports/time') },
      {
        path: 'time',
        loader: when(queryClient, mayRunTimeReport, (s) => queryClient.prefetchQuery(timeQuery(periodOf(s), groupByOf(s)))),
        lazy: () => import('./TimeReportPage.tsx').then((m) => ({ Component: m.TimeReportPage })),
      },
      {
        path: 'team',
        loader: when(queryClient, mayRunTeamReport, (s) => queryClient.prefetchQuery(teamQuery(periodOf(s)))),
        lazy: () => import('./TeamReportPage.tsx').then((m) => ({ Component: m.TeamReportPage })),
      },
      {
        path: 'budget',
        loader: when(queryClient, mayRunBudgetReport, (s) => queryClient.prefetchQuery(budgetQuery(activeOf(s)))),
        lazy: () => import('./BudgetReportPage.tsx').then((m) => ({ Component: m.BudgetReportPage })),
      },
      {
        path: 'uninvoiced',
        loader: when(queryClient, mayRunUninvoicedReport, (s) => queryClient.prefetchQuery(uninvoicedQuery(periodOf(s)))),
        lazy: () => import('./UninvoicedReportPage.tsx').then((m) => ({ Component: m.UninvoicedReportPage })),
      },
    ],
  },
];
