import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { operatorPrincipal } from '../../../access/operator.ts';
import type { Clock } from '../../../clock.ts';
import type { DB } from '../../../db/types.ts';
import { updateRow } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { ApiError } from '../../../errors.ts';
import { newId } from '../../../ids.ts';
import { repeatEvery } from '../../../repeat.ts';
import { pauseAt } from '../../../test-pause.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { audit, type AuditAction } from '../../workspace/audit/index.ts';
import { createInvoiceIn, sendInvoiceMessageIn } from '../invoices/index.ts';
import { dueCandidates, findCreator, findSchedule, insertOccurrence, type DueCandidate, type ScheduleRow } from './queries.ts';
import { nextOccurrence, periodOf } from './rules.ts';
import { calendarOf, invoiceBody, stateOf } from './service.ts';

/**
 * The recurring-invoice scheduler. Every server process runs it on an interval
 * (server.ts), and `sheaf admin recurring run-due` runs it once; any number of
 * them may run at once, because the database decides who makes an occurrence:
 *
 * - a scan lists the running schedules whose next date has come (in their
 *   workspace's time zone), across workspaces, as candidates only;
 * - each occurrence is made in its own tenant transaction that first claims the
 *   schedule (`FOR UPDATE SKIP LOCKED`: a schedule another process is working
 *   on is skipped, not waited for), re-checks that it is still due, creates the
 *   invoice through the invoices area (its rules, numbering and import), sends
 *   it through the invoice messages outbox when the schedule says so, records
 *   the occurrence (unique per schedule and date) and advances next_run_date.
 *   A crash at any point before the commit leaves none of it; after the commit,
 *   all of it, and the schedule is no longer due for that date;
 * - catch-up: a schedule stays due while its next date is on or before today, so
 *   after downtime every missed occurrence is made, once each, oldest first,
 *   each dated (issue date and period) for its own occurrence. A missed
 *   occurrence of a "send" schedule is only drafted (its note says so): a client
 *   should not get a burst of invoices dated weeks ago without someone looking;
 * - an occurrence the invoice rules refuse (nothing to invoice in the period, an
 *   archived client) is recorded as skipped with the reason, in a second
 *   transaction, so the schedule moves on instead of failing every minute.
 *   Other errors (the database away) leave the schedule due for the next run.
 */

export interface SchedulerDeps {
  db: Kysely<DB>;
  clock: Clock;
  /**
   * The server's public URL (PUBLIC_URL): with it, a sent occurrence's e-mail
   * carries a client link, as every invoice e-mail does; without it, none.
   */
  baseUrl?: string;
  /** Candidates read per scan query. */
  batchSize?: number;
  /** Where a schedule's unexpected failure goes (the run goes on with the next schedule). */
  onError?: (err: unknown, schedule: { workspace_id: string; id: string }) => void;
}

export interface RunSummary {
  drafted: number;
  sent: number;
  skipped: number;
}

type Outcome = 'drafted' | 'sent' | 'skipped';

/** Who an occurrence acts as: the operator, named as the schedule's creator while they are a member (the invoice's creator, the e-mail's reply-to). */
async function actingPrincipal(trx: Tx, s: ScheduleRow): Promise<Principal> {
  const operator = operatorPrincipal(s.company_id);
  const creator = s.created_by ? await findCreator(trx, s.created_by) : undefined;
  if (!creator) return operator;
  return { ...operator, userId: creator.id, email: creator.email, firstName: creator.first_name, lastName: creator.last_name };
}

/** Claims the schedule when it is due (null otherwise: not due, paused, ended, or another process holds it). */
async function claimDue(trx: Tx, c: DueCandidate, now: Date) {
  const s = await findSchedule(trx, c.company_id, c.id, { lock: true, skipLocked: true });
  const today = todayIn(c.timezone, now);
  if (!s || s.is_paused || s.next_run_date === null || s.next_run_date > today) return null;
  return { s, date: s.next_run_date, today };
}

/** An occurrence in the audit log: done by the scheduler (nobody), about the schedule. */
const auditOccurrence = (trx: Tx, s: ScheduleRow, action: AuditAction, details: Record<string, unknown>) =>
  audit(trx, { companyId: s.company_id, actorUserId: null, credentialId: null, action, subjectType: 'recurring_invoice', subjectId: s.id, details });

async function advance(trx: Tx, s: ScheduleRow, date: string, now: Date) {
  await updateRow(trx, 'recurring_invoice_schedules', s.company_id, s.id, { next_run_date: nextOccurrence(calendarOf(s), date) }, now);
}

/** Makes the schedule's next due occurrence; null when there is none to make by this process. */
async function makeOccurrence(db: Kysely<DB>, c: DueCandidate, now: Date, baseUrl?: string): Promise<Outcome | null> {
  let attempted: string | null = null;
  try {
    return await withTenant(db, c.company_id, async (trx) => {
      const claim = await claimDue(trx, c, now);
      if (!claim) return null;
      const { s, date, today } = claim;
      attempted = date;
      const state = stateOf(s);
      const period = periodOf(calendarOf(s), s.source, date);
      const p = await actingPrincipal(trx, s);
      const body = invoiceBody(state, period);
      // The template's kinds stay valid though a category was archived since: the month is billed.
      const carriedKinds = (body.line_items ?? []).flatMap((l) => (l.kind === undefined ? [] : [l.kind]));
      const invoice = await createInvoiceIn(trx, p, { ...body, issue_date: date, period_start: period.start, period_end: period.end }, now, { carriedKinds });
      let outcome: Outcome = 'drafted';
      let note: string | null = null;
      if (s.action === 'send' && date === today) {
        await sendInvoiceMessageIn(trx, p, invoice.id, { event_type: 'send', recipients: s.recipients }, now, { baseUrl });
        outcome = 'sent';
      } else if (s.action === 'send') {
        note = `Made late (on ${today}, after the server was down or stopped), so it was drafted, not sent: review and send it.`;
      }
      const occurrenceId = newId(now.getTime());
      const made = await insertOccurrence(trx, c.company_id, { id: occurrenceId, scheduleId: s.id, date, period, invoiceId: invoice.id, outcome, note }, now);
      // The claim makes this impossible; should it happen, the throw rolls the invoice back.
      if (!made) throw new Error(`recurring invoice ${s.id}: the occurrence of ${date} exists already`);
      await advance(trx, s, date, now);
      await auditOccurrence(trx, s, 'recurring_invoice.occurred', { occurrence_id: occurrenceId, occurrence_date: date, invoice_id: invoice.id, number: invoice.number, outcome });
      await pauseAt('recurring-occurrence');
      return outcome;
    });
  } catch (err) {
    if (!(err instanceof ApiError) || attempted === null) throw err;
    return skipOccurrence(db, c, attempted, err.message, now);
  }
}

/** Records an occurrence the invoice rules refused, and moves the schedule on (only if it still waits at that date). */
async function skipOccurrence(db: Kysely<DB>, c: DueCandidate, date: string, reason: string, now: Date): Promise<Outcome | null> {
  return withTenant(db, c.company_id, async (trx) => {
    const claim = await claimDue(trx, c, now);
    if (!claim || claim.date !== date) return null;
    const { s } = claim;
    const period = periodOf(calendarOf(s), s.source, date);
    const occurrenceId = newId(now.getTime());
    await insertOccurrence(trx, c.company_id, { id: occurrenceId, scheduleId: s.id, date, period, invoiceId: null, outcome: 'skipped', note: reason.slice(0, 2000) }, now);
    await advance(trx, s, date, now);
    await auditOccurrence(trx, s, 'recurring_invoice.skipped', { occurrence_id: occurrenceId, occurrence_date: date, reason });
    return 'skipped';
  });
}

/**
 * Makes every due occurrence once (one run of the scheduler). `workspaceId`
 * limits it to one workspace (the command line's option).
 */
export async function runDueSchedules(deps: SchedulerDeps, { workspaceId }: { workspaceId?: string } = {}): Promise<RunSummary> {
  const now = deps.clock();
  const summary: RunSummary = { drafted: 0, sent: 0, skipped: 0 };
  let after: DueCandidate | null = null;
  for (;;) {
    const batch: DueCandidate[] = await dueCandidates(deps.db, now, deps.batchSize ?? 200, after, workspaceId);
    for (const c of batch) {
      try {
        // Catch-up: one occurrence per transaction, until the schedule is no longer due (or another process has it).
        for (let outcome = await makeOccurrence(deps.db, c, now, deps.baseUrl); outcome !== null; outcome = await makeOccurrence(deps.db, c, now, deps.baseUrl)) {
          summary[outcome] += 1;
        }
      } catch (err) {
        if (!deps.onError) throw err;
        deps.onError(err, { workspace_id: c.company_id, id: c.id });
      }
    }
    if (batch.length < (deps.batchSize ?? 200)) return summary;
    after = batch[batch.length - 1];
  }
}

/** Runs the scheduler every `intervalMs` until stopped (as the outbox worker runs). */
export function startRecurringScheduler(deps: SchedulerDeps, intervalMs = 60_000, onError: (err: unknown) => void = () => {}) {
  return repeatEvery(intervalMs, () => runDueSchedules(deps), onError);
}
