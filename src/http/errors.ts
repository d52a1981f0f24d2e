import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, FrameworkError } from '../errors.ts';
import { unavailableError } from '../db/unavailable.ts';
import { setResponseHeaders } from './response-headers.ts';

/** Retry-After of a 503 while the database cannot be reached or a bounded wait ran out. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Maps errors to responses: the domain's ApiError (src/errors.ts) as it is, schema
 * validation failures and Fastify's own errors to the API's codes, anything else to 500.
 */

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
  if (status >= 400 && status < 500) return new FrameworkError(status, err.message);
  return null;
}

export function sendError(reply: FastifyReply, err: ApiError) {
  return reply.code(err.statusCode).type('application/json; charset=utf-8').send(err.body());
}

/**
 * Errors Fastify's router raises before any route or hook runs (a malformed
 * percent-encoding such as `/healthz%zz`, a path parameter over the length
 * limit): answered in the API's error shape instead of Fastify's own body.
 * Passed to Fastify as `frameworkErrors`.
 */
export function sendFrameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const message =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long.' : 'The URL is not valid (malformed percent-encoding, or not a path).';
  // No route, so no onSend hooks: the headers every response carries are set here.
  setResponseHeaders(request.server, request, reply);
  return sendError(reply, new ApiError('invalid_request', message));
}

/** The methods the API's routes use (HEAD answers every GET route). */
const ROUTED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The methods some route serves at `url`: a request no route matches is a 405
 * with `Allow` when the path exists under another method (RFC 9110 §15.5.6),
 * and a 404 only when no method serves it. Looked up only on that unmatched path.
 */
function allowedMethods(app: FastifyInstance, url: string): string[] {
  return ROUTED_METHODS.filter((method) => app.findRoute({ method, url }) !== null);
}

/**
 * What answers a GET or HEAD that no route serves under any method, before it is a
 * 404: the web app's pages and files (src/http/web-app.ts). It returns the reply when
 * it answered, undefined to leave the 404 to the API.
 */
export type PathFallback = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;
const pathFallbacks = new WeakMap<FastifyInstance, PathFallback>();

export function setPathFallback(app: FastifyInstance, fallback: PathFallback) {
  pathFallbacks.set(app, fallback);
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ApiError) return sendError(reply, err);
    if (err.validation) return sendError(reply, validationError(err.validation as AjvError[], err.validationContext ?? 'body'));
    const mapped = fromFastifyError(err);
    if (mapped) return sendError(reply, mapped);
    const unavailable = unavailableError(err);
    if (unavailable) {
      request.log.warn({ err }, 'database unavailable');
      reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendError(reply, unavailable);
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, new ApiError('internal_error', 'The server could not complete the request.'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = allowedMethods(app, request.url);
    if (allowed.length === 0) {
      const fallback = pathFallbacks.get(app);
      const answered = fallback && (request.method === 'GET' || request.method === 'HEAD') ? fallback(request, reply) : undefined;
      return answered ?? sendError(reply, new ApiError('not_found', `No route ${request.method} ${path}.`));
    }
    reply.header('Allow', allowed.join(', '));
    return sendError(reply, new ApiError('method_not_allowed', `${path} does not accept ${request.method}; it accepts ${allowed.join(', ')}.`));
  });
}
