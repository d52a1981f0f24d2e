import type { QueryClient } from '@tanstack/react-query';
import { lazy } from 'react';
import type { RouteObject } from 'react-router';
import { guardMemberPage } from '../../api/access.ts';
import { savedReportsQuery } from './api.ts';

/**
 * /reports/saved (a page under the reports' navigation; the app puts it there): the list
 * starts loading beside the session and the page's chunk. Every internal member saves
 * reports (the time report is everyone's); the server lists only what the caller may run.
 */
export const savedReportsRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    path: 'saved',
    loader: () => guardMemberPage(queryClient, () => queryClient.prefetchQuery(savedReportsQuery)),
    lazy: () => import('./SavedReportsPage.tsx').then((m) => ({ Component: m.SavedReportsPage })),
  },
];

/** "Save report", for the report pages: in this area's chunk, loaded when a report page first shows it. */
export const SaveReportAction = lazy(() => import('./SaveReport.tsx').then((m) => ({ default: m.SaveReport })));
