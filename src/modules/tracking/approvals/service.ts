import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { actingUserId } from '../../../access/operator.ts';
import { approvalReach, assertMayReviewTime, maySubmitTime, type ApprovalReach } from '../../../access/approvals.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { ApiError, forbidden, notFound, type ErrorCode } from '../../../errors.ts';
import { isId } from '../../../ids.ts';
import { Decimal } from 'decimal.js';
import { maySeeRates } from '../../../access/catalog.ts';
import { minorUnitDigits } from '../../../money.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { peopleNamed, withTimeSettings, lockPersonTimeForApproval, weeksOf, checkWeekDate, entryRoundedHours, secondsToHours, weekEndOf, weekStartOf } from '../week/index.ts';
import { byWeek, daysInReach } from './queue.ts';
import { lastRejectionOf, reviewDetails } from './web-queries.ts';
import { mailDate, mailNumber, translator } from '../../../i18n/index.ts';
import { enqueueMail, type MailMessage } from '../../../outbox/enqueue.ts';
import { audit, type AuditAction } from '../../workspace/audit/index.ts';
import { breakRulesOf, capacityIn } from '../../planning/capacity/index.ts';
import {
  checkPeriod,
  checkReason,
  fingerprintOf,
  isSubmittable,
  inPeriod,
  lockedWeeks,
  runPreflight,
  type Period,
  type PeriodItem,
  type Preflight,
  type PreflightCapacity,
} from './preflight.ts';
import {
  approvedItemsBetween,
  approversOf,
  findPerson,
  findPersonByRef,
  loadApprovalSettings,
  periodItems,
  projectExists,
  setApprovalStatus,
} from './queries.ts';
import type { ApproveInput, RejectInput, ReviewInput, SubmitInput } from './schemas.ts';
import { reportWeeks } from './withdrawal.ts';

/**
 * Timesheet approvals: submit (the caller's own period), approve (behind a
 * preflight that cannot be skipped) and reject, plus the operator's withdrawal
 * of an approval (`sheaf admin approvals withdraw`; not in the API). See
 * docs/decisions.md, "Approvals".
 *
 * unsubmitted/rejected --submit--> submitted --approve--> approved --withdraw (CLI)--> submitted
 *                                            --reject---> rejected
 */

const fullName = (x: { first_name: string; last_name: string }) => `${x.first_name} ${x.last_name}`.trim();

/**
 * Links in the approval e-mails, on the server's public address (PUBLIC_URL):
 * the web app's approvals page (its queue of weeks to review) for approvers, and
 * for the person whose time was returned, the week grid of the period's first week.
 */
export const approvalsLink = (baseUrl: string) => `${baseUrl}/approvals`;
export const weekLink = (baseUrl: string, weekStart: string) => `${baseUrl}/time/week?start=${weekStart}`;

/**
 * The audit record of a timesheet transition: the person as its subject, the
 * acting credential (none for an operator's withdrawal), and with the details the
 * ids of the time entries and expenses it moved.
 */
function auditTimesheet(
  trx: Tx,
  action: AuditAction,
  entry: { companyId: string; personId: string; actor: Principal; moved: PeriodItem[]; details: Record<string, unknown> },
) {
  return audit(trx, {
    companyId: entry.companyId,
    action,
    subjectType: 'user',
    subjectId: entry.personId,
    actorUserId: actingUserId(entry.actor),
    credentialId: entry.actor.credentialId,
    details: {
      ...entry.details,
      time_entry_ids: entry.moved.filter((i) => i.kind === 'time').map((i) => i.id),
      expense_ids: entry.moved.filter((i) => i.kind === 'expense').map((i) => i.id),
    },
  });
}

/** 403 when the workspace has approvals turned off. */
export async function assertApprovalsEnabled(trx: Tx, companyId: string) {
  const settings = await loadApprovalSettings(trx, companyId);
  if (!settings.approvals_enabled) throw forbidden('Timesheet approvals are turned off for this workspace.');
  return settings;
}

/** The route's gate, before the body is validated: 403 when approvals are off. */
export function checkApprovalsEnabled(db: Kysely<DB>, companyId: string): Promise<unknown> {
  return withTenant(db, companyId, (trx) => assertApprovalsEnabled(trx, companyId));
}

// ---------------------------------------------------------------- submit

/**
 * Submits the caller's completed, unbilled, unsubmitted or rejected time
 * entries and expenses dated in the period. A running timer in the period is
 * 409 `running_timer`; a `fingerprint` (from an earlier submit) that no longer
 * matches the period is 409 `submission_stale`. The person's approvers get one
 * e-mail through the outbox (one per language among them), in the same transaction. Submitting nothing new is
 * a 200 with a count of 0 (and no e-mail).
 */
export async function submit(db: Kysely<DB>, p: Principal, input: SubmitInput, now: Date, baseUrl: string) {
  if (!maySubmitTime(p)) throw forbidden('A personal read-only sync key cannot submit time.');
  checkPeriod(input);
  return withTenant(db, p.companyId, async (trx) => {
    await assertApprovalsEnabled(trx, p.companyId);
    const items = await periodItems(trx, p.companyId, p.userId, input, true);
    const running = items.filter((i) => i.kind === 'time' && i.is_running);
    if (running.length) {
      throw new ApiError(
        'running_timer',
        'A timer is running in the period; stop it before submitting.',
        { running_entry: { id: running[0].id }, running_entry_count: running.length },
      );
    }
    const current = fingerprintOf(items);
    if (input.fingerprint !== undefined && input.fingerprint !== current) {
      throw new ApiError(
        'submission_stale',
        'The period changed since that fingerprint was issued; review it and submit again (without a fingerprint, or with this one).',
        { fingerprint: current },
      );
    }
    const chosen = items.filter(isSubmittable);
    const counts = await setApprovalStatus(trx, p.companyId, chosen, 'submitted', now);
    const seconds = chosen.reduce((sum, i) => sum + (i.kind === 'time' ? (i.duration_seconds ?? 0) : 0), 0);
    if (chosen.length > 0) {
      await auditTimesheet(trx, 'timesheet.submitted', {
        companyId: p.companyId,
        personId: p.userId,
        actor: p,
        moved: chosen,
        details: { from: input.from, to: input.to, ...counts, submitted_seconds: seconds },
      });
      await notifyApprovers(trx, p, input, { ...counts, seconds, projectIds: [...new Set(chosen.map((i) => i.project_id))] }, now, baseUrl);
    }
    const after = await periodItems(trx, p.companyId, p.userId, input, false);
    return { submitted_count: chosen.length, submitted_seconds: seconds, fingerprint: fingerprintOf(after) };
  });
}

/**
 * The person's approvers are told in their own language (users.language): one
 * message per language among them, each to the approvers who read it.
 */
async function notifyApprovers(
  trx: Tx,
  p: Principal,
  period: Period,
  what: { time_entry_count: number; expense_count: number; seconds: number; projectIds: string[] },
  now: Date,
  baseUrl: string,
) {
  const approvers = await approversOf(trx, p.companyId, p.userId, what.projectIds);
  if (!approvers.length) return;
  const name = `${p.firstName} ${p.lastName}`.trim();
  // To the hundredth, as a person reads hours (7.67, not 7.666389).
  const hours = secondsToHours(what.seconds).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed();
  const languages = [...new Set(approvers.map((a) => a.language))];
  for (const language of languages) {
    const t = translator(language);
    const dates = { from: mailDate(period.from, language), to: mailDate(period.to, language) };
    const message: MailMessage = {
      to: approvers.filter((a) => a.language === language).map((a) => ({ email: a.email, name: fullName(a) })),
      subject: t('approvalMail.submittedSubject', { name, ...dates }),
      text: [
        t('approvalMail.submitted', {
          name,
          email: p.email,
          timeEntries: t('approvalMail.timeEntries', { count: what.time_entry_count }),
          hours: t('approvalMail.hours', { count: Number(hours), hours: mailNumber(hours, language) }),
          expenses: t('approvalMail.expenses', { count: what.expense_count }),
          workspace: p.companyName,
          ...dates,
        }),
        t('approvalMail.review', { link: approvalsLink(baseUrl) }),
      ].join('\n\n'),
    };
    await enqueueMail(trx, p.companyId, 'timesheet_submitted', message, now);
  }
}

// ---------------------------------------------------------------- approve and reject

interface Review {
  person: NonNullable<Awaited<ReturnType<typeof findPerson>>>;
  reach: ApprovalReach;
  projectId?: string;
}

/**
 * Checks a review request in this order: the caller's role may review at all
 * (403, before anything is looked up, so it confirms nothing); the period
 * (400); approvals on (403); the person and the project exist in the workspace
 * (404: unknown, malformed and other workspaces' ids alike); the person is in
 * the caller's reach (403).
 */
export async function resolveReview(trx: Tx, p: Principal, input: ReviewInput, { requireEnabled = true } = {}): Promise<Review> {
  assertMayReviewTime(p);
  checkPeriod(input);
  if (requireEnabled) await assertApprovalsEnabled(trx, p.companyId);
  const userId = input.user_id.toLowerCase();
  const person = isId(userId) ? await findPerson(trx, p.companyId, userId) : undefined;
  if (!person || person.role === 'client') throw notFound('user');
  let projectId: string | undefined;
  if (input.project_id !== undefined) {
    projectId = input.project_id.toLowerCase();
    if (!isId(projectId) || !(await projectExists(trx, p.companyId, projectId))) throw notFound('project');
  }
  const reach = await approvalReach(trx, p, person.user_id, projectId);
  return { person, reach, projectId };
}

/** Whether an item is in the review's scope: the project asked for, within the caller's reach. */
export const scopeOf =
  ({ reach, projectId }: Pick<Review, 'reach' | 'projectId'>) =>
  (i: PeriodItem) =>
    (projectId === undefined || i.project_id === projectId) && (reach.all || reach.projectIds.includes(i.project_id));

const preflightError = (code: ErrorCode, message: string, preflight: Preflight) => new ApiError(code, message, { preflight });

/**
 * The preflight of a review, read without acting (the web app shows it before
 * Approve; approve runs it again): the person, the caller's reach, the period's
 * items and the preflight. Same checks and answers as approve (404, 403).
 */
export function reviewPeriod(db: Kysely<DB>, p: Principal, input: ReviewInput) {
  return withTenant(db, p.companyId, (trx) => reviewPeriodIn(trx, p, input));
}

/** What the preflight measures a person's period against: their capacity (planning) and the workspace's break rules. */
async function capacityFor(trx: Tx, companyId: string, personId: string, period: { from: string; to: string }): Promise<PreflightCapacity> {
  const [days, breakRules] = await Promise.all([capacityIn(trx, companyId, personId, period), breakRulesOf(trx, companyId)]);
  return { days, breakRules };
}

/** reviewPeriod inside the caller's transaction (the web app's review reads more in the same one). */
export async function reviewPeriodIn(trx: Tx, p: Principal, input: ReviewInput) {
  const review = await resolveReview(trx, p, input);
  // The items of the whole weeks an approval would lock (the period's, and any week-mates).
  const weeks = lockedWeeks(input, (await loadApprovalSettings(trx, p.companyId)).week_start);
  const items = await periodItems(trx, p.companyId, review.person.user_id, weeks, false);
  const capacity = await capacityFor(trx, p.companyId, review.person.user_id, input);
  return { review, weeks, items, capacity, preflight: runPreflight(items, scopeOf(review), input, capacity) };
}

/** Test seam: runs between the preflight and the locked approval (tests use it to change the period meanwhile). */
export const approvalTestHooks: { afterPreflight?: () => Promise<void> } = {};

/**
 * Approves the person's submitted items in the scope. The preflight runs first
 * and cannot be skipped: blockers are 409 `approval_blocked`; a
 * `preflight_fingerprint` that is not the current one is 409
 * `approval_preflight_stale`; warnings need the current fingerprint and every
 * warning code (409 `approval_warnings_unacknowledged`). Then the period is
 * locked and checked again: a change since the preflight is 409
 * `approval_conflict`. Every one of these carries the current preflight.
 * Nothing submitted (and no blockers) is a 200 with counts of 0.
 */
export async function approve(db: Kysely<DB>, p: Principal, input: ApproveInput, now: Date) {
  const reviewed = await reviewPeriod(db, p, input);
  const { review, preflight } = reviewed;
  const inScope = scopeOf(review);
  const personId = review.person.user_id;
  if (preflight.blockers.length) {
    throw preflightError('approval_blocked', 'The period has blockers; resolve them first (blockers cannot be acknowledged).', preflight);
  }
  if (input.preflight_fingerprint !== undefined && input.preflight_fingerprint !== preflight.fingerprint) {
    throw preflightError('approval_preflight_stale', 'The period changed after that preflight; review the current one (in this response).', preflight);
  }
  const approvable = (i: PeriodItem) => inPeriod(i, input) && inScope(i) && i.approval_status === 'submitted';
  const toApprove = reviewed.items.filter(approvable);
  const warningCodes = [...new Set(preflight.warnings.map((w) => w.code))].sort();
  if (toApprove.length === 0) {
    return { time_entry_count: 0, expense_count: 0, preflight_fingerprint: preflight.fingerprint, acknowledged_warning_codes: [] as string[] };
  }
  const acknowledged = new Set(input.acknowledged_warning_codes ?? []);
  if (warningCodes.length && (input.preflight_fingerprint === undefined || warningCodes.some((c) => !acknowledged.has(c)))) {
    throw preflightError(
      'approval_warnings_unacknowledged',
      'The period has warnings: review them and retry with this preflight_fingerprint and every warning code in acknowledged_warning_codes.',
      preflight,
    );
  }
  await approvalTestHooks.afterPreflight?.();

  return withTenant(db, p.companyId, async (trx) => {
    await lockPersonTimeForApproval(trx, p.companyId, personId);
    const items = await periodItems(trx, p.companyId, personId, reviewed.weeks, true);
    if (fingerprintOf(items) !== preflight.fingerprint) {
      throw preflightError(
        'approval_conflict',
        'The period changed while it was being approved; nothing was approved. Review the current preflight and retry.',
        runPreflight(items, inScope, input, reviewed.capacity),
      );
    }
    const chosen = items.filter(approvable);
    const counts = await setApprovalStatus(trx, p.companyId, chosen, 'approved', now);
    await auditTimesheet(trx, 'timesheet.approved', {
      companyId: p.companyId,
      personId,
      actor: p,
      moved: chosen,
      details: {
        from: input.from,
        to: input.to,
        project_id: review.projectId ?? null,
        ...counts,
        preflight_fingerprint: preflight.fingerprint,
        acknowledged_warning_codes: warningCodes,
      },
    });
    return { ...counts, preflight_fingerprint: preflight.fingerprint, acknowledged_warning_codes: warningCodes };
  });
}

/**
 * Returns the person's submitted items in the scope as `rejected`, for
 * correction and resubmission. The reason goes to the e-mail to the person and
 * to the audit log. Nothing submitted is a 200 with counts of 0 (no e-mail).
 */
export async function reject(db: Kysely<DB>, p: Principal, input: RejectInput, now: Date, baseUrl: string) {
  const reason = checkReason(input.reason);
  return withTenant(db, p.companyId, async (trx) => {
    const review = await resolveReview(trx, p, input);
    const { person } = review;
    const inScope = scopeOf(review);
    const items = await periodItems(trx, p.companyId, person.user_id, input, true);
    const chosen = items.filter((i) => inScope(i) && i.approval_status === 'submitted');
    const counts = await setApprovalStatus(trx, p.companyId, chosen, 'rejected', now);
    if (chosen.length === 0) return counts;
    await auditTimesheet(trx, 'timesheet.rejected', {
      companyId: p.companyId,
      personId: person.user_id,
      actor: p,
      moved: chosen,
      details: { from: input.from, to: input.to, project_id: review.projectId ?? null, ...counts, reason },
    });
    const approver = `${p.firstName} ${p.lastName}`.trim();
    const settings = await loadApprovalSettings(trx, p.companyId);
    // In the person's language (read with them, by resolveReview).
    const t = translator(person.language);
    const dates = { from: mailDate(input.from, person.language), to: mailDate(input.to, person.language) };
    const message: MailMessage = {
      to: [{ email: person.email, name: fullName(person) }],
      reply_to: { email: p.email, name: approver },
      subject: t('approvalMail.rejectedSubject', dates),
      text: [
        t('approvalMail.rejected', {
          approver,
          timeEntries: t('approvalMail.timeEntries', { count: counts.time_entry_count }),
          expenses: t('approvalMail.expenses', { count: counts.expense_count }),
          workspace: p.companyName,
          ...dates,
        }),
        reason === null ? t('approvalMail.noReason') : t('approvalMail.reason', { reason }),
        t('approvalMail.resubmit', { link: weekLink(baseUrl, weekStartOf(input.from, settings.week_start)) }),
      ].join('\n\n'),
    };
    await enqueueMail(trx, p.companyId, 'timesheet_rejected', message, now);
    return counts;
  });
}

// ---------------------------------------------------------------- withdraw (operator)

export interface WithdrawInput extends Period {
  /** A user id or e-mail address. */
  user: string;
  project_id?: string;
  reason?: string | null;
}

/**
 * `sheaf admin approvals withdraw`: the operator takes back an approval (the
 * API has no such request). The person's approved, unbilled time entries and
 * expenses dated in the period (on the project, when given) go back to
 * `submitted`: the approval is undone, the submission stands, so an approver
 * may approve it again or reject it for correction. Billed approved items stay
 * approved (they are on an invoice). The result reports every week the
 * withdrawal touched: unlocked when no approved item is left in it, else still
 * locked with the items holding it and why (billed; dated outside the period;
 * on another project). Recorded in the audit log (no actor user) with the reason.
 */
export interface WithdrawOptions {
  /** Who withdraws: the web app's approver, or the operator (`sheaf admin approvals withdraw`, no actor in the audit log). */
  actor: Principal;
  /** Only these of the person's items (a manager's reach); all by default. */
  reach?: ApprovalReach;
  /**
   * Refuse (409 `approval_withdrawal_billed`, nothing changed) when billed approved
   * work is in the scope, instead of withdrawing the rest and keeping it (the CLI's way).
   */
  refuseBilled?: boolean;
}

export async function withdrawApproval(db: Kysely<DB>, companyId: string, input: WithdrawInput, now: Date, options: WithdrawOptions) {
  checkPeriod(input);
  const reason = checkReason(input.reason);
  return withTenant(db, companyId, async (trx) => {
    const settings = await loadApprovalSettings(trx, companyId);
    const byId = isId(input.user);
    const person = await findPersonByRef(trx, companyId, input.user, byId);
    if (!person) throw new ApiError('not_found', `No member '${input.user}' in this workspace (see "sheaf admin user list").`, { field: 'user' });
    let projectId: string | undefined;
    if (input.project_id !== undefined) {
      projectId = input.project_id.toLowerCase();
      if (!isId(projectId) || !(await projectExists(trx, companyId, projectId))) {
        throw new ApiError('not_found', `No project ${input.project_id} in this workspace.`, { field: 'project' });
      }
    }
    // Like an approval, hold the person's time still (writes in flight finish, new ones
    // wait their turn), so the items withdrawn and the weeks reported are one state.
    await lockPersonTimeForApproval(trx, companyId, person.user_id);
    const items = await periodItems(trx, companyId, person.user_id, input, true);
    const reach = options.reach ?? { all: true };
    const approved = items.filter(
      (i) =>
        i.approval_status === 'approved' &&
        (projectId === undefined || i.project_id === projectId) &&
        (reach.all || reach.projectIds.includes(i.project_id)),
    );
    const chosen = approved.filter((i) => !i.is_billed);
    const counts = await setApprovalStatus(trx, companyId, chosen, 'submitted', now);
    // Every week the withdrawal touched: those of all the approved items in its
    // scope, the billed ones it kept included, so a week it could not open is
    // reported with what holds it rather than left out.
    const weeks = weeksOf(approved.map((i) => i.spent_date), settings.week_start);
    const left = weeks.length ? await approvedItemsBetween(trx, companyId, person.user_id, weeks[0], weekEndOf(weeks[weeks.length - 1])) : [];
    const result = {
      user_id: person.user_id,
      from: input.from,
      to: input.to,
      project_id: projectId ?? null,
      ...counts,
      billed_kept_count: approved.length - chosen.length,
      ...reportWeeks(weeks, left, { from: input.from, to: input.to, projectId }, settings.week_start),
      reason,
    };
    if (options.refuseBilled && result.billed_kept_count > 0) {
      // Thrown inside the transaction: the items moved above go back as they were.
      const billed = result.still_locked_weeks.flatMap((w) => w.held_by.filter((h) => h.reason === 'billed').map((h) => ({ ...w, held_by: [h] })));
      throw new ApiError(
        'approval_withdrawal_billed',
        `Billed work depends on this approval, so nothing was withdrawn. ${billed.map((w) => `Week of ${w.week_start}: ${w.held_by[0].message}`).join(' ')}`,
        { still_locked_weeks: billed },
      );
    }
    if (chosen.length > 0) {
      await auditTimesheet(trx, 'timesheet.approval_withdrawn', {
        companyId,
        personId: person.user_id,
        actor: options.actor,
        moved: chosen,
        details: result,
      });
    }
    return result;
  });
}

// ---------------------------------------------------------------- the web app's screens

/** How far back the queue lists approved weeks (for withdrawal): 26 weeks before today. */
export const APPROVED_WEEKS_SHOWN = 26;

const zero = () => ({ count: 0, seconds: 0 });

/** The caller's week of `date` (default today): its items by approval state, fingerprint, running timer and last rejection. */
export function myApprovalWeek(db: Kysely<DB>, p: Principal, date: string | undefined, now: Date) {
  checkWeekDate(date);
  return withTimeSettings(db, p.companyId, async (trx, time) => {
    const settings = await loadApprovalSettings(trx, p.companyId);
    const today = todayIn(time.timezone, now);
    const from = weekStartOf(date ?? today, settings.week_start);
    const to = weekEndOf(from);
    const items = await periodItems(trx, p.companyId, p.userId, { from, to }, false);
    const statuses = { unsubmitted: zero(), submitted: zero(), approved: zero(), rejected: zero() };
    for (const i of items) {
      statuses[i.approval_status].count += 1;
      statuses[i.approval_status].seconds += i.kind === 'time' ? (i.duration_seconds ?? 0) : 0;
    }
    const rejected = new Set(items.filter((i) => i.approval_status === 'rejected').map((i) => i.id));
    return {
      from,
      to,
      today,
      approvals_enabled: settings.approvals_enabled,
      fingerprint: fingerprintOf(items),
      running: items.some((i) => i.is_running === true),
      statuses,
      rejection: await lastRejectionOf(trx, p.companyId, p.userId, rejected),
    };
  });
}

/** The weeks the caller may approve or reject (submitted) and withdraw (approved, the last APPROVED_WEEKS_SHOWN weeks). */
export function approvalQueue(db: Kysely<DB>, p: Principal, now: Date) {
  assertMayReviewTime(p);
  return withTimeSettings(db, p.companyId, async (trx, time) => {
    const settings = await loadApprovalSettings(trx, p.companyId);
    const today = todayIn(time.timezone, now);
    const since = weekStartOf(today, settings.week_start);
    const approvedSince = new Date(Date.parse(`${since}T00:00:00Z`) - APPROVED_WEEKS_SHOWN * 7 * 86_400_000).toISOString().slice(0, 10);
    const inReach = await daysInReach(trx, p, approvedSince);
    const names = await peopleNamed(trx, p.companyId, [...new Set(inReach.map((d) => d.user_id))]);
    const named = (rows: ReturnType<typeof byWeek>) =>
      rows
        .map((r) => ({ ...r, ...names.get(r.user_id)! }))
        .sort((a, b) => a.week_start.localeCompare(b.week_start) || a.name.localeCompare(b.name));
    return {
      today,
      submitted: named(byWeek(inReach.filter((d) => d.approval_status === 'submitted'), settings.week_start)),
      approved: named(byWeek(inReach.filter((d) => d.approval_status === 'approved'), settings.week_start)).reverse(),
    };
  });
}

/** The preflight approve would answer, and how many submitted items it would approve. */
export async function preflightOf(db: Kysely<DB>, p: Principal, input: ReviewInput) {
  const { review, items, preflight } = await reviewPeriod(db, p, input);
  const submitted = items.filter((i) => i.approval_status === 'submitted' && scopeOf(review)(i));
  return { ...preflight, submitted_count: submitted.length };
}

const byDate = <T extends { spent_date: string; id: string }>(a: T, b: T) => a.spent_date.localeCompare(b.spent_date) || a.id.localeCompare(b.id);
const isSubmitted = (i: { approval_status: string }) => i.approval_status === 'submitted';

/**
 * A person's period as the approver reviews it: the preflight, every item in the
 * caller's reach with its details, the projects, and money as the caller may see it
 * (expenses' total_cost always; time's billable_rate and billable_amount with the
 * permission to view billable rates).
 */
export function reviewOf(db: Kysely<DB>, p: Principal, input: ReviewInput) {
  return withTimeSettings(db, p.companyId, async (trx, rounding) => {
    const { review, items, preflight, capacity } = await reviewPeriodIn(trx, p, input);
    const shown = items.filter(scopeOf(review));
    const time = shown.filter((i) => i.kind === 'time');
    const spent = shown.filter((i) => i.kind === 'expense');
    const projectIds = [...new Set(shown.map((i) => i.project_id))];
    const details = await reviewDetails(trx, p.companyId, { time: time.map((i) => i.id), expenses: spent.map((i) => i.id), projects: projectIds });
    const currencyOf = new Map(details.projects.map((x) => [x.id, x.currency]));
    const rates = maySeeRates(p);
    return {
      ...preflight,
      submitted_count: shown.filter(isSubmitted).length,
      shows_amounts: rates,
      projects: details.projects.map((x) => {
        const scope = scopeOf({ reach: review.reach, projectId: x.id });
        return {
          ...x,
          submitted_count: shown.filter((i) => i.project_id === x.id && isSubmitted(i)).length,
          blocked: runPreflight(items, scope, input, capacity).blockers.length > 0,
        };
      }),
      time_entries: time.sort(byDate).map((i) => {
        const seconds = i.duration_seconds ?? 0;
        // The entry's rounded_hours: the list's, the reports' and an invoice's figure (a running timer's entered hours are not its hours).
        const hours = entryRoundedHours({ hours_entered: i.is_running ? null : (i.hours_entered ?? null), duration_seconds: seconds }, rounding);
        const detail = details.entries.get(i.id);
        const entry = {
          id: i.id,
          spent_date: i.spent_date,
          project_id: i.project_id,
          task_name: detail?.task_name ?? null,
          notes: i.notes,
          started_time: i.started_time ?? null,
          ended_time: i.ended_time ?? null,
          seconds,
          hours: hours.toNumber(),
          is_running: i.is_running === true,
          billable: i.billable,
          approval_status: i.approval_status,
        };
        if (!rates) return entry;
        const rate = detail?.billable_rate ?? null;
        const digits = minorUnitDigits(currencyOf.get(i.project_id) ?? 'USD');
        const amount = i.billable && rate !== null ? hours.mul(rate).toDecimalPlaces(digits, Decimal.ROUND_HALF_UP).toNumber() : null;
        return { ...entry, billable_rate: rate === null ? null : Number(rate), billable_amount: amount };
      }),
      expenses: spent.sort(byDate).map((i) => {
        const detail = details.expenses.get(i.id);
        return {
          id: i.id,
          spent_date: i.spent_date,
          project_id: i.project_id,
          category_name: detail?.category_name ?? '',
          notes: i.notes,
          units: i.units == null ? null : Number(i.units),
          unit_name: detail?.unit_name ?? null,
          total_cost: Number(i.total_cost ?? 0),
          billable: i.billable,
          approval_status: i.approval_status,
        };
      }),
    };
  });
}

/**
 * The web app's withdrawal: an approver (as for approve, approvals on or off) takes back
 * what they reach; billed approved work in the period refuses it all (409).
 */
export async function withdrawAsApprover(db: Kysely<DB>, p: Principal, input: ReviewInput & { reason?: string | null }, now: Date) {
  const review = await withTenant(db, p.companyId, (trx) => resolveReview(trx, p, input, { requireEnabled: false }));
  return withdrawApproval(
    db,
    p.companyId,
    { user: review.person.user_id, from: input.from, to: input.to, project_id: review.projectId, reason: input.reason },
    now,
    { actor: p, reach: review.reach, refuseBilled: true },
  );
}
