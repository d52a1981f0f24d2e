import type { Kysely } from 'kysely';
import { mayRunBudgetReport, mayRunPlannedReport, mayRunTeamReport, mayRunUninvoicedReport } from '../../../access/reports.ts';
import { auditActor } from '../../../access/operator.ts';
import type { Principal } from '../../../auth/principal.ts';
import { insertRow, updateRow } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { badRequest, forbidden, notFound } from '../../../errors.ts';
import { isId, newId } from '../../../ids.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { audit } from '../../workspace/audit/index.ts';
import { checkRange, MAX_REPORT_SPAN_DAYS } from '../reports/index.ts';
import { mayDelete, presentSavedReport } from './presenter.ts';
import { loadTimeSettings } from '../../tracking/week/index.ts';
import { findSavedReport, visibleSavedReports, type SavedReportRow } from './queries.ts';
import { hasPeriod, nextSendDate, spanLimited, type Period, type ReportKind, type Schedule } from './rules.ts';
import type { PresentedSavedReport, SavedReportCreateInput, SavedReportPatchInput } from './schemas.ts';

/**
 * Saved reports (issue 26 item 3): a report's definition, kept private or shared
 * with the workspace. Opening one runs the report afresh with the opener's own
 * permissions (the report routes' checks), so sharing a definition never shares
 * numbers the opener could not see. Only the owner changes one; the owner, and
 * owners and administrators for shared ones, delete it.
 */

/**
 * Who may run each report: the report routes' own checks (access/reports.ts); the time report is
 * everyone's. Client memberships use no report route at all, so they run none (a member made a
 * client later gets no more scheduled e-mails).
 */
const MAY_RUN: Record<ReportKind, (p: Principal) => boolean> = {
  time: () => true,
  team: mayRunTeamReport,
  project_budget: mayRunBudgetReport,
  uninvoiced: mayRunUninvoicedReport,
  planned_vs_tracked: mayRunPlannedReport,
};
export const mayRunReport = (p: Principal, report: ReportKind) => p.role !== 'client' && MAY_RUN[report](p);

/** A definition as stored: every column a report's kind decides. */
interface Definition {
  report: ReportKind;
  period: Period | null;
  from_date: string | null;
  to_date: string | null;
  group_by: SavedReportRow['group_by'];
  is_active: boolean | null;
}

/** What each kind takes when nothing is said: the report pages' own defaults. */
function defaultsOf(report: ReportKind): Omit<Definition, 'report'> {
  return {
    period: hasPeriod(report) ? 'this_month' : null,
    from_date: null,
    to_date: null,
    group_by: report === 'time' ? 'project' : null,
    is_active: report === 'project_budget' ? true : null,
  };
}

/**
 * The definition `input` makes of `current` (a create starts from the kind's defaults): a
 * property the kind does not take is a 400 naming it; one not sent keeps its value, or
 * its default when the kind changed; custom dates go with the custom period only.
 */
function definitionOf(current: Definition | null, input: SavedReportPatchInput): Definition {
  const report = input.report ?? current!.report;
  const base = current && current.report === report ? current : { report, ...defaultsOf(report) };
  const refuse = (field: string, message: string) => {
    throw badRequest(message, { field });
  };
  if (!hasPeriod(report) && input.period != null) refuse('period', 'The project budget report has no period: leave period out or null.');
  if (hasPeriod(report) && input.period === null) refuse('period', `The ${report} report needs a period.`);
  if (report !== 'time' && input.group_by != null) refuse('group_by', 'Only the time report is grouped.');
  if (report !== 'project_budget' && input.is_active != null) refuse('is_active', 'Only the project budget report filters by active projects.');
  const period = input.period !== undefined ? input.period : base.period;
  const custom = period === 'custom';
  const datesSent = input.from !== undefined || input.to !== undefined;
  if (!custom && datesSent && (input.from != null || input.to != null)) refuse(input.from != null ? 'from' : 'to', 'from and to go with period custom.');
  const from_date = custom ? (input.from !== undefined ? input.from : base.from_date) : null;
  const to_date = custom ? (input.to !== undefined ? input.to : base.to_date) : null;
  if (custom && from_date == null) refuse('from', 'A custom period needs from and to.');
  if (custom && to_date == null) refuse('to', 'A custom period needs from and to.');
  if (custom) checkRange(from_date!, to_date!, spanLimited(report) ? MAX_REPORT_SPAN_DAYS : undefined);
  return {
    report,
    period,
    from_date,
    to_date,
    group_by: report === 'time' ? (input.group_by ?? base.group_by ?? 'project') : null,
    is_active: report === 'project_budget' ? (input.is_active !== undefined ? input.is_active : base.is_active) : null,
  };
}

/** The name as stored: trimmed, and not blank (400 naming it). */
function nameOf(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest('name must not be blank.', { field: 'name' });
  return trimmed;
}

function assertMayRun(p: Principal, report: ReportKind) {
  if (!mayRunReport(p, report)) throw forbidden('Your role may not run this report, so it cannot save it.');
}

/** Whether the caller sees the saved report: their own, or a shared one of a report they may run. */
const sees = (p: Principal, row: SavedReportRow) => row.owner_id === p.userId || (row.visibility === 'workspace' && mayRunReport(p, row.report));

async function todayOf(trx: Tx, companyId: string, now: Date) {
  const calendar = await loadTimeSettings(trx, companyId);
  return { today: todayIn(calendar.timezone, now), weekStart: calendar.week_start };
}

/** The next send date a schedule gets when it is set (or changed) today. */
const sendDateFor = (schedule: Schedule, today: string, weekStart: Parameters<typeof nextSendDate>[2]) =>
  schedule === 'none' ? null : nextSendDate(schedule, today, weekStart);

async function visibleOrThrow(trx: Tx, p: Principal, id: string, lock = false) {
  const row = isId(id) ? await findSavedReport(trx, p.companyId, id, { lock }) : undefined;
  if (!row || !sees(p, row)) throw notFound('saved report');
  return row;
}

export function listSavedReports(db: Kysely<DB>, p: Principal, now: Date): Promise<PresentedSavedReport[]> {
  return withTenant(db, p.companyId, async (trx) => {
    const { today, weekStart } = await todayOf(trx, p.companyId, now);
    const rows = await visibleSavedReports(trx, p.companyId, p.userId);
    return rows.filter((row) => sees(p, row)).map((row) => presentSavedReport(p, row, today, weekStart));
  });
}

export function getSavedReport(db: Kysely<DB>, p: Principal, id: string, now: Date): Promise<PresentedSavedReport> {
  return withTenant(db, p.companyId, async (trx) => {
    const { today, weekStart } = await todayOf(trx, p.companyId, now);
    return presentSavedReport(p, await visibleOrThrow(trx, p, id), today, weekStart);
  });
}

export function createSavedReport(db: Kysely<DB>, p: Principal, input: SavedReportCreateInput, now: Date): Promise<PresentedSavedReport> {
  return withTenant(db, p.companyId, async (trx) => {
    const def = definitionOf(null, input);
    assertMayRun(p, def.report);
    const { today, weekStart } = await todayOf(trx, p.companyId, now);
    const schedule = input.schedule ?? 'none';
    const id = newId(now.getTime());
    await insertRow(
      trx,
      'saved_reports',
      p.companyId,
      id,
      { owner_id: p.userId, name: nameOf(input.name), ...def, visibility: input.visibility ?? 'private', schedule, next_send_date: sendDateFor(schedule, today, weekStart) },
      now,
    );
    const row = (await findSavedReport(trx, p.companyId, id))!;
    await audit(trx, { ...auditActor(p), action: 'saved_report.created', subjectType: 'saved_report', subjectId: id, details: { name: row.name, report: row.report, visibility: row.visibility, schedule } });
    return presentSavedReport(p, row, today, weekStart);
  });
}

export function updateSavedReport(db: Kysely<DB>, p: Principal, id: string, input: SavedReportPatchInput, now: Date): Promise<PresentedSavedReport> {
  return withTenant(db, p.companyId, async (trx) => {
    const row = await visibleOrThrow(trx, p, id, true);
    if (row.owner_id !== p.userId) throw forbidden('Only its owner may change a saved report.');
    const def = definitionOf(row, input);
    assertMayRun(p, def.report);
    const { today, weekStart } = await todayOf(trx, p.companyId, now);
    const schedule = input.schedule ?? row.schedule;
    // A schedule keeps its next date unless it changes; a changed one starts with the next period.
    const next_send_date = schedule === row.schedule ? row.next_send_date : sendDateFor(schedule, today, weekStart);
    const name = input.name === undefined ? row.name : nameOf(input.name);
    await updateRow(trx, 'saved_reports', p.companyId, id, { name, ...def, visibility: input.visibility ?? row.visibility, schedule, next_send_date }, now);
    await audit(trx, { ...auditActor(p), action: 'saved_report.updated', subjectType: 'saved_report', subjectId: id, details: { name, changes: Object.keys(input) } });
    return presentSavedReport(p, (await findSavedReport(trx, p.companyId, id))!, today, weekStart);
  });
}

export function deleteSavedReport(db: Kysely<DB>, p: Principal, id: string): Promise<void> {
  return withTenant(db, p.companyId, async (trx) => {
    const row = await visibleOrThrow(trx, p, id, true);
    if (!mayDelete(p, row)) throw forbidden('Only its owner, or an owner or administrator for a shared report, may delete a saved report.');
    await trx.deleteFrom('saved_reports').where('company_id', '=', p.companyId).where('id', '=', id).execute();
    await audit(trx, { ...auditActor(p), action: 'saved_report.deleted', subjectType: 'saved_report', subjectId: id, details: { name: row.name, report: row.report, owner_id: row.owner_id } });
  });
}
