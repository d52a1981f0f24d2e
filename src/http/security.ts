import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { authenticate, type AuthDeps } from '../auth/authenticate.ts';
import type { Principal } from '../auth/principal.ts';
import { assertRouteAccess, type RouteAccess } from '../access/policy.ts';
import { ApiError } from '../errors.ts';
import { permissionChangedReplay } from './idempotency.ts';
import { appendRouteHook } from './route-hooks.ts';

/**
 * Authentication and route-level access. Every route must declare `config.access`;
 * a route without one stops the server at registration. Non-public routes get an
 * onRequest hook (after the rate limiter) that authenticates and checks the
 * declared access before the body is even parsed, so 401/403 come before 400.
 */
export function registerSecurity(app: FastifyInstance, deps: AuthDeps) {
  app.decorateRequest('principal', null);
  const routes: RouteEntry[] = [];
  app.decorate('routeCatalog', routes);

  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access) throw new Error(`route ${route.method} ${route.url} declares no access requirement`);
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url, access });
    if (access === 'public') return;
    const routeUrl = route.url;
    const idempotent = route.config?.idempotent === true;
    const guard: onRequestHookHandler = async (request) => {
      const principal = await authenticate(request.raw, deps);
      request.principal = principal;
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
}

/** The authenticated caller of a non-public route. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('principalOf() called on a public route');
  return request.principal;
}
