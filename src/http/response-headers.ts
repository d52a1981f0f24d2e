import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Headers every response carries: `X-Service-Features` always; and, on anything
 * that depends on the credential (every non-public route, and errors on /api/v2),
 * `Cache-Control: private, no-store` with `Vary: Authorization, Service-Account-Id, Cookie`
 * so no shared cache ever hands one caller's data to another.
 */
export function setResponseHeaders(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  reply.header('X-Service-Features', app.features.header());
  const access = request.routeOptions?.config?.access;
  const credentialDependent = access ? access !== 'public' : request.url.startsWith('/api/v2');
  if (credentialDependent) {
    reply.header('Cache-Control', 'private, no-store');
    reply.header('Vary', 'Authorization, Service-Account-Id, Cookie');
  }
}

export function registerResponseHeaders(app: FastifyInstance) {
  // A callback hook, not an async one: it runs on every response.
  app.addHook('onSend', (request, reply, payload, done) => {
    setResponseHeaders(app, request, reply);
    done(null, payload);
  });
}
