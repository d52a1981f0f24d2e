/**
 * The one error type of the API, thrown by every layer (services, access rules,
 * authentication); src/http/errors.ts turns it into the response. Every error response has the same body:
 * `{"error": code, "error_description": text, "message": text}` plus named extras
 * (`field`, `running_entry`, `preflight`, ...). The status follows from the code.
 */
const STATUS_BY_CODE = {
  invalid_request: 400,
  invalid_json: 400,
  unknown_field: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 409,
  idempotency_permission_changed: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  precondition_required: 428,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof STATUS_BY_CODE;

export class ApiError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode | string,
    message: string,
    readonly extras: Record<string, unknown> = {},
    status?: number,
  ) {
    super(message);
    this.statusCode = status ?? STATUS_BY_CODE[code as ErrorCode] ?? 400;
  }

  body() {
    return { error: this.code, error_description: this.message, message: this.message, ...this.extras };
  }
}

export const badRequest = (message: string, extras?: Record<string, unknown>) =>
  new ApiError('invalid_request', message, extras);
export const unauthorized = (message: string) => new ApiError('unauthorized', message);
export const forbidden = (message: string) => new ApiError('forbidden', message);
export const notFound = (what = 'record') => new ApiError('not_found', `The ${what} was not found.`);
export const conflict = (message: string, extras?: Record<string, unknown>) => new ApiError('conflict', message, extras);
