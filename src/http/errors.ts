import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The one error type of the API. Every error response has the same body:
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
  conflict: 409,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 409,
  idempotency_permission_changed: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  precondition_required: 428,
  rate_limited: 429,
  internal_error: 500,
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

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Turns a schema validation failure into a message that names the offending field. */
export function validationError(errors: AjvError[], part: string): ApiError {
  const e = errors[0];
  const where = part === 'querystring' ? 'query parameter' : part === 'body' ? 'field' : part;
  const path = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (e.keyword === 'additionalProperties') {
    const field = [path, e.params.additionalProperty].filter(Boolean).join('.');
    return new ApiError('unknown_field', `Unknown ${where} '${field}'.`, { field });
  }
  if (e.keyword === 'required') {
    const field = [path, e.params.missingProperty].filter(Boolean).join('.');
    return new ApiError('invalid_request', `Missing required ${where} '${field}'.`, { field });
  }
  if (!path) {
    const message = part === 'body' ? `The request body ${e.message}.` : `The ${where}s ${e.message}.`;
    return new ApiError('invalid_request', message);
  }
  return new ApiError('invalid_request', `Invalid ${where} '${path}': ${e.message}.`, { field: path });
}

/** Maps Fastify's own errors (body parsing, limits, content type) to the API's codes. */
function fromFastifyError(err: FastifyError): ApiError | null {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large', 'The request body is larger than the 128 KiB limit.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', 'Request bodies must be application/json.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_json', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('invalid_request', 'The Content-Length header does not match the body.');
  }
  if (err instanceof SyntaxError) return new ApiError('invalid_json', 'The request body is not valid JSON.');
  const status = err.statusCode ?? 500;
  if (status === 413) return new ApiError('payload_too_large', 'The request body is too large.');
  if (status === 415) return new ApiError('unsupported_media_type', 'Request bodies must be application/json.');
  if (status >= 400 && status < 500) return new ApiError('invalid_request', err.message, {}, status);
  return null;
}

export function sendError(reply: FastifyReply, err: ApiError) {
  return reply.code(err.statusCode).type('application/json; charset=utf-8').send(err.body());
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ApiError) return sendError(reply, err);
    if (err.validation) return sendError(reply, validationError(err.validation as AjvError[], err.validationContext ?? 'body'));
    const mapped = fromFastifyError(err);
    if (mapped) return sendError(reply, mapped);
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, new ApiError('internal_error', 'The server could not complete the request.'));
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new ApiError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)),
  );
}
