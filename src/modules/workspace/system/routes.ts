import { Type } from '@sinclair/typebox';
import { sql, type Kysely } from 'kysely';
import { publicDocument } from '../../../http/openapi.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import type { DB } from '../../../db/types.ts';

export async function systemRoutes(app: TypedApp) {
  app.get(
    '/livez',
    {
      config: { access: 'public' },
      // A probe every second or so would be most of the log at info: its lines from warn up only.
      logLevel: 'warn',
      // Not in the API document, like /healthz. Answers without touching the database,
      // so an orchestrator does not restart a process that is healthy but waiting for
      // its database: that process serves again by itself once the database is back.
      schema: {
        hide: true,
        tags: ['system'],
        summary: 'Liveness: the process answers',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/healthz',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      // Not in the API document: a probe for load balancers and orchestrators, not an
      // API v2 operation an SDK should offer (and it has no client error to document).
      schema: {
        hide: true,
        tags: ['system'],
        summary: 'Readiness: the database answers',
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
      if (await databaseAnswers(app.db, app.config.databaseTimeouts.connectMs)) return { status: 'ok' as const, rate_limit: app.rateLimitMode() };
      return reply.code(503).send({ status: 'unavailable' as const });
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

/**
 * Whether the database answers `select 1` within `ms` (0: however long it takes).
 * The probe's own bound: a stalled network or a pool busy to the last connection
 * makes it answer 503 in time, never hang (the abandoned query ends on the pool's
 * own bounds).
 */
async function databaseAnswers(db: Kysely<DB>, ms: number): Promise<boolean> {
  const answer = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  if (!ms) return answer;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}
