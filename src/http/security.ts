import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { authenticate, sessionToken, type AuthDeps } from '../auth/authenticate.ts';
import { findSession, type SessionRow } from '../auth/sessions.ts';
import type { Principal } from '../auth/principal.ts';
import { assertRouteAccess, type RouteAccess } from '../access/policy.ts';
import { ApiError, unauthorized } from '../errors.ts';
import { permissionChangedReplay } from './idempotency.ts';
import { appendRouteHook } from './route-hooks.ts';
import { assertSameOrigin, assertSessionCsrf } from './csrf.ts';

/**
 * Authentication and route-level access. Every route must declare `config.access`;
 * a route without one stops the server at registration. Non-public routes get an
 * onRequest hook (after the rate limiter) that authenticates and checks the
 * declared access before the body is even parsed, so 401/403 come before 400.
 * Web-app routes (`config.web`) accept only a browser session, and every change
 * made with a session passes the CSRF check (src/http/csrf.ts).
 */
const sameOrigin: onRequestHookHandler = async (request) => assertSameOrigin(request);

const sessionRequired = () => new ApiError('session_required', 'This operation is only available in the web app, signed in.');

export function registerSecurity(app: FastifyInstance, deps: AuthDeps) {
  app.decorateRequest('principal', null);
  app.decorateRequest('session', null);
  const routes: RouteEntry[] = [];
  app.decorate('routeCatalog', routes);

  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access) throw new Error(`route ${route.method} ${route.url} declares no access requirement`);
    const web = route.config?.web === true;
    if (access === 'signed-in' && !web) throw new Error(`route ${route.method} ${route.url}: 'signed-in' access is for web routes only`);
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url, access, web });
    if (access === 'signed-in') {
      // The person's own session, whatever its workspace: signing out, switching workspace, the password.
      const signedIn: onRequestHookHandler = async (request) => {
        const token = request.headers.authorization === undefined ? sessionToken(request.headers) : undefined;
        if (!token) throw request.headers.authorization === undefined ? unauthorized('Sign in first.') : sessionRequired();
        const session = await findSession(deps.db, token, deps.clock());
        if (!session) throw unauthorized('Your session has ended; sign in again.');
        assertSessionCsrf(request, session);
        request.session = session;
      };
      appendRouteHook(route, 'onRequest', signedIn);
      return;
    }
    if (access === 'public') {
      // A web route open without a session (sign-in, one-time links) is still only for our own pages.
      if (web) appendRouteHook(route, 'onRequest', sameOrigin);
      return;
    }
    const routeUrl = route.url;
    const idempotent = route.config?.idempotent === true;
    const guard: onRequestHookHandler = async (request) => {
      const { raw } = request;
      const principal = await authenticate({ headers: raw.headers, rawHeaders: raw.rawHeaders, tokenHash: request.tokenHash }, deps);
      request.principal = principal;
      if (web && principal.kind !== 'session') throw sessionRequired();
      if (principal.session) assertSessionCsrf(request, principal.session);
      try {
        assertRouteAccess(principal, request.method, routeUrl, access);
      } catch (err) {
        // A replayed Idempotency-Key after the permission was taken away is the spec's 409, not 403.
        if (idempotent && err instanceof ApiError && err.statusCode === 403) throw (await permissionChangedReplay(app, request)) ?? err;
        throw err;
      }
    };
    appendRouteHook(route, 'onRequest', guard);
  });
}

/** Every registered route with its declared access (the shared security tests walk it). */
export interface RouteEntry {
  method: string;
  url: string;
  access: RouteAccess;
  /** A web-app route: browser sessions only. */
  web: boolean;
}

/** The browser session of a 'signed-in' route. */
export function sessionOf(request: FastifyRequest): SessionRow {
  if (!request.session) throw new Error('sessionOf() called on a route without signed-in access');
  return request.session;
}

/** The authenticated caller of a non-public route. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('principalOf() called on a public route');
  return request.principal;
}
