/**
 * The one error type of the API, thrown by every layer (services, access rules,
 * authentication); src/http/errors.ts turns it into the response. Every error response has the same body:
 * `{"error": code, "error_description": text, "message": text}` plus named extras
 * (`field`, `running_entry`, `preflight`, ...). The status follows from the code:
 * STATUS_BY_CODE lists every code the service answers with, and only those.
 */
const STATUS_BY_CODE = {
  invalid_request: 400,
  invalid_json: 400,
  unknown_field: 400,
  /** A reserved external_reference.service whose built-in integration is not enabled. */
  integration_not_enabled: 400,
  /** A one-time link (sign-in, invitation, password reset) used, expired or replaced. */
  link_invalid: 400,
  unauthorized: 401,
  /** A web sign-in with a wrong e-mail address or password. */
  invalid_credentials: 401,
  /** A wrong, used or replayed two-factor code (or recovery code) at sign-in. */
  invalid_code: 401,
  /** A passkey Sheaf does not know, or whose signature does not verify, at sign-in. */
  passkey_refused: 401,
  forbidden: 403,
  /** A web-only operation without a signed-in session. */
  session_required: 403,
  /** A web mutation without a valid CSRF token or from another origin. */
  csrf_failed: 403,
  /** The workspace requires a second factor and this session's person has none yet: only setting one up is open. */
  two_factor_enrolment_required: 403,
  /** A right password of a person whose every workspace signs in through its identity provider only (single sign-on). */
  password_sign_in_disabled: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 409,
  idempotency_permission_changed: 409,
  email_taken: 409,
  /** Starting a timer while another runs (spec: running timer conflict body). */
  running_timer_conflict: 409,
  timer_not_running: 409,
  timer_already_running: 409,
  /** A time entry or expense billed on an invoice, or a week holding approved time. */
  time_entry_locked: 409,
  expense_locked: 409,
  approved_timesheet_week_locked: 409,
  /** Approvals (spec: approval error codes), and a withdrawal refused because billed work depends on it. */
  running_timer: 409,
  submission_stale: 409,
  approval_blocked: 409,
  approval_warnings_unacknowledged: 409,
  approval_preflight_stale: 409,
  approval_conflict: 409,
  approval_withdrawal_billed: 409,
  /** A change-feed cursor from before a change the retention deleted: the client must read everything again. */
  cursor_expired: 410,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** An e-invoice of an invoice that lacks data EN 16931 requires; `missing_fields` names each. */
  e_invoice_incomplete: 422,
  precondition_required: 428,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof STATUS_BY_CODE;

/** Every code of the API, in the table's order (the OpenAPI document's enum of `error`). */
export const ERROR_CODES = Object.keys(STATUS_BY_CODE) as ErrorCode[];

export class ApiError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extras: Record<string, unknown> = {},
  ) {
    super(message);
    this.statusCode = STATUS_BY_CODE[code];
  }

  body() {
    return { error: this.code, error_description: this.message, message: this.message, ...this.extras };
  }
}

/**
 * A 4xx that Fastify or one of its plugins raised and that has no code of its own
 * (src/http/errors.ts): its body says invalid_request, its status stays the one
 * Fastify gave (406, 400, ...). The one status that does not follow from the code:
 * a code per status would change the bodies, and the spec names no such codes.
 */
export class FrameworkError extends ApiError {
  declare readonly statusCode: number;
  constructor(status: number, message: string) {
    super('invalid_request', message);
    this.statusCode = status;
  }
}

/**
 * Why a rule refused a request, for the refusals a person meets in the web app: the error body's
 * `refusal`, beside the counts or field it names. The web app words it in the reader's language
 * (web/src/api/errors.ts); `message` stays the English sentence API clients show. A refusal whose
 * English and code already say it all (week locks, timers, taken e-mail) keeps its own `error`.
 */
export type Refusal =
  /** Another record of the workspace has the name (clients, projects, tasks, categories, …). */
  | 'name_taken'
  /** Another invoice or estimate of the workspace has the number. */
  | 'number_taken'
  /** Only an archived client or project is deleted. */
  | 'archive_first'
  /** `active_project_count` of the client's projects are active, so it is not archived. */
  | 'client_has_active_projects'
  /** The client has `project_count` projects, so it is not deleted. */
  | 'client_has_projects'
  /** The client has `invoice_count` invoices, so it is never deleted. */
  | 'client_has_invoices'
  /** A project of an archived client is not restored. */
  | 'client_archived'
  /** `running_entry_count` timers run on the project, so it is not deleted. */
  | 'project_has_running_timers'
  /** The person or task is on the project already. */
  | 'already_assigned'
  /** The workspace's last active owner keeps that role. */
  | 'last_owner'
  /** The address has a pending invitation (`invitation_id`). */
  | 'invitation_pending'
  /** The address is a member already. */
  | 'already_member'
  /** An approval of the person's time is being written; a moment later the write goes through. */
  | 'approval_in_progress'
  /** The invoice's `state` (draft, open, paid, closed, voided) does not allow this any more: someone changed it meanwhile. */
  | 'invoice_state'
  /** A plan's range has no working day of its person or role (planning). */
  | 'no_working_day'
  /** A plan's total over its `working_days` is more than 24 hours a day (planning). */
  | 'more_than_a_day'
  /** Plans are for the people and placeholders the planner shows: this one left, is an agent, or is archived (planning). */
  | 'not_plannable'
  /** Payments are recorded on the invoice (`paid_amount`, `currency`): a void would strand them. */
  | 'invoice_has_payments'
  /** The estimate's `state` does not allow this any more. */
  | 'estimate_state'
  /** Time and expenses are not recorded on an archived project. */
  | 'project_archived'
  /** The project is not one the caller may record on (gone, another workspace's, or no longer theirs). */
  | 'project_unavailable'
  /** The caller (field project_id) or the person (field user_id) is not on the project. */
  | 'not_assigned'
  /** A webhook URL that cannot be an endpoint's (integrations/webhooks/rules.ts, URL_REFUSALS). */
  | 'not_absolute'
  | 'scheme'
  | 'credentials'
  | 'private_address';

/** Named extras of an error body; `refusal` is one of the words above. */
export type ErrorExtras = Record<string, unknown> & { refusal?: Refusal };

export const badRequest = (message: string, extras?: ErrorExtras) =>
  new ApiError('invalid_request', message, extras);
export const unauthorized = (message: string) => new ApiError('unauthorized', message);
export const forbidden = (message: string) => new ApiError('forbidden', message);
export const notFound = (what = 'record') => new ApiError('not_found', `The ${what} was not found.`);
export const conflict = (message: string, extras?: ErrorExtras) => new ApiError('conflict', message, extras);
