import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import { ApiError } from '../errors.ts';
import { appendRouteHook } from './route-hooks.ts';

export interface RateLimitConfig {
  max: number;
  windowMs: number;
  redisUrl?: string;
}

interface Hit {
  count: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

interface Store {
  hit(key: string, now: number): Hit | Promise<Hit>;
  close(): Promise<void>;
}

/**
 * Per-credential rate limit: a fixed window of `windowMs` allowing `max`
 * requests, then 429 with `Retry-After` and the draft `RateLimit-*` headers.
 * Counters live in memory, or in Redis when REDIS_URL is set so several API
 * nodes share them. The key is a hash of the credential headers (the client IP
 * without them), so the store never holds a secret; it runs before
 * authentication, so floods of bad keys are limited too.
 *
 * Built in rather than @fastify/rate-limit: on the hot path (every request) the
 * plugin cost about twice the CPU of this hook, which the users/me benchmark
 * showed (see docs/decisions.md).
 */
export async function registerRateLimit(app: FastifyInstance, config: RateLimitConfig) {
  const store = config.redisUrl ? redisStore(config.redisUrl, config.windowMs) : memoryStore(config.windowMs);
  app.addHook('onClose', () => store.close());
  const limit = String(config.max);

  const answer = (reply: FastifyReply, hit: Hit): ApiError | undefined => {
    const reset = Math.max(1, Math.ceil(hit.ttl / 1000));
    reply.header('RateLimit-Limit', limit);
    reply.header('RateLimit-Remaining', String(Math.max(0, config.max - hit.count)));
    reply.header('RateLimit-Reset', String(reset));
    if (hit.count <= config.max) return undefined;
    reply.header('Retry-After', String(reset));
    return new ApiError('rate_limited', `Rate limit reached: wait ${reset} seconds before retrying.`, { retry_after: reset });
  };

  const hook: onRequestHookHandler = (request, reply, done) => {
    const hit = store.hit(credentialKey(request), Date.now());
    if (!(hit instanceof Promise)) return done(answer(reply, hit));
    hit.then(
      (h) => done(answer(reply, h)),
      (err) => {
        // A store outage must not take the API down: let the request through.
        request.log.error({ err }, 'rate limit store unavailable');
        done();
      },
    );
  };

  app.addHook('onRoute', (route) => {
    if (route.config?.access !== 'public') appendRouteHook(route, 'onRequest', hook);
  });
}

function credentialKey(request: FastifyRequest): string {
  const auth = request.headers.authorization;
  if (!auth) return `ip:${request.ip}`;
  const account = request.headers['service-account-id'] ?? '';
  return createHash('sha256').update(auth).update('\n').update(String(account)).digest('base64url');
}

function memoryStore(windowMs: number): Store {
  const windows = new Map<string, { count: number; resetAt: number }>();
  // Drop finished windows now and then, so idle credentials do not accumulate.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
  }, Math.max(windowMs, 1000));
  sweep.unref();
  return {
    hit(key, now) {
      let w = windows.get(key);
      if (!w || w.resetAt <= now) windows.set(key, (w = { count: 0, resetAt: now + windowMs }));
      w.count++;
      return { count: w.count, ttl: w.resetAt - now };
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

function redisStore(url: string, windowMs: number): Store {
  const redis = new Redis(url, { connectTimeout: 1000, maxRetriesPerRequest: 1, enableAutoPipelining: true });
  // Connection errors surface on the commands hit() sends (and are logged there);
  // ioredis reconnects by itself, so the emitter's copy needs no second report.
  redis.on('error', () => {});
  return {
    async hit(key) {
      const redisKey = `sheaf:rl:${key}`;
      // The first hit of a window sets its expiry; later hits only count.
      const results = await redis.multi().incr(redisKey).pexpire(redisKey, windowMs, 'NX').pttl(redisKey).exec();
      const count = Number(results?.[0]?.[1] ?? 0);
      const ttl = Number(results?.[2]?.[1] ?? windowMs);
      return { count, ttl: ttl > 0 ? ttl : windowMs };
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
