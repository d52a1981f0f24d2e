import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import type { RouteAccess } from '../access/policy.ts';
import type { Principal } from '../auth/principal.ts';
import type { Config } from '../config.ts';
import type { FeatureSet } from './features.ts';
import type { IdempotencyState } from './idempotency.ts';
import type { RouteEntry } from './security.ts';
import type { Store } from './rate-limit-stores.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; every route must declare it (the server refuses to start otherwise). */
    access?: RouteAccess;
    /** The route accepts an `Idempotency-Key` header. */
    idempotent?: boolean;
  }
  interface FastifyInstance {
    db: Kysely<DB>;
    config: Config;
    features: FeatureSet;
    routeCatalog: RouteEntry[];
    /** Where the rate limiter counts right now (src/http/rate-limit-stores.ts). */
    rateLimitMode: () => Store['mode'];
  }
  interface FastifyRequest {
    principal: Principal | null;
    idempotency: IdempotencyState | null;
    /** The rate limiter's key for the request's bearer token (null without one). */
    rateLimitKey: string | null;
  }
}
