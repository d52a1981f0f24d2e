import { HttpError, NetworkError } from './call.ts';
import { t } from './texts.ts';

/** What the interface says about a failed call: a sentence, the field it belongs to (if any), and when to retry. */
export interface Described {
  message: string;
  /** The API property at fault (a dotted path); the form shows the message under that field. */
  field?: string;
  /** Seconds until a retry can succeed (429, 503). */
  retryAfter?: number;
  code?: string;
}

type Sentence = (error: HttpError) => string;

/**
 * Codes whose sentence the app words itself (the rest show the API's own `message`,
 * which is already written for people). One place, one vitest case per code (errors.test.ts).
 */
const SENTENCES: Record<string, Sentence> = {
  rate_limited: (e) => (e.retryAfter ? t('errors.rateLimited', { wait: wait(e.retryAfter) }) : t('errors.rateLimitedSoon')),
  link_invalid: () => t('errors.linkInvalid'),
  csrf_failed: () => t('errors.csrfFailed'),
  session_required: () => t('errors.sessionRequired'),
  two_factor_enrolment_required: () => t('errors.twoFactorEnrolmentRequired'),
  invalid_code: () => t('errors.invalidCode'),
  password_sign_in_disabled: () => t('errors.passwordSignInDisabled'),
  passkey_refused: () => t('errors.passkeyRefused'),
  unauthorized: () => t('errors.unauthorized'),
  forbidden: (e) => e.body?.message ?? t('errors.forbidden'),
  not_found: () => t('errors.notFound'),
  precondition_failed: () => t('errors.preconditionFailed'),
  idempotency_key_in_use: () => t('errors.idempotencyKeyInUse'),
  running_timer: () => t('errors.runningTimer'),
  submission_stale: () => t('errors.periodChanged'),
  approval_preflight_stale: () => t('errors.periodChanged'),
  approval_conflict: () => t('errors.approvalConflict'),
  approved_timesheet_week_locked: () => t('errors.weekLocked'),
  time_entry_locked: () => t('errors.entryBilled'),
  expense_locked: () => t('errors.expenseBilled'),
  email_taken: () => t('errors.emailTaken'),
  timer_not_running: () => t('errors.timerNotRunning'),
  timer_already_running: () => t('errors.timerAlreadyRunning'),
  internal_error: () => t('errors.internal'),
  service_unavailable: (e) => (e.retryAfter ? t('errors.unavailable', { wait: wait(e.retryAfter) }) : t('errors.unavailableSoon')),
};

const INVOICE_STATES = ['draft', 'open', 'paid', 'closed', 'voided'] as const;
const ESTIMATE_STATES = ['draft', 'sent', 'accepted', 'declined'] as const;
/** The record's state the body names, or the word for "changed" when it is one this app does not know. */
const stateOf = <S extends string>(e: HttpError, states: readonly S[]): S | 'other' => states.find((s) => s === e.body?.state) ?? 'other';

/** A count the error body names (`project_count`, …), for the sentence's plural. */
const countOf = (e: HttpError, name: string) => (typeof e.body?.[name] === 'number' ? (e.body[name] as number) : 1);

/**
 * Refusals of a rule (the body's `refusal`, src/errors.ts Refusal) the app words itself, with the
 * count or field the body names; they go before the code's sentence, as they say more. A refusal
 * the app does not know (a newer server's) shows the API's `message`.
 */
const REFUSALS: Record<string, Sentence> = {
  name_taken: () => t('refusals.nameTaken'),
  number_taken: () => t('refusals.numberTaken'),
  archive_first: () => t('refusals.archiveFirst'),
  client_has_active_projects: (e) => t('refusals.clientHasActiveProjects', { count: countOf(e, 'active_project_count') }),
  client_has_projects: (e) => t('refusals.clientHasProjects', { count: countOf(e, 'project_count') }),
  client_has_invoices: (e) => t('refusals.clientHasInvoices', { count: countOf(e, 'invoice_count') }),
  client_archived: () => t('refusals.clientArchived'),
  project_has_running_timers: (e) => t('refusals.projectHasRunningTimers', { count: countOf(e, 'running_entry_count') }),
  already_assigned: (e) => t(e.body?.field === 'task_id' ? 'refusals.taskAssigned' : 'refusals.personAssigned'),
  last_owner: () => t('refusals.lastOwner'),
  already_member: () => t('refusals.alreadyMember'),
  invitation_pending: () => t('refusals.invitationPending'),
  approval_in_progress: () => t('refusals.approvalInProgress'),
  project_archived: () => t('refusals.projectArchived'),
  project_unavailable: () => t('refusals.projectUnavailable'),
  not_assigned: (e) => t(e.body?.field === 'user_id' ? 'refusals.personNotAssigned' : 'refusals.youNotAssigned'),
  invoice_has_payments: () => t('refusals.invoiceHasPayments'),
  no_working_day: () => t('refusals.noWorkingDay'),
  more_than_a_day: (e) => t('refusals.moreThanADay', { count: countOf(e, 'working_days') }),
  not_plannable: () => t('refusals.notPlannable'),
  invoice_state: (e) => t('refusals.invoiceState', { state: t(`refusals.invoiceStates.${stateOf(e, INVOICE_STATES)}`) }),
  estimate_state: (e) => t('refusals.estimateState', { state: t(`refusals.estimateStates.${stateOf(e, ESTIMATE_STATES)}`) }),
};

/** A wait as people say it: seconds up to two minutes, then whole minutes (a failed-sign-in lock is 15 min, not 900 s). */
const wait = (seconds: number) => (seconds < 120 ? t('errors.seconds', { count: seconds }) : t('errors.minutes', { count: Math.ceil(seconds / 60) }));

export function describeError(error: unknown): Described {
  if (error instanceof NetworkError) return { message: t('errors.network') };
  if (!(error instanceof HttpError)) return { message: t('errors.unknown') };
  const code = error.code ?? (error.status === 429 ? 'rate_limited' : error.status >= 500 ? 'internal_error' : undefined);
  const refusal = typeof error.body?.refusal === 'string' ? REFUSALS[error.body.refusal] : undefined;
  const sentence = refusal ?? (code ? SENTENCES[code] : undefined);
  const message = sentence?.(error) ?? error.body?.message ?? (error.status >= 500 ? SENTENCES.internal_error(error) : t('errors.unknown'));
  const field = typeof error.body?.field === 'string' ? error.body.field : undefined;
  return { message, field, retryAfter: error.retryAfter, code };
}

/** True for an answer meaning "not signed in" (as opposed to a failure to ask). */
export const isUnauthorized = (error: unknown) => error instanceof HttpError && error.status === 401;

/**
 * A failed submit, split for a form: a message about one of the form's `fields` goes
 * under that field (React Aria's `validationErrors`); anything else, including a field
 * the form does not show, is one alert above the form.
 */
export function formErrors(error: unknown, fields: readonly string[]): { fieldErrors?: Record<string, string>; summary?: string } {
  if (!error) return {};
  const { message, field } = describeError(error);
  return field && fields.includes(field) ? { fieldErrors: { [field]: message } } : { summary: message };
}
