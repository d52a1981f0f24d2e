import type { FastifyRequest } from 'fastify';
import { csrfTokenMatches, type SessionRow } from '../auth/sessions.ts';
import { ApiError } from '../errors.ts';

/**
 * Cross-site request forgery protection for cookie-authenticated requests. The
 * cookie is SameSite=Lax and bodies must be JSON (a cross-site form cannot send
 * one), and on top: every change made with a session carries the session's token
 * in X-CSRF-Token (the web app reads it from GET /web/api/session), and a request
 * whose Origin names another site is refused. API keys and JWTs travel in a header
 * a foreign page cannot set, so they need neither.
 */
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const csrfFailed = (why: string) => new ApiError('csrf_failed', `${why} Reload the page and try again.`);

/** host[:port] as a URL writes it (a scheme's default port dropped); null when it is no URL. */
function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null; // "null" (an opaque origin) or garbage: never our own
  }
}

/** Refuses a request whose Origin header (browsers send it on every POST) is another site's. */
export function assertSameOrigin(request: FastifyRequest) {
  const origin = request.headers.origin;
  if (origin === undefined || SAFE_METHODS.has(request.method)) return;
  const own = hostOf(`${request.protocol}://${request.headers.host}`);
  if (own === null || hostOf(origin) !== own) throw csrfFailed('The request came from another site.');
}

export function assertSessionCsrf(request: FastifyRequest, session: SessionRow) {
  if (SAFE_METHODS.has(request.method)) return;
  assertSameOrigin(request);
  if (!csrfTokenMatches(session, request.headers[CSRF_HEADER])) {
    throw csrfFailed('The request lacks this session\u2019s X-CSRF-Token header.');
  }
}
