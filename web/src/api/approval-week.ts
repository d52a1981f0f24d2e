import { queryOptions } from '@tanstack/react-query';
import { api } from './client.ts';
import { call } from './call.ts';
import type { paths } from './schema';

/**
 * The caller's approval week holding `date` (default today): its time by approval state, its
 * fingerprint and its last rejection. One query for the approvals page and the timesheet's
 * "returned for correction" banner, so the page's Submit refreshes both.
 */
export type MyWeek = paths['/web/api/approvals/week']['get']['responses'][200]['content']['application/json'];

export const myWeekQuery = (date?: string) =>
  queryOptions({
    queryKey: ['approvals', 'week', { date: date ?? 'today' }],
    queryFn: () => call(api.GET('/web/api/approvals/week', { params: { query: date ? { date } : {} } })),
  });
