import type { QueryClient } from '@tanstack/react-query';
import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { guardMemberPage } from '../../api/access.ts';
import { sheetQuery } from './api.ts';

/**
 * /time/week?start=YYYY-MM-DD, /time/calendar?start=YYYY-MM-DD and /time/day?date=YYYY-MM-DD (&user=<id>: another person's): one lazy chunk, the week's
 * data fetched by the loader in parallel with the chunk and the session (no waterfall).
 */
const loadSheet = (queryClient: QueryClient, param: 'start' | 'date') => ({ request }: LoaderFunctionArgs) => {
  const search = new URL(request.url).searchParams;
  // Shown from the cache when known; a failure shows on the page, with the shell around it.
  return guardMemberPage(queryClient, () => queryClient.prefetchQuery(sheetQuery(search.get(param) ?? undefined, search.get('user') ?? undefined)));
};

export const timeRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    path: 'time',
    children: [
      { index: true, loader: () => redirect('/time/week') },
      { path: 'week', loader: loadSheet(queryClient, 'start'), lazy: () => import('./WeekPage.tsx').then((m) => ({ Component: m.WeekPage })) },
      { path: 'calendar', loader: loadSheet(queryClient, 'start'), lazy: () => import('./CalendarPage.tsx').then((m) => ({ Component: m.CalendarPage })) },
      { path: 'day', loader: loadSheet(queryClient, 'date'), lazy: () => import('./DayPage.tsx').then((m) => ({ Component: m.DayPage })) },
    ],
  },
];
