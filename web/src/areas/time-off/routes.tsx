import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { guardPage, isAdministrator, usesWorkspace } from '../../api/access.ts';
import { serverNow } from '../../api/server-clock.ts';
import { sessionQuery } from '../../api/session.ts';
import { monthRange, yearRange } from '../../ui/dates.ts';
import { createFormat } from '../../ui/format.ts';
import { breakRulesQuery, capacityQuery, timeOffQuery } from './api.ts';
import { yearOf } from './rules.ts';

/**
 * /time-off (every internal member) and /settings/holidays (owners and administrators):
 * each loader waits for the session the shell's gate is loading anyway (the list names the
 * person, and today is the workspace's), then starts the page's data beside its chunk.
 */
function sessionFacts(queryClient: QueryClient, request: Request) {
  const session = queryClient.getQueryData(sessionQuery.queryKey);
  const timeZone = session?.workspace?.timezone ?? 'UTC';
  const today = createFormat({ locale: 'en-GB', timeZone, durationStyle: 'clock' }).dayOf(serverNow());
  return { user: session?.user.id, today, year: yearOf(new URL(request.url).searchParams, today) };
}

export function timeOffRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'time-off',
      loader: async ({ request }: LoaderFunctionArgs) => {
        if (!(await guardPage(queryClient, usesWorkspace))) return null;
        const { user, today, year } = sessionFacts(queryClient, request);
        if (user) void queryClient.prefetchQuery(timeOffQuery(yearRange(year), user));
        void queryClient.prefetchQuery(capacityQuery(monthRange(Number(today.slice(0, 4)), Number(today.slice(5, 7)))));
        return null;
      },
      lazy: () => import('./TimeOffPage.tsx').then((m) => ({ Component: m.TimeOffPage })),
    },
  ];
}

/** Under Settings (the app puts it in the settings layout). */
export function holidaysRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'settings/holidays',
      loader: async ({ request }: LoaderFunctionArgs) => {
        if (!(await guardPage(queryClient, isAdministrator))) return null;
        const { user, year } = sessionFacts(queryClient, request);
        if (user) void queryClient.prefetchQuery(timeOffQuery(yearRange(year), user));
        void queryClient.prefetchQuery(breakRulesQuery);
        return null;
      },
      lazy: () => import('./HolidaysPage.tsx').then((m) => ({ Component: m.HolidaysPage })),
    },
  ];
}
