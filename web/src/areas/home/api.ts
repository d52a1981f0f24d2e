import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { markStale } from '../../api/stale.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import type { paths } from '../../api/schema';

/**
 * The home page's data (WEB-STYLE 2): its one read (/web/api/home), the running timer
 * (the same key and request as the shell's timer bar, which the session gate already
 * asked for: one request for both), and Continue, which starts a timer like a recent
 * entry. A page of three calls: session, timer, home.
 */

export type Home = paths['/web/api/home']['get']['responses'][200]['content']['application/json'];
export type RecentWork = Home['recent'][number];
type Timer = paths['/web/api/timer']['get']['responses'][200]['content']['application/json'];
export type RunningEntry = NonNullable<Timer['running']>;

export const homeQuery = queryOptions({
  queryKey: ['home'],
  queryFn: () => call(api.GET('/web/api/home')),
});

/**
 * Read here, kept fresh by the timer bar (which looks again on focus and every minute)
 * and by Continue: this page's own observer never asks again on mounting.
 */
export const runningQuery = queryOptions({
  queryKey: ['time_entries', 'running'],
  queryFn: () => call(api.GET('/web/api/timer')),
  staleTime: 30_000,
});

export interface ContinueWork {
  work: RecentWork;
  /** Made when Continue was pressed; the same body sent again reuses it. */
  key: string;
  /** Stop the running timer first (after a running_timer_conflict). */
  replace?: boolean;
}

/** Starts a timer on a recent entry's project, task and notes (POST /api/v2/time_entries, is_running). */
export function useContinueWork() {
  const queryClient = useQueryClient();
  return useMutation({
    // The timer bar's Start and Stop share this scope: one timer change at a time.
    scope: { id: 'timer' },
    mutationFn: ({ work, key, replace }: ContinueWork) =>
      call(
        api.POST('/api/v2/time_entries', {
          body: { project_id: work.project_id, task_id: work.task_id, notes: work.notes, is_running: true, replace_running: replace || undefined },
          headers: idempotencyHeader(key),
        }),
      ),
    // The timer bar, every view of entries and the week's hours, here and in other tabs.
    onSettled: () => void markStale(queryClient, 'timer'),
  });
}
