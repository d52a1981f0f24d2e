import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { withTenant } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { ApiError } from '../../../errors.ts';
import { changesAfter, feedHorizon, lastSettledChange, prunedThrough } from './queries.ts';
import { START, before, decodeCursor, encodeCursor, parseTypes, type Action, type Cursor, type RecordType } from './rules.ts';

export interface ChangePage {
  changes: Array<{ type: RecordType; id: string; action: Action; changed_at: string }>;
  next_cursor: string;
  has_more: boolean;
}

/**
 * One page of the change feed after `cursor`; without one, after the last change the
 * retention deleted (the start of what is kept). A cursor below that point may have lost
 * changes after it: 410, never a feed with a hole. next_cursor moves past every change read
 * and, once the reader is caught up, past the changes it may not see.
 */
export function readChanges(
  db: Kysely<DB>,
  p: Principal,
  query: { cursor?: string; types?: string; per_page?: number },
  { retentionDays }: { retentionDays: number },
): Promise<ChangePage> {
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const types = parseTypes(query.types);
  const limit = query.per_page ?? 1000;
  return withTenant(db, p.companyId, async (trx) => {
    const pruned = await prunedThrough(trx, p.companyId);
    if (cursor && pruned && before(cursor, pruned)) {
      throw new ApiError(
        'cursor_expired',
        `Changes after this cursor were deleted (the feed keeps them ${retentionDays} days): read the records again through their lists, then start the feed without a cursor.`,
        { field: 'cursor' },
      );
    }
    const after: Cursor = cursor ?? pruned ?? START;
    const horizon = await feedHorizon(trx);
    const rows = await changesAfter(trx, p, after, horizon, types, limit + 1);
    const hasMore = rows.length > limit;
    const page = hasMore ? rows.slice(0, limit) : rows;
    const last = page.at(-1);
    let next: Cursor = last ? { xid: last.xid, seq: last.seq } : after;
    // Caught up: past the changes this reader does not see, so the next read does not scan them again.
    if (!hasMore) next = (await lastSettledChange(trx, p.companyId, next, horizon)) ?? next;
    return {
      changes: page.map((r) => ({ type: r.record_type, id: r.record_id, action: r.action, changed_at: r.changed_at.toISOString() })),
      next_cursor: encodeCursor(next),
      has_more: hasMore,
    };
  });
}
