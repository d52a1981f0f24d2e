import type { Principal } from '../../../auth/principal.ts';
import { approvalReach, type ApprovalReach } from '../../../access/approvals.ts';
import { isAdmin } from '../../../access/policy.ts';
import type { Tx } from '../../../db/tenant.ts';
import { ApiError } from '../../../errors.ts';
import { weekEndOf, weekStartOf } from '../week/index.ts';
import { reviewableDays, type StatusDay } from './web-queries.ts';

/**
 * The approver's queue, shared by the approvals page (/web/api/approvals/queue) and
 * the home page's "awaiting your approval": submitted (and approved since
 * `approvedSince`) days of the people the caller may review, each kept only when the
 * caller's reach covers it, by the one rule approve and reject apply
 * (src/access/approvals.ts). The caller must be allowed to review time at all.
 */
export async function daysInReach(trx: Tx, p: Principal, approvedSince: string): Promise<StatusDay[]> {
  const days = await reviewableDays(trx, p.companyId, approvedSince, isAdmin(p) ? null : p.userId);
  const reaches = new Map<string, ApprovalReach | null>();
  for (const userId of new Set(days.map((d) => d.user_id))) {
    try {
      reaches.set(userId, await approvalReach(trx, p, userId, undefined));
    } catch (err) {
      if (err instanceof ApiError && err.statusCode === 403) reaches.set(userId, null);
      else throw err;
    }
  }
  return days.filter((d) => {
    const reach = reaches.get(d.user_id);
    return reach && (reach.all || reach.projectIds.includes(d.project_id));
  });
}

/** Folds per-day counts into one row per person and week. */
export function byWeek(days: readonly { user_id: string; spent_date: string; item_count: number; seconds: number }[], weekStart: 'monday' | 'sunday' | 'saturday') {
  const rows = new Map<string, { user_id: string; week_start: string; week_end: string; item_count: number; seconds: number }>();
  for (const d of days) {
    const week = weekStartOf(d.spent_date, weekStart);
    const key = `${d.user_id}/${week}`;
    const row = rows.get(key) ?? { user_id: d.user_id, week_start: week, week_end: weekEndOf(week), item_count: 0, seconds: 0 };
    row.item_count += d.item_count;
    row.seconds += d.seconds;
    rows.set(key, row);
  }
  return [...rows.values()];
}
