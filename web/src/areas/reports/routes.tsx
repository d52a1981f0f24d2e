import type { QueryClient } from '@tanstack/react-query';
import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { guardPage } from '../../api/access.ts';
import { sessionQuery, type Workspace } from '../../api/session.ts';
import { createFormat } from '../../ui/format.ts';
import { mayRunBudgetReport, mayRunPlannedReport, mayRunTeamReport, mayRunTimeReport, mayRunUninvoicedReport } from './access.ts';
import { budgetQuery, plannedQuery, teamQuery, timeQuery, uninvoicedQuery } from './api.ts';
import { activeOf, groupByOf } from './params.ts';
import { beyondReportSpan, periodOf, today } from './period.ts';
import type { SaveAction } from './save.tsx';

/**
 * /reports/time, /reports/team, /reports/budget, /reports/uninvoiced, /reports/planned (period and filters in the
 * URL): one lazy chunk per page, charts in a chunk of their own; each loader fetches its report
 * in parallel with the chunk, once the session (loaded by the gate meanwhile) says the caller
 * may run it; a report the role may not run is "not available to your role".
 * The app composes in what other areas add: pages under the reports' navigation (saved
 * reports) and the pages' "Save report".
 */
const when =
  (queryClient: QueryClient, allowed: (w: Workspace) => boolean, fetch: (search: URLSearchParams, day: string) => Promise<void>) =>
  async ({ request }: LoaderFunctionArgs) => {
    if (await guardPage(queryClient, allowed)) await fetch(new URL(request.url).searchParams, todayOf(queryClient));
    return null;
  };

/**
 * Today in the workspace's time zone (the session the guard has just loaded), as the pages
 * work it out with the person's Format: the loader's period is the page's, so one request.
 */
function todayOf(queryClient: QueryClient): string {
  const timeZone = queryClient.getQueryData(sessionQuery.queryKey)?.workspace?.timezone ?? 'UTC';
  return today(createFormat({ locale: 'en-GB', timeZone, durationStyle: 'clock' }));
}

export interface ReportsComposed {
  /** More pages under the reports' navigation (/reports/saved). */
  pages?: RouteObject[];
  /** The action each report page shows beside its heading. */
  saveAction?: SaveAction;
}

export const reportsRoutes = (queryClient: QueryClient, composed: ReportsComposed = {}): RouteObject[] => [
  {
    path: 'reports',
    lazy: () =>
      import('./ReportsLayout.tsx').then(({ ReportsLayout }) => ({
        Component: () => <ReportsLayout saveAction={composed.saveAction} />,
      })),
    children: [
      { index: true, loader: () => redirect('/reports/time') },
      {
        path: 'time',
        loader: when(queryClient, mayRunTimeReport, (s, day) => queryClient.prefetchQuery(timeQuery(periodOf(s, day), groupByOf(s)))),
        lazy: () => import('./TimeReportPage.tsx').then((m) => ({ Component: m.TimeReportPage })),
      },
      {
        path: 'team',
        // Beyond the API's span the page says so: a prefetch's 400 would be a second refusal.
        loader: when(queryClient, mayRunTeamReport, (s, day) => {
          const range = periodOf(s, day);
          return beyondReportSpan(range) ? Promise.resolve() : queryClient.prefetchQuery(teamQuery(range));
        }),
        lazy: () => import('./TeamReportPage.tsx').then((m) => ({ Component: m.TeamReportPage })),
      },
      {
        path: 'budget',
        loader: when(queryClient, mayRunBudgetReport, (s) => queryClient.prefetchQuery(budgetQuery(activeOf(s)))),
        lazy: () => import('./BudgetReportPage.tsx').then((m) => ({ Component: m.BudgetReportPage })),
      },
      {
        path: 'uninvoiced',
        loader: when(queryClient, mayRunUninvoicedReport, (s, day) => {
          const range = periodOf(s, day);
          return beyondReportSpan(range) ? Promise.resolve() : queryClient.prefetchQuery(uninvoicedQuery(range));
        }),
        lazy: () => import('./UninvoicedReportPage.tsx').then((m) => ({ Component: m.UninvoicedReportPage })),
      },
      {
        path: 'planned',
        loader: when(queryClient, mayRunPlannedReport, (s, day) => queryClient.prefetchQuery(plannedQuery(periodOf(s, day)))),
        lazy: () => import('./PlannedReportPage.tsx').then((m) => ({ Component: m.PlannedReportPage })),
      },
      ...(composed.pages ?? []),
    ],
  },
];
