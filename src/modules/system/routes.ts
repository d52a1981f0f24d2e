import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';

export async function systemRoutes(app: FastifyInstance) {
  app.get(
    '/healthz',
    {
      config: { access: 'public' },
      // Not in the API document: a probe for load balancers and orchestrators, not an
      // API v2 operation an SDK should offer (and it has no client error to document).
      schema: {
        hide: true,
        tags: ['system'],
        summary: 'Liveness and database health',
        response: {
          200: Type.Object({
            status: Type.Literal('ok'),
            // Where rate limits are counted: a Redis outage degrades limits to per process, not the API.
            rate_limit: Type.Union([Type.Literal('memory'), Type.Literal('redis'), Type.Literal('memory-fallback')]),
          }),
          503: Type.Object({ status: Type.Literal('unavailable') }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(app.db);
        return { status: 'ok' as const, rate_limit: app.rateLimitMode() };
      } catch {
        return reply.code(503).send({ status: 'unavailable' as const });
      }
    },
  );

  app.get(
    '/api/v2/openapi.json',
    { config: { access: 'public' }, schema: { hide: true } },
    async () => app.swagger(),
  );
}
