import type { Kysely } from 'kysely';
import { memberPrincipal } from '../../../auth/authenticate.ts';
import type { Clock } from '../../../clock.ts';
import { updateRow } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { DEFAULT_DATABASE_TIMEOUTS } from '../../../db/timeouts.ts';
import type { DB } from '../../../db/types.ts';
import { mailDate, translator } from '../../../i18n/index.ts';
import { newId } from '../../../ids.ts';
import { enqueueMail } from '../../../outbox/enqueue.ts';
import type { Renderer } from '../../../outbox/worker.ts';
import { repeatEvery } from '../../../repeat.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { audit } from '../../workspace/audit/index.ts';
import { plannedVsTrackedExport } from '../planned-vs-tracked/index.ts';
import { budgetExport, csvBytes, teamExport, timeExport, uninvoicedExport, type ReportContext } from '../reports/index.ts';
import type { Principal } from '../../../auth/principal.ts';
import { loadTimeSettings } from '../../tracking/week/index.ts';
import { dueSavedReports, findSavedReport, insertDelivery, languageOf, type DueSavedReport, type SavedReportRow } from './queries.ts';
import { nextSendDate, periodStartOf, rangeOf, type DateRange, type ReportKind } from './rules.ts';
import type { GroupBy } from '../reports/index.ts';
import { mayRunReport } from './service.ts';

/**
 * Saved reports' e-mails: a scheduled report goes to its owner as CSV once per week or
 * month. Every server process runs this on an interval (server.ts); any number may run
 * at once, because the database decides:
 *
 * - a scan lists reports whose next send date has come in their workspace's time zone;
 * - each is claimed in its own tenant transaction (`FOR UPDATE SKIP LOCKED`), re-checked,
 *   and in that transaction the delivery is recorded (unique per report and period
 *   start), the e-mail is enqueued in the outbox and next_send_date moves to the next
 *   period after today; a crash before the commit leaves none of it, after it all of it;
 * - after downtime, only the latest missed period is sent (one e-mail with its numbers,
 *   not a burst of stale ones); the period is resolved against that period's first day,
 *   so a "last month" report sent late still covers last month;
 * - an owner who is no longer an active member, or may no longer run the report, gets
 *   nothing: the delivery is recorded as skipped with the reason, and the schedule moves on.
 *
 * The CSV is rendered when the outbox worker sends the mail (the `saved-report-csv`
 * renderer below), with the owner's permissions read fresh at that moment, the same
 * numbers the report's download gives them.
 */

export const SAVED_REPORT_CSV_RENDERER = 'saved-report-csv';

export interface SavedReportSchedulerDeps {
  db: Kysely<DB>;
  clock: Clock;
  /** The address people reach this server at (links in the e-mail). */
  baseUrl: string;
  batchSize?: number;
  onError?: (err: unknown, report: { workspace_id: string; id: string }) => void;
}

export interface SavedReportRunSummary {
  sent: number;
  skipped: number;
}

/** The report pages' paths in the web app (web/src/areas/reports/routes.tsx). */
const PAGE: Record<ReportKind, string> = { time: 'time', team: 'team', project_budget: 'budget', uninvoiced: 'uninvoiced', planned_vs_tracked: 'planned' };

/** The report's page with the definition in its URL, as the web app opens it. */
export function reportLink(baseUrl: string, row: Pick<SavedReportRow, 'report' | 'group_by' | 'is_active'>, range: DateRange | null): string {
  const params = new URLSearchParams();
  if (range) {
    params.set('from', range.from);
    params.set('to', range.to);
  }
  if (row.group_by) params.set('group_by', row.group_by);
  if (row.report === 'project_budget') params.set('active', row.is_active === null ? 'all' : String(row.is_active));
  return `${baseUrl}/reports/${PAGE[row.report]}?${params}`;
}

type Outcome = 'sent' | 'skipped';

async function deliver(db: Kysely<DB>, c: DueSavedReport, deps: SavedReportSchedulerDeps, now: Date): Promise<Outcome | null> {
  return withTenant(db, c.company_id, async (trx) => {
    const row = await findSavedReport(trx, c.company_id, c.id, { lock: true, skipLocked: true });
    const calendar = await loadTimeSettings(trx, c.company_id);
    const today = todayIn(calendar.timezone, now);
    if (!row || row.schedule === 'none' || row.next_send_date === null || row.next_send_date > today) return null;
    const periodStart = periodStartOf(row.schedule, today, calendar.week_start);
    const range = rangeOf(row, periodStart, calendar.week_start);
    const principal = await memberPrincipal(trx, c.company_id, row.owner_id);
    const refusal = !principal ? 'The owner is no longer an active member.' : !mayRunReport(principal, row.report) ? "The owner's role may no longer run this report." : null;
    const deliveryId = newId(now.getTime());
    const made = await insertDelivery(trx, c.company_id, { id: deliveryId, reportId: row.id, periodStart, range, outcome: refusal ? 'skipped' : 'sent', note: refusal }, now);
    await updateRow(trx, 'saved_reports', c.company_id, row.id, { next_send_date: nextSendDate(row.schedule, today, calendar.week_start) }, now);
    // A period already delivered (the schedule was changed back and forth): nothing more to send.
    if (!made) return null;
    if (!refusal) await enqueueReportMail(trx, row, principal!, range, deps.baseUrl, now);
    await audit(trx, {
      companyId: c.company_id,
      actorUserId: null,
      credentialId: null,
      action: refusal ? 'saved_report.skipped' : 'saved_report.sent',
      subjectType: 'saved_report',
      subjectId: row.id,
      details: { name: row.name, delivery_id: deliveryId, period_start: periodStart, ...(range ?? {}), ...(refusal ? { reason: refusal } : {}) },
    });
    return refusal ? 'skipped' : 'sent';
  });
}

async function enqueueReportMail(
  trx: Tx,
  row: SavedReportRow,
  owner: Principal,
  range: DateRange | null,
  baseUrl: string,
  now: Date,
) {
  const language = await languageOf(trx, owner.userId);
  const t = translator(language);
  const dates = range ? { from: mailDate(range.from, language), to: mailDate(range.to, language) } : null;
  const report = t(`savedReportMail.reports.${row.report}`);
  const file = `${row.name.replace(/[^\p{L}\p{N} _.-]+/gu, '').trim() || 'report'}${range ? ` ${range.from} ${range.to}` : ''}.csv`;
  const params: Record<string, string> = { owner_id: row.owner_id, report: row.report };
  if (range) Object.assign(params, range);
  if (row.group_by) params.group_by = row.group_by;
  if (row.is_active !== null) params.is_active = String(row.is_active);
  await enqueueMail(
    trx,
    row.company_id,
    'saved_report',
    {
      to: [{ email: owner.email, name: `${owner.firstName} ${owner.lastName}`.trim() }],
      subject: dates ? t('savedReportMail.subjectPeriod', { name: row.name, ...dates }) : t('savedReportMail.subject', { name: row.name }),
      text: [
        dates ? t('savedReportMail.bodyPeriod', { report, ...dates }) : t('savedReportMail.body', { report }),
        t('savedReportMail.open', { link: reportLink(baseUrl, row, range) }),
        t('savedReportMail.why', { name: row.name, schedule: t(`savedReportMail.schedules.${row.schedule}`) }),
      ].join('\n\n'),
      attachments: [{ filename: file, content_type: 'text/csv; charset=utf-8', render: SAVED_REPORT_CSV_RENDERER, params }],
    },
    now,
  );
}

/** The download of each report kind, from the e-mail's parameters. */
function exportOf(ctx: ReportContext, p: Principal, report: ReportKind, params: Record<string, string>, period: DateRange) {
  switch (report) {
    case 'time':
      return timeExport(ctx, p, { format: 'csv', ...period, group_by: params.group_by as GroupBy | undefined });
    case 'team':
      return teamExport(ctx, p, { format: 'csv', ...period });
    case 'uninvoiced':
      return uninvoicedExport(ctx, p, { format: 'csv', ...period });
    case 'planned_vs_tracked':
      return plannedVsTrackedExport(ctx, p, { format: 'csv', ...period });
    case 'project_budget':
      return budgetExport(ctx, p, { format: 'csv', is_active: params.is_active as 'true' | 'false' | undefined });
  }
}

/** The CSV of a saved report's e-mail, as its owner's download would give it when the mail is sent. */
const savedReportCsv: Renderer = async (db, companyId, params) => {
  const p = await memberPrincipal(db, companyId, params.owner_id);
  if (!p) throw new Error('the saved report\u2019s owner is no longer an active member');
  const ctx: ReportContext = { db, timeouts: DEFAULT_DATABASE_TIMEOUTS, now: () => new Date() };
  const period = { from: params.from, to: params.to };
  const report = params.report as ReportKind;
  const file = await exportOf(ctx, p, report, params, period);
  return csvBytes(file);
};

export const savedReportRenderers: Record<string, Renderer> = { [SAVED_REPORT_CSV_RENDERER]: savedReportCsv };

/** Sends every due saved report once (one run of the scheduler); `workspaceId` limits it to one workspace (the command line's option). */
export async function runDueSavedReports(deps: SavedReportSchedulerDeps, { workspaceId }: { workspaceId?: string } = {}): Promise<SavedReportRunSummary> {
  const now = deps.clock();
  const summary: SavedReportRunSummary = { sent: 0, skipped: 0 };
  const size = deps.batchSize ?? 200;
  let after: DueSavedReport | null = null;
  for (;;) {
    const batch: DueSavedReport[] = await dueSavedReports(deps.db, now, size, after, workspaceId);
    for (const c of batch) {
      try {
        const outcome = await deliver(deps.db, c, deps, now);
        if (outcome) summary[outcome] += 1;
      } catch (err) {
        if (!deps.onError) throw err;
        deps.onError(err, { workspace_id: c.company_id, id: c.id });
      }
    }
    if (batch.length < size) return summary;
    after = batch[batch.length - 1];
  }
}

/** Runs the scheduler every `intervalMs` until stopped. */
export function startSavedReportScheduler(deps: SavedReportSchedulerDeps, intervalMs = 60_000, onError: (err: unknown) => void = () => {}) {
  return repeatEvery(intervalMs, () => runDueSavedReports(deps), onError);
}
