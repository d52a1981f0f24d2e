import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler, onResponseHookHandler } from 'fastify';
import { isApiKeyToken } from '../auth/keys.ts';
import { KEY_PREFIX_CHARS, ValidKeys } from '../auth/valid-keys.ts';
import { bearerToken } from '../auth/credential-headers.ts';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import { appendRouteHook } from './route-hooks.ts';
import { memoryStore, redisStore, type Hits, type Store, type Window } from './rate-limit-stores.ts';

export type RateLimitConfig = Config['rateLimit'];

/**
 * Two fixed-window budgets, both checked before authentication so a refused
 * request costs no database lookup:
 *
 * - per credential: `max` requests per `windowMs`, keyed on the bearer token as
 *   authentication parses it (bearerToken), so `bearer K`, `BEARER K` and
 *   `Bearer  K ` are one budget; the Service-Account-Id header is not part of
 *   the key (the token alone is the credential: a key's secret, or a JWT that
 *   names its workspace). Requests without a token count per client address.
 * - per client address, for credentials that fail: a request with a token that
 *   may not be valid reserves one unit of its address's budget before
 *   authentication (atomically with reading the count, so a concurrent burst of
 *   N bad keys costs at most `invalidMax` lookups, not N); the unit goes back when
 *   the token authenticates. Once an address has `invalidMax` units out in a
 *   window, such requests get 429 without a lookup, but only if they cannot be
 *   valid: an API key that the process's list of keys (ValidKeys) does not hold
 *   after a top-up that started after it arrived. Listed keys never reserve and
 *   are never refused for their address; JWTs not seen to work lately are.
 *
 * 429s carry `Retry-After`; every answer carries the draft `RateLimit-*` headers.
 * Counters live in memory, or in Redis when REDIS_URL is set so several API
 * nodes share them (falling back to this process while Redis is out: see
 * redisStore). The keys are hashes: the store never holds a secret.
 *
 * Built in rather than @fastify/rate-limit: on the hot path (every request) the
 * plugin cost about twice the CPU of this hook, which the users/me benchmark
 * showed (see docs/decisions.md).
 */
export async function registerRateLimit(app: FastifyInstance, config: RateLimitConfig) {
  const store: Store = config.redisUrl
    ? await redisStore({ url: config.redisUrl, prefix: config.redisPrefix, windowMs: config.windowMs }, app.log)
    : memoryStore(config.windowMs);
  app.addHook('onClose', () => store.close());
  app.decorate('rateLimitMode', () => store.mode);
  app.decorateRequest('rateLimitKey', null);
  app.decorateRequest('tokenHash', null);
  app.decorateRequest('rateLimitReserved', null);
  app.decorateRequest('rateLimitApiKey', false);
  const known = new KnownCredentials();
  const validKeys = new ValidKeys(app.db, config.keyRefreshMs);
  await validKeys.load();
  app.decorate('validKeys', validKeys);

  const release = (request: FastifyRequest) => {
    const reservedKey = request.rateLimitReserved;
    request.rateLimitReserved = null;
    if (reservedKey !== null) store.release(reservedKey, Date.now());
  };

  const overBudget = (reply: FastifyReply, reserved: Window) =>
    refuse(reply, config.invalidMax, reserved, 'Too many requests with invalid credentials from this address');

  const decide = (request: FastifyRequest, reply: FastifyReply, { counted, reserved }: Hits, done: HookHandlerDoneFunction) => {
    if (counted.count > config.max) {
      // Refused before the lookup: the unit reserved for it goes back.
      if (reserved) release(request);
      return done(refuse(reply, config.max, counted, 'Rate limit reached'));
    }
    headers(reply, config.max, counted);
    if (!reserved || reserved.count <= config.invalidMax) return done();
    const key = request.rateLimitKey!;
    if (!request.rateLimitApiKey) {
      request.rateLimitReserved = null;
      return done(overBudget(reply, reserved));
    }
    // An API key this process does not list, from an address over its budget: refused
    // only if it is still not listed after a top-up that started after it arrived.
    validKeys.refresh().then(
      () => {
        if (validKeys.has(key.slice(2, 2 + KEY_PREFIX_CHARS))) {
          release(request);
          done();
        } else {
          request.rateLimitReserved = null;
          done(overBudget(reply, reserved));
        }
      },
      (err: unknown) => {
        request.log.warn({ err }, 'could not top up the list of API keys');
        request.rateLimitReserved = null;
        done(overBudget(reply, reserved));
      },
    );
  };

  const limit: onRequestHookHandler = (request, reply, done) => {
    // The API calls an /mcp request's tools make (app.inject, with its credential) count too:
    // one message may carry a batch of tool calls, and a tool may read many pages.
    const token = bearerToken(request.headers.authorization);
    const now = Date.now();
    let key: string;
    if (token === undefined) {
      key = `a:${request.ip}`;
    } else {
      // The same digest authentication looks an API key up by (hashKey): made once per request.
      const hash = createHash('sha256').update(token).digest();
      request.tokenHash = hash;
      request.rateLimitKey = key = `c:${hash.toString('base64url')}`;
      // A token not known to possibly work reserves its lookup from the address's budget before it is made.
      if (isApiKeyToken(token)) {
        request.rateLimitApiKey = true;
        if (!validKeys.has(key.slice(2, 2 + KEY_PREFIX_CHARS))) request.rateLimitReserved = failuresKey(request.ip);
      } else if (!known.has(key, now)) {
        request.rateLimitReserved = failuresKey(request.ip);
      }
    }
    const hits = store.hit(key, request.rateLimitReserved ?? undefined, now);
    if (!(hits instanceof Promise)) return decide(request, reply, hits, done);
    // The Redis store answers from its fallback rather than reject; `done` is there for a bug.
    hits.then((h) => decide(request, reply, h, done), done);
  };

  // After the answer, so it adds nothing to the response time: learn how authentication went.
  const learn: onResponseHookHandler = (request, reply, done) => {
    const key = request.rateLimitKey;
    if (key !== null) {
      if (reply.statusCode === 401) {
        if (!request.rateLimitApiKey) known.forget(key);
        // A 401 whose lookup reserved nothing (a listed key in the wrong workspace, or
        // revoked; a known JWT that stopped working) counts now.
        if (request.rateLimitReserved === null) void store.hit(failuresKey(request.ip), undefined, Date.now());
      } else if (request.principal) {
        if (request.rateLimitApiKey) {
          // Keys created after the last top-up join the list at their first success.
          if (request.rateLimitReserved !== null) validKeys.add(request.tokenHash!);
        } else {
          known.remember(key, Date.now());
        }
        // The lookup found a working credential: only failures use up the budget.
        release(request);
      }
    }
    done();
  };

  // A public route that opted in: its requests carry no credential to count, so they count per address.
  const perAddress: onRequestHookHandler = (request, reply, done) => {
    const decideAddress = ({ counted }: Hits) => {
      if (counted.count > config.max) return done(refuse(reply, config.max, counted, 'Rate limit reached'));
      headers(reply, config.max, counted);
      done();
    };
    const hits = store.hit(`a:${request.ip}`, undefined, Date.now());
    if (!(hits instanceof Promise)) return decideAddress(hits);
    hits.then(decideAddress, done);
  };

  app.addHook('onRoute', (route) => {
    if (route.config?.access === 'public') {
      if (route.config.rateLimit === 'address') appendRouteHook(route, 'onRequest', perAddress);
      return;
    }
    appendRouteHook(route, 'onRequest', limit);
    appendRouteHook(route, 'onResponse', learn);
  });
}

const failuresKey = (address: string) => `f:${address}`;

function headers(reply: FastifyReply, limit: number, window: Window): number {
  const reset = Math.max(1, Math.ceil(window.ttl / 1000));
  reply.header('RateLimit-Limit', String(limit));
  reply.header('RateLimit-Remaining', String(Math.max(0, limit - window.count)));
  reply.header('RateLimit-Reset', String(reset));
  return reset;
}

function refuse(reply: FastifyReply, limit: number, window: Window, reason: string): ApiError {
  const reset = headers(reply, limit, window);
  reply.header('Retry-After', String(reset));
  return new ApiError('rate_limited', `${reason}: wait ${reset} seconds before retrying.`, { retry_after: reset });
}

/** How long a credential counts as known after it last authenticated. */
const KNOWN_TTL_MS = 60 * 60 * 1000;
/** At most this many known credentials per process; the least recently refreshed go first. */
const KNOWN_MAX = 50_000;

/**
 * Credentials (their limiter keys) that authenticated lately in this process.
 * A revoked one stays known until its next 401 at most: it still goes through
 * authentication, limited by its own per-credential budget.
 */
class KnownCredentials {
  private readonly until = new Map<string, number>();

  has(key: string, now: number): boolean {
    const until = this.until.get(key);
    return until !== undefined && until > now;
  }

  remember(key: string, now: number) {
    const until = this.until.get(key);
    // Refreshed at most every half TTL: on the hot path this is one map lookup.
    if (until !== undefined && until - now > KNOWN_TTL_MS / 2) return;
    this.until.delete(key);
    this.until.set(key, now + KNOWN_TTL_MS);
    if (this.until.size > KNOWN_MAX) this.until.delete(this.until.keys().next().value!);
  }

  /** Whether it was known. */
  forget(key: string): boolean {
    return this.until.delete(key);
  }
}
