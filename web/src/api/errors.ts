import { HttpError, NetworkError } from './call.ts';

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
  rate_limited: (e) => (e.retryAfter ? `Too many attempts. Try again in ${duration(e.retryAfter)}.` : 'Too many attempts. Try again in a moment.'),
  link_invalid: () => 'This link is invalid, has expired or was already used.',
  csrf_failed: () => 'This page is out of date with your session. Reload it and try again.',
  session_required: () => 'This is only available in the web app, signed in.',
  unauthorized: () => 'Your session has ended. Sign in again.',
  forbidden: (e) => e.body?.message ?? 'You do not have permission to do this.',
  not_found: () => 'This was not found. It may have been deleted.',
  precondition_failed: () => 'Someone else changed this. Load their version and try again.',
  idempotency_key_in_use: () => 'This is already being saved. Wait a moment.',
  running_timer: () => 'Stop your running timer before submitting this week.',
  submission_stale: () => 'This period changed since you reviewed it.',
  approval_preflight_stale: () => 'This period changed since you reviewed it.',
  approval_conflict: () => 'Time changed while approving. Try again.',
  approved_timesheet_week_locked: () => 'This week is approved and locked.',
  internal_error: () => 'The server could not complete the request. Try again in a moment.',
  service_unavailable: (e) =>
    e.retryAfter ? `Sheaf is unavailable right now. Try again in ${duration(e.retryAfter)}.` : 'Sheaf is unavailable right now. Try again in a moment.',
};

/** A wait as people say it: seconds up to two minutes, then whole minutes (a failed-sign-in lock is 15 min, not 900 s). */
const duration = (seconds: number) => (seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`);

const NETWORK = 'Sheaf cannot be reached. Check your connection and try again.';
const UNKNOWN = 'Something went wrong. Try again.';

export function describeError(error: unknown): Described {
  if (error instanceof NetworkError) return { message: NETWORK };
  if (!(error instanceof HttpError)) return { message: UNKNOWN };
  const code = error.code ?? (error.status === 429 ? 'rate_limited' : error.status >= 500 ? 'internal_error' : undefined);
  const sentence = code ? SENTENCES[code] : undefined;
  const message = sentence?.(error) ?? error.body?.message ?? (error.status >= 500 ? SENTENCES.internal_error(error) : UNKNOWN);
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
