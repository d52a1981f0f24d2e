import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, SavedReports } from '../../../db/types.ts';
import type { Tx } from '../../../db/tenant.ts';

/** A saved report with its owner's name. */
export type SavedReportRow = Selectable<SavedReports> & { owner_first_name: string; owner_last_name: string };

function savedReportSelect(trx: Tx, companyId: string) {
  return trx
    .selectFrom('saved_reports as r')
    .innerJoin('users as u', 'u.id', 'r.owner_id')
    .selectAll('r')
    .select(['u.first_name as owner_first_name', 'u.last_name as owner_last_name'])
    .where('r.company_id', '=', companyId);
}

/** The caller's own reports and the workspace's shared ones, by name (the caller filters by report kind). */
export function visibleSavedReports(trx: Tx, companyId: string, userId: string): Promise<SavedReportRow[]> {
  return savedReportSelect(trx, companyId)
    .where((eb) => eb.or([eb('r.owner_id', '=', userId), eb('r.visibility', '=', 'workspace')]))
    .orderBy(sql`lower(r.name)`)
    .orderBy('r.id')
    .execute();
}

/** One saved report by id, whoever owns it (the service decides who sees it); `lock` takes its row lock. */
export function findSavedReport(trx: Tx, companyId: string, id: string, { lock = false, skipLocked = false } = {}): Promise<SavedReportRow | undefined> {
  let query = savedReportSelect(trx, companyId).where('r.id', '=', id);
  if (lock) query = query.forUpdate('r');
  if (skipLocked) query = query.skipLocked();
  return query.executeTakeFirst();
}

export interface DueSavedReport {
  company_id: string;
  id: string;
  timezone: string;
}

/** Scheduled reports whose next send date has come in their workspace's time zone, across workspaces (candidates only: each is claimed in its own transaction). */
export function dueSavedReports(db: Kysely<DB>, now: Date, limit: number, after: DueSavedReport | null, workspaceId?: string): Promise<DueSavedReport[]> {
  return db
    .selectFrom('saved_reports as r')
    .innerJoin('companies as w', 'w.id', 'r.company_id')
    .select(['r.company_id', 'r.id', 'w.timezone'])
    .where('r.next_send_date', 'is not', null)
    .where(sql<boolean>`r.next_send_date <= (${now}::timestamptz at time zone w.timezone)::date`)
    .$if(after !== null, (q) => q.where(sql<boolean>`(r.company_id, r.id) > (${after!.company_id}::uuid, ${after!.id}::uuid)`))
    .$if(workspaceId !== undefined, (q) => q.where('r.company_id', '=', workspaceId!))
    .orderBy('r.company_id')
    .orderBy('r.id')
    .limit(limit)
    .execute();
}

/** Records the e-mail of one period; false when that period's exists already (the unique key). */
export async function insertDelivery(
  trx: Tx,
  companyId: string,
  d: { id: string; reportId: string; periodStart: string; range: { from: string; to: string } | null; outcome: 'sent' | 'skipped'; note: string | null },
  now: Date,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('saved_report_deliveries')
    .values({
      company_id: companyId,
      id: d.id,
      saved_report_id: d.reportId,
      period_start: d.periodStart,
      range_from: d.range?.from ?? null,
      range_to: d.range?.to ?? null,
      outcome: d.outcome,
      note: d.note,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['company_id', 'saved_report_id', 'period_start']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The language a person reads e-mails in (their display preference). */
export async function languageOf(trx: Tx, userId: string): Promise<string | undefined> {
  return (await trx.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst())?.language;
}
