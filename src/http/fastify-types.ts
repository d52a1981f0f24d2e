import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import type { RouteAccess } from '../access/policy.ts';
import type { Principal } from '../auth/principal.ts';
import type { SessionRow } from '../auth/sessions.ts';
import type { Config } from '../config.ts';
import type { FeatureSet } from './features.ts';
import type { IdempotencyClaim } from './idempotency.ts';
import type { RouteEntry } from './security.ts';
import type { Store } from './rate-limit-stores.ts';
import type { ValidKeys } from '../auth/valid-keys.ts';
import type { AfterAnswer } from './after-answer.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; every route must declare it (the server refuses to start otherwise). */
    access?: RouteAccess;
    /** The route accepts an `Idempotency-Key` header. */
    idempotent?: boolean;
    /** The route compares `If-Match` with the record's ETag (checkIfMatch); `required`: 428 without one. */
    ifMatch?: 'optional' | 'required';
    /**
     * A web-app operation (under /web/api): only a browser session may call it, never an
     * API key or JWT, so a leaked key cannot mint keys, members or settings.
     */
    web?: boolean;
    /**
     * A public route counted by the rate limiter per client address (a link that is its own
     * credential, such as a client's invoice page); other public routes are not counted.
     */
    rateLimit?: 'address';
  }
  interface FastifyInstance {
    db: Kysely<DB>;
    config: Config;
    features: FeatureSet;
    routeCatalog: RouteEntry[];
    /** Where the rate limiter counts right now (src/http/rate-limit-stores.ts). */
    rateLimitMode: () => Store['mode'];
    /** The API keys that may work (src/auth/valid-keys.ts). */
    validKeys: ValidKeys;
    /** Work started by a route and not waited for (src/http/after-answer.ts). */
    afterAnswer: AfterAnswer;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** The browser session of a route with 'signed-in' access. */
    session: SessionRow | null;
    /** The Idempotency-Key this request holds (set by the idempotency preHandler). */
    idempotency: IdempotencyClaim | null;
    /** The rate limiter's key for the request's bearer token (null without one). */
    rateLimitKey: string | null;
    /** SHA-256 of the bearer token, made once for the limiter's key and the key lookup (null without a token). */
    tokenHash: Buffer | null;
    /** The address budget this request reserved a lookup from (the limiter's key), until it is given back. */
    rateLimitReserved: string | null;
    /** The bearer token is an API key (`sheaf_…`), not a JWT. */
    rateLimitApiKey: boolean;
  }
}
