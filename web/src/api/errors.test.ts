import { describe, expect, it } from 'vitest';
import { HttpError, NetworkError, type ErrorBody } from './call.ts';
import { describeError, formErrors } from './errors.ts';

const fail = (status: number, body?: ErrorBody, headers: Record<string, string> = {}) =>
  new HttpError(status, body, new Headers(headers));
const body = (error: string, message = `server says ${error}`, extra: Partial<ErrorBody> = {}): ErrorBody => ({
  error,
  error_description: message,
  message,
  ...extra,
});

describe('describeError', () => {
  it('words the two-factor codes itself (invalid_code, two_factor_enrolment_required)', () => {
    expect(describeError(fail(401, body('invalid_code'))).message).toBe('That code is not right, or it was used already.');
    expect(describeError(fail(403, body('two_factor_enrolment_required'))).message).toBe('This workspace requires two-factor sign-in: set it up first.');
  });

  it('words a refused passkey itself (passkey_refused)', () => {
    expect(describeError(fail(401, body('passkey_refused'))).message).toBe(
      'Sheaf does not know this passkey, or it did not sign in: try again, or sign in another way.',
    );
  });

  it('words password sign-in turned off by single sign-on itself (password_sign_in_disabled)', () => {
    expect(describeError(fail(403, body('password_sign_in_disabled'))).message).toBe(
      'Your workspace signs in through its identity provider: use its sign-in button instead of a password.',
    );
  });

  it('shows the API message for codes the app does not word itself (invalid_credentials)', () => {
    expect(describeError(fail(401, body('invalid_credentials', 'The e-mail address or the password is wrong.'))).message).toBe(
      'The e-mail address or the password is wrong.',
    );
  });

  it('keeps the field of a validation error, so the form puts the message under it', () => {
    expect(describeError(fail(400, body('invalid_request', 'password must be at least 12 characters', { field: 'password' })))).toMatchObject({
      field: 'password',
      message: 'password must be at least 12 characters',
    });
  });

  it('rate_limited: the seconds from Retry-After', () => {
    const described = describeError(fail(429, body('rate_limited'), { 'retry-after': '42' }));
    expect(described).toMatchObject({ message: 'Too many attempts. Try again in 42 s.', retryAfter: 42 });
  });

  it('rate_limited: a long wait in minutes (a locked sign-in waits 15 minutes, not 900 s)', () => {
    expect(describeError(fail(429, body('rate_limited'), { 'retry-after': '900' })).message).toBe('Too many attempts. Try again in 15 min.');
    expect(describeError(fail(429, body('rate_limited'), { 'retry-after': '119' })).message).toBe('Too many attempts. Try again in 119 s.');
  });

  it('rate_limited without a body (a proxy answered) still counts as rate limited', () => {
    expect(describeError(fail(429, undefined, { 'retry-after': '3' })).message).toBe('Too many attempts. Try again in 3 s.');
    expect(describeError(fail(429)).message).toBe('Too many attempts. Try again in a moment.');
  });

  const worded: [string, number, string][] = [
    ['link_invalid', 400, 'This link is invalid, has expired or was already used.'],
    ['csrf_failed', 403, 'This page is out of date with your session. Reload it and try again.'],
    ['session_required', 403, 'This is only available in the web app, signed in.'],
    ['unauthorized', 401, 'Your session has ended. Sign in again.'],
    ['not_found', 404, 'This was not found. It may have been deleted.'],
    ['precondition_failed', 412, 'Someone else changed this. Load their version and try again.'],
    ['idempotency_key_in_use', 409, 'This is already being saved. Wait a moment.'],
    ['running_timer', 409, 'Stop your running timer before submitting this week.'],
    ['submission_stale', 409, 'This period changed since you reviewed it.'],
    ['approval_preflight_stale', 409, 'This period changed since you reviewed it.'],
    ['approval_conflict', 409, 'Time changed while approving. Try again.'],
    ['approved_timesheet_week_locked', 409, 'This week is approved and locked.'],
    ['time_entry_locked', 409, 'This entry is billed on an invoice, so it no longer changes.'],
    ['expense_locked', 409, 'This expense is billed on an invoice, so it no longer changes.'],
    ['email_taken', 409, 'Another Sheaf account already uses this e-mail address.'],
    ['timer_not_running', 409, 'This timer is not running any more.'],
    ['timer_already_running', 409, 'This timer is running already.'],
    ['internal_error', 500, 'The server could not complete the request. Try again in a moment.'],
  ];
  it.each(worded)('%s: the app’s sentence', (code, status, sentence) => {
    expect(describeError(fail(status, body(code)))).toMatchObject({ message: sentence, code });
  });

  it('words a rule\'s refusal itself, before the code\'s sentence or the API\'s English', () => {
    const refused = (status: number, error: string, extra: Partial<ErrorBody>) => describeError(fail(status, body(error, 'English from the server', extra)));
    expect(refused(409, 'conflict', { refusal: 'name_taken', field: 'name' })).toEqual({ message: 'This name is already used in this workspace.', field: 'name', code: 'conflict' });
    expect(refused(409, 'conflict', { refusal: 'client_has_active_projects', active_project_count: 1 }).message).toBe('The client has 1 active project: archive it first.');
    expect(refused(409, 'conflict', { refusal: 'client_has_projects', project_count: 3 }).message).toBe('The client has 3 projects: delete them first.');
    expect(refused(409, 'conflict', { refusal: 'project_has_running_timers', running_entry_count: 2 }).message).toBe('2 timers are running on this project: stop them first.');
    // One word, two sentences: the field says who or what.
    expect(refused(409, 'conflict', { refusal: 'already_assigned', field: 'task_id' }).message).toBe('This task is on the project already.');
    expect(refused(409, 'conflict', { refusal: 'already_assigned', field: 'user_id' }).message).toBe('This person is on the project already.');
    expect(refused(400, 'invalid_request', { refusal: 'not_assigned', field: 'project_id' }).message).toBe('You are not on this project.');
    expect(refused(400, 'invalid_request', { refusal: 'not_assigned', field: 'user_id' }).message).toBe('This person is not on this project.');
    // Planning's and billing's refusals in words, with their numbers.
    expect(refused(400, 'invalid_request', { refusal: 'more_than_a_day', field: 'total_hours', working_days: 3 } as Partial<ErrorBody>).message).toBe(
      'That is more than 24 hours a day over its 3 working days: plan fewer hours or more days.',
    );
    expect(refused(400, 'invalid_request', { refusal: 'no_working_day', field: 'ends_on' }).message).toMatch(/^These days hold no working day/);
    expect(refused(409, 'conflict', { refusal: 'invoice_has_payments' }).message).toMatch(/^Payments are recorded on this invoice/);
    // A record's state changed meanwhile: the state in words.
    expect(refused(409, 'conflict', { refusal: 'invoice_state', state: 'paid' }).message).toBe('This invoice is paid now, so that is no longer possible: reload the page to see what changed.');
    expect(refused(409, 'conflict', { refusal: 'estimate_state', state: 'accepted', field: 'state' }).message).toBe(
      'This estimate is accepted now, so that is no longer possible: reload the page to see what changed.',
    );
    // A word this app does not know yet: the server's sentence.
    expect(refused(409, 'conflict', { refusal: 'newer_rule' }).message).toBe('English from the server');
  });

  it('forbidden: the API says what is missing', () => {
    expect(describeError(fail(403, body('forbidden', 'Only administrators can do this.'))).message).toBe('Only administrators can do this.');
  });

  it('service_unavailable with Retry-After', () => {
    expect(describeError(fail(503, body('service_unavailable'), { 'retry-after': '5' })).message).toBe(
      'Sheaf is unavailable right now. Try again in 5 s.',
    );
  });

  it('a 5xx without a body (a proxy page) never shows raw text', () => {
    expect(describeError(fail(502)).message).toBe('The server could not complete the request. Try again in a moment.');
  });

  it('no answer at all: the connection', () => {
    expect(describeError(new NetworkError(new TypeError('Failed to fetch'))).message).toBe(
      'Sheaf cannot be reached. Check your connection and try again.',
    );
  });

  it('anything else: a plain sentence, never a stack trace', () => {
    expect(describeError(new Error('x is undefined at foo.js:12')).message).toBe('Something went wrong. Try again.');
  });
});

describe('formErrors', () => {
  it('puts a message about a field of the form under that field', () => {
    const error = new HttpError(400, { error: 'invalid_request', message: 'password is too short', field: 'password' }, new Headers());
    expect(formErrors(error, ['password'])).toEqual({ fieldErrors: { password: 'password is too short' } });
  });
  it('shows a message about a field the form does not have as the summary, never drops it', () => {
    const error = new HttpError(400, { error: 'invalid_request', message: 'current_password is required', field: 'current_password' }, new Headers());
    expect(formErrors(error, ['password'])).toEqual({ summary: 'current_password is required' });
  });
  it('no error: nothing to show', () => {
    expect(formErrors(null, ['password'])).toEqual({});
  });
});
