import type { Kysely } from 'kysely';
import type { Clock } from '../../../clock.ts';
import type { DB } from '../../../db/types.ts';
import { repeatEvery } from '../../../repeat.ts';
import { pruneChanges } from './queries.ts';

const HOUR_MS = 3_600_000;

/**
 * Deletes the change feed's changes older than the retention when the server starts and
 * hourly after, in every server process (what another process deleted already is simply
 * not there). A reader whose cursor stands before a deleted change gets 410 instead of a
 * feed with a hole.
 */
export function startChangePruning(deps: { db: Kysely<DB>; clock: Clock; retentionDays: number }, onError: (err: unknown) => void = () => {}) {
  const prune = () => pruneChanges(deps.db, new Date(deps.clock().getTime() - deps.retentionDays * 86_400_000));
  const first = prune().catch(onError);
  const stop = repeatEvery(HOUR_MS, prune, onError);
  return async () => {
    await first;
    await stop();
  };
}
