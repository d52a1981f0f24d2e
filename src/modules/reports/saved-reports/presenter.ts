import type { Principal } from '../../../auth/principal.ts';
import type { WeekStart } from '../../../db/types.ts';
import { isAdmin } from '../../../access/policy.ts';
import type { SavedReportRow } from './queries.ts';
import { rangeOf } from './rules.ts';
import type { PresentedSavedReport } from './schemas.ts';

/** Who may delete a saved report: its owner, and owners and administrators a shared one (a workspace's shared list is theirs to tidy). */
export const mayDelete = (p: Principal, row: Pick<SavedReportRow, 'owner_id' | 'visibility'>) =>
  row.owner_id === p.userId || (row.visibility === 'workspace' && isAdmin(p));

/** A saved report as the caller sees it, its period resolved on `today` in the workspace's weeks (this week, last week). */
export function presentSavedReport(p: Principal, row: SavedReportRow, today: string, weekStart: WeekStart): PresentedSavedReport {
  return {
    id: row.id,
    name: row.name,
    report: row.report,
    period: row.period,
    from: row.from_date,
    to: row.to_date,
    group_by: row.group_by,
    is_active: row.is_active,
    visibility: row.visibility,
    schedule: row.schedule,
    next_send_date: row.next_send_date,
    owner: { id: row.owner_id, name: `${row.owner_first_name} ${row.owner_last_name}`.trim() },
    is_own: row.owner_id === p.userId,
    may_delete: mayDelete(p, row),
    range: rangeOf(row, today, weekStart),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
