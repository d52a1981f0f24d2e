import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { publicDocument } from '../../http/openapi.ts';

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
          200: Type.Object({ status: Type.Literal('ok') }),
          503: Type.Object({ status: Type.Literal('unavailable') }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(app.db);
        return { status: 'ok' as const };
      } catch {
        return reply.code(503).send({ status: 'unavailable' as const });
      }
    },
  );

  app.get(
    '/api/v2/openapi.json',
    { config: { access: 'public' }, schema: { hide: true } },
    async () => publicDocument(app),
  );

  app.get(
    '/web/api/openapi.json',
    { config: { access: 'public', web: true }, schema: { hide: true, operationId: 'getWebOpenApiDocument' } },
    async () => app.swagger(),
  );
}
