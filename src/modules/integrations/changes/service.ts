import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { withTenant } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { ApiError } from '../../../errors.ts';
import { changesAfter, feedHorizon, lastSettledChange } from './queries.ts';
import { START, decodeCursor, encodeCursor, parseTypes, type Cursor, type RecordType } from './rules.ts';

const DAY_MS = 86_400_000;

export interface ChangePage {
  changes: Array<{ type: RecordType; id: string; action: 'created' | 'updated' | 'deleted'; changed_at: string }>;
  next_cursor: string;
  has_more: boolean;
}

/**
 * One page of the change feed after `cursor` (from the oldest kept change without one).
 * next_cursor moves past every change read, and, once the reader is caught up, past the
 * changes it may not see, with the time of the read, so a quiet feed's cursor does not age
 * into the retention while it is polled.
 */
export function readChanges(
  db: Kysely<DB>,
  p: Principal,
  query: { cursor?: string; types?: string; per_page?: number },
  { now, retentionDays }: { now: Date; retentionDays: number },
): Promise<ChangePage> {
  const after: Cursor = query.cursor === undefined ? START(now.getTime()) : decodeCursor(query.cursor);
  const types = parseTypes(query.types);
  if (after.at < now.getTime() - retentionDays * DAY_MS) {
    throw new ApiError(
      'cursor_expired',
      `This cursor is older than the change feed keeps changes (${retentionDays} days): read the records again through their lists, then start the feed without a cursor.`,
      { field: 'cursor' },
    );
  }
  const limit = query.per_page ?? 1000;
  return withTenant(db, p.companyId, async (trx) => {
    const horizon = await feedHorizon(trx);
    const rows = await changesAfter(trx, p, after, horizon, types, limit + 1);
    const hasMore = rows.length > limit;
    const page = hasMore ? rows.slice(0, limit) : rows;
    let next: Cursor = after;
    const last = page.at(-1);
    if (last) next = { xid: last.xid, seq: last.seq, at: last.changed_at.getTime() };
    if (!hasMore) {
      // Caught up: skip the changes this reader does not see, and stamp the cursor with now.
      const settled = await lastSettledChange(trx, p.companyId, next, horizon);
      next = settled ? { xid: settled.xid, seq: settled.seq, at: now.getTime() } : { ...next, at: now.getTime() };
    }
    return {
      changes: page.map((r) => ({ type: r.record_type, id: r.record_id, action: r.action, changed_at: r.changed_at.toISOString() })),
      next_cursor: encodeCursor(next),
      has_more: hasMore,
    };
  });
}
