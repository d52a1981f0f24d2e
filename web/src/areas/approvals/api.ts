import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { markStale } from '../../api/stale.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import type { paths } from '../../api/schema';

/**
 * The approvals area's data (WEB-STYLE 2): the caller's week and the approver's queue
 * (web-only reads), the review (preflight, entries, expenses) before Approve; submit, approve and reject through
 * /api/v2, withdraw through /web/api. Every change stales what api/stale.ts's `approval`
 * names (entries and expenses carry their approval state and lock).
 */

export type Queue = paths['/web/api/approvals/queue']['get']['responses'][200]['content']['application/json'];
export type QueueRow = Queue['submitted'][number];
export type Review = paths['/web/api/approvals/review']['get']['responses'][200]['content']['application/json'];
export type ReviewEntry = Review['time_entries'][number];
export type ReviewExpense = Review['expenses'][number];
export type ReviewProject = Review['projects'][number];
export type Withdrawal = paths['/web/api/approvals/withdraw']['post']['responses'][200]['content']['application/json'];
export type LockedWeek = Withdrawal['still_locked_weeks'][number];


export const queueQuery = queryOptions({
  queryKey: ['approvals', 'queue'],
  queryFn: () => call(api.GET('/web/api/approvals/queue')),
});

export interface Period {
  user_id: string;
  from: string;
  to: string;
  /** Approve or reject one project of the period only (the API's project_id). */
  project_id?: string;
}

/** A person's period as the approver reviews it: the preflight and every entry and expense, in one call. */
export const reviewQuery = (period: Period) =>
  queryOptions({
    queryKey: ['approvals', 'review', period],
    queryFn: () => call(api.GET('/web/api/approvals/review', { params: { query: period } })),
    // Reviewed as it is now: never from an older look.
    staleTime: 0,
  });

export function useSubmitWeek() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ from, to, fingerprint, key }: { from: string; to: string; fingerprint: string; key: string }) =>
      call(api.POST('/api/v2/approvals/submit', { body: { from, to, fingerprint }, headers: idempotencyHeader(key) })),
    onSettled: () => void markStale(queryClient, 'approval'),
  });
}

export function useApprove() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ period, fingerprint, codes, key }: { period: Period; fingerprint: string; codes: string[]; key: string }) =>
      call(
        api.POST('/api/v2/approvals/approve', {
          body: { ...period, preflight_fingerprint: fingerprint, acknowledged_warning_codes: codes },
          headers: idempotencyHeader(key),
        }),
      ),
    onSettled: () => void markStale(queryClient, 'approval'),
  });
}

export function useReject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ period, reason, key }: { period: Period; reason: string; key: string }) =>
      call(api.POST('/api/v2/approvals/reject', { body: { ...period, reason: reason.trim() || null }, headers: idempotencyHeader(key) })),
    onSettled: () => void markStale(queryClient, 'approval'),
  });
}

export function useWithdraw() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ period, reason }: { period: Period; reason: string }) =>
      call(api.POST('/web/api/approvals/withdraw', { body: { ...period, reason: reason.trim() || null } })),
    onSettled: () => void markStale(queryClient, 'approval'),
  });
}
