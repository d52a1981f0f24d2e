import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { guardPage } from '../../api/access.ts';
import { serverNow } from '../../api/server-clock.ts';
import { sessionQuery } from '../../api/session.ts';
import { createFormat } from '../../ui/format.ts';
import { mayUsePlanner } from './access.ts';
import { scheduleQuery } from './api.ts';
import { onlyFiltersChanged } from './filter-params.ts';
import { scheduleParams } from './schedule.ts';

/**
 * /planning (?from=YYYY-MM-DD&weeks=n): owners, administrators and managers. The loader waits
 * for the session the shell's gate is loading anyway (the role decides; this week is the
 * workspace's), then fetches the schedule in parallel with the page's chunk: the page draws
 * once, with its data. Anyone else is told the page is not available to their role. A change of
 * the row filters only (?search=, ?project=, ?show=, ?over=) runs no loader: the page filters
 * the schedule it has, and a stale schedule is not fetched again for a keystroke.
 */
export function planningRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: 'planning',
      loader: async ({ request }: LoaderFunctionArgs) => {
        if (!(await guardPage(queryClient, mayUsePlanner))) return null;
        const workspace = queryClient.getQueryData(sessionQuery.queryKey)?.workspace;
        const today = createFormat({ locale: 'en-GB', timeZone: workspace?.timezone ?? 'UTC', durationStyle: 'clock' }).dayOf(serverNow());
        // A failure shows on the page, inside the shell. The weeks are the workspace's, as the page asks for them.
        await queryClient.prefetchQuery(scheduleQuery(scheduleParams(new URL(request.url).searchParams, today, workspace?.week_start)));
        return null;
      },
      shouldRevalidate: ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
        currentUrl.pathname === nextUrl.pathname && onlyFiltersChanged(currentUrl.searchParams, nextUrl.searchParams) ? false : defaultShouldRevalidate,
      lazy: () => import('./PlanningPage.tsx').then((m) => ({ Component: m.PlanningPage })),
    },
  ];
}
