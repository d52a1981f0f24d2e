import type { Kysely } from 'kysely';
import type { Clock } from '../../../clock.ts';
import type { DB } from '../../../db/types.ts';
import { repeatEvery } from '../../../repeat.ts';
import { pruneChanges } from './queries.ts';

const HOUR_MS = 3_600_000;

/**
 * Deletes the change feed's changes older than the retention, hourly, in every server
 * process (a delete of what another process deleted already deletes nothing). A reader
 * whose cursor is older than the retention gets 410 instead of a feed with a hole.
 */
export function startChangePruning(deps: { db: Kysely<DB>; clock: Clock; retentionDays: number }, onError: (err: unknown) => void = () => {}) {
  return repeatEvery(HOUR_MS, () => pruneChanges(deps.db, new Date(deps.clock().getTime() - deps.retentionDays * 86_400_000)), onError);
}
