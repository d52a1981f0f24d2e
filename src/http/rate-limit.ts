import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { ApiError } from './errors.ts';

export interface RateLimitConfig {
  max: number;
  windowMs: number;
  redisUrl?: string;
}

/**
 * Per-credential rate limit (429 with `Retry-After` and the draft `RateLimit-*`
 * headers). Counters live in memory, or in Redis when REDIS_URL is set so that
 * several API nodes share them. The key is a hash of the credential headers, so
 * the limiter never holds a secret and runs before authentication.
 */
export async function registerRateLimit(app: FastifyInstance, config: RateLimitConfig) {
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));
  await app.register(rateLimit, {
    global: true,
    max: config.max,
    timeWindow: config.windowMs,
    redis,
    nameSpace: 'sheaf-rate-limit-',
    enableDraftSpec: true,
    keyGenerator: credentialKey,
    allowList: (request) => request.routeOptions.config?.access === 'public',
    errorResponseBuilder: (_request, context) =>
      new ApiError('rate_limited', `Rate limit reached: wait ${Math.ceil(context.ttl / 1000)} seconds before retrying.`, {
        retry_after: Math.ceil(context.ttl / 1000),
      }),
  });
}

function credentialKey(request: FastifyRequest): string {
  const auth = request.headers.authorization;
  if (!auth) return `ip:${request.ip}`;
  const account = request.headers['service-account-id'] ?? '';
  return `cred:${createHash('sha256').update(`${auth}\n${account}`).digest('base64url')}`;
}
