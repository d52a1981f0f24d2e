import type { Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';
import type { Tx } from '../../../db/tenant.ts';

/** Every query takes the workspace id first (but openFeed, which finds the workspace by the token). */

export async function insertFeed(trx: Tx, companyId: string, feed: { id: string; userId: string; tokenHash: Buffer; now: Date }) {
  await trx
    .insertInto('calendar_feeds')
    .values({ company_id: companyId, id: feed.id, user_id: feed.userId, token_hash: feed.tokenHash, created_at: feed.now })
    .execute();
}

/** Ends the person's working feed; returns whether there was one. */
export async function revokeFeeds(trx: Tx, companyId: string, userId: string, now: Date): Promise<boolean> {
  const result = await trx
    .updateTable('calendar_feeds')
    .set({ revoked_at: now })
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The person's working feed (never its token: none is stored), or undefined. */
export function workingFeed(trx: Tx, companyId: string, userId: string) {
  return trx
    .selectFrom('calendar_feeds')
    .select(['id', 'created_at', 'last_fetched_at'])
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/**
 * The working feed with this token hash of a person still active in the workspace, read
 * as the service (the workspace is not known before), noted as fetched in the same statement.
 */
export function openFeed(db: Kysely<DB>, tokenHash: Buffer, now: Date) {
  return db
    .updateTable('calendar_feeds as f')
    .set({ last_fetched_at: now })
    .from('memberships as m')
    .whereRef('m.company_id', '=', 'f.company_id')
    .whereRef('m.user_id', '=', 'f.user_id')
    .where('m.is_active', '=', true)
    .where('f.token_hash', '=', tokenHash)
    .where('f.revoked_at', 'is', null)
    .returning(['f.company_id', 'f.user_id'])
    .executeTakeFirst();
}

/** The person's own time entries in the period, with what a calendar shows of them (never a rate). */
export function personEntries(trx: Tx, companyId: string, userId: string, range: { from: string; to: string }) {
  return trx
    .selectFrom('time_entries as te')
    .innerJoin('projects as p', (j) => j.onRef('p.company_id', '=', 'te.company_id').onRef('p.id', '=', 'te.project_id'))
    .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 'p.company_id').onRef('c.id', '=', 'p.client_id'))
    .innerJoin('tasks as t', (j) => j.onRef('t.company_id', '=', 'te.company_id').onRef('t.id', '=', 'te.task_id'))
    .select([
      'te.id',
      'te.spent_date',
      'te.duration_seconds',
      'te.hours_entered',
      'te.timer_started_at',
      'te.started_time',
      'te.ended_time',
      'te.notes',
      'te.updated_at',
      'p.name as project_name',
      'c.name as client_name',
      't.name as task_name',
    ])
    .where('te.company_id', '=', companyId)
    .where('te.user_id', '=', userId)
    .where('te.spent_date', '>=', range.from)
    .where('te.spent_date', '<=', range.to)
    .orderBy('te.spent_date')
    .orderBy('te.id')
    .execute();
}
export type FeedEntry = Awaited<ReturnType<typeof personEntries>>[number];

/** The workspace's name and time zone, and the person's name: the calendar's title. */
export function feedHeading(trx: Tx, companyId: string, userId: string) {
  return trx
    .selectFrom('companies as co')
    .innerJoin('users as u', (j) => j.on('u.id', '=', userId))
    .select(['co.name as workspace_name', 'co.timezone', 'u.first_name', 'u.last_name'])
    .where('co.id', '=', companyId)
    .executeTakeFirstOrThrow();
}
