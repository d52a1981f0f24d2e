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
  internal_error: () => t('errors.internal'),
  service_unavailable: (e) => (e.retryAfter ? t('errors.unavailable', { wait: wait(e.retryAfter) }) : t('errors.unavailableSoon')),
};

/** A wait as people say it: seconds up to two minutes, then whole minutes (a failed-sign-in lock is 15 min, not 900 s). */
const wait = (seconds: number) => (seconds < 120 ? t('errors.seconds', { count: seconds }) : t('errors.minutes', { count: Math.ceil(seconds / 60) }));

export function describeError(error: unknown): Described {
  if (error instanceof NetworkError) return { message: t('errors.network') };
  if (!(error instanceof HttpError)) return { message: t('errors.unknown') };
  const code = error.code ?? (error.status === 429 ? 'rate_limited' : error.status >= 500 ? 'internal_error' : undefined);
  const sentence = code ? SENTENCES[code] : undefined;
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
