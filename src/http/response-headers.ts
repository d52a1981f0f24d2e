import type { FastifyInstance } from 'fastify';

/**
 * Headers every response carries: `X-Service-Features` always; and, on anything
 * that depends on the credential (every non-public route, and errors on /api/v2),
 * `Cache-Control: private, no-store` with `Vary: Authorization, Service-Account-Id`
 * so no shared cache ever hands one caller's data to another.
 */
export function registerResponseHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Service-Features', app.features.header());
    const access = request.routeOptions.config?.access;
    const credentialDependent = access ? access !== 'public' : request.url.startsWith('/api/v2');
    if (credentialDependent) {
      reply.header('Cache-Control', 'private, no-store');
      reply.header('Vary', 'Authorization, Service-Account-Id');
    }
    return payload;
  });
}
