import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/** A fixed window's count so far and the milliseconds until it ends. */
export interface Window {
  count: number;
  ttl: number;
}

export interface Hits {
  /** The window of the key counted. */
  counted: Window;
  /** The window of the key reserved (counted too, in the same step), when one was asked for. */
  reserved: Window | undefined;
}

/** Where the rate limiter keeps its fixed-window counters. */
export interface Store {
  /**
   * Counts one request under `key` and, if `reserve` is given, one unit of that
   * budget too, atomically with reading its count: concurrent callers each see
   * the units reserved before theirs, so a burst cannot all pass one check.
   */
  hit(key: string, reserve: string | undefined, now: number): Hits | Promise<Hits>;
  /** Gives back a unit reserved by hit() (within the same window; a finished window is left alone). */
  release(key: string, now: number): void;
  /** Where the counters live right now (shown by /healthz). */
  readonly mode: 'memory' | 'redis' | 'memory-fallback';
  close(): Promise<void>;
}

export function memoryStore(windowMs: number): Store & { mode: 'memory'; seed(key: string, seen: Window, now: number): void } {
  const windows = new Map<string, { count: number; resetAt: number }>();
  // Drop finished windows now and then, so idle keys do not accumulate.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
  }, Math.max(windowMs, 1000));
  sweep.unref();
  const count = (key: string, now: number): Window => {
    let w = windows.get(key);
    if (!w || w.resetAt <= now) windows.set(key, (w = { count: 0, resetAt: now + windowMs }));
    w.count++;
    return { count: w.count, ttl: w.resetAt - now };
  };
  return {
    mode: 'memory',
    hit(key, reserve, now) {
      const counted = count(key, now);
      return { counted, reserved: reserve === undefined ? undefined : count(reserve, now) };
    },
    release(key, now) {
      const w = windows.get(key);
      if (w && w.resetAt > now && w.count > 0) w.count--;
    },
    /** Takes a count seen elsewhere (Redis) as this key's, unless this window has counted more. */
    seed(key, seen, now) {
      const w = windows.get(key);
      if (!w || w.resetAt <= now || w.count < seen.count) windows.set(key, { count: seen.count, resetAt: now + seen.ttl });
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

/**
 * How long a Redis command may take before the request is counted in this
 * process instead: Redis answers in well under a millisecond on a LAN, so
 * this only bounds what a hung or distant Redis adds to a request.
 */
const COMMAND_TIMEOUT_MS = 150;
/** ioredis's own limit: only drops the commands a hung Redis holds (answeredWithin decides for requests). */
const HUNG_COMMAND_MS = 5000;
/** How long the start waits for a first connection before starting on the fallback. */
const CONNECT_TIMEOUT_MS = 1000;
/** After a failed command, requests skip Redis this long, then one tries it again. */
const RETRY_AFTER_FAILURE_MS = 1000;

/**
 * Counters in Redis, shared by every API process, falling back to counting
 * in this process while Redis cannot answer: a limiter outage must neither
 * take the API down nor leave it unlimited, nor add seconds to each request.
 * Commands fail at once while disconnected (no offline queue) and after
 * COMMAND_TIMEOUT_MS when Redis hangs; the log says so once per outage, not
 * once per request.
 */
export async function redisStore(
  options: { url: string; prefix: string; windowMs: number },
  log: FastifyBaseLogger,
): Promise<Store> {
  const redis = new Redis(options.url, {
    keyPrefix: options.prefix,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: HUNG_COMMAND_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    enableAutoPipelining: true,
  });
  // Failures surface on the commands hit() sends (and are logged there, once per
  // outage); ioredis reconnects by itself, so the emitter's copy needs no report.
  redis.on('error', () => {});
  const fallback = memoryStore(options.windowMs);
  let failing = false;
  let retryAt = 0;
  // A reconnection is worth trying at once, without waiting out RETRY_AFTER_FAILURE_MS.
  redis.on('ready', () => void (retryAt = 0));

  const failed = (err: unknown) => {
    retryAt = Date.now() + RETRY_AFTER_FAILURE_MS;
    if (failing) return;
    failing = true;
    log.warn({ err }, 'rate limit store unavailable: counting requests per process until Redis answers again');
  };

  await connected(redis, CONNECT_TIMEOUT_MS);
  if (redis.status !== 'ready') failed(new Error(`Redis not reachable at start (${redis.status})`));

  const windowMs = options.windowMs;
  return {
    get mode() {
      return failing ? 'memory-fallback' : 'redis';
    },
    hit(key, reserve, now) {
      if (now < retryAt) return fallback.hit(key, reserve, now);
      // The first hit of a window sets its expiry; later hits only count.
      const tx = redis.multi().incr(key).pexpire(key, windowMs, 'NX').pttl(key);
      if (reserve !== undefined) tx.incr(reserve).pexpire(reserve, windowMs, 'NX').pttl(reserve);
      return answeredWithin(tx.exec(), COMMAND_TIMEOUT_MS)
        .then((results) => {
          if (!results) throw new Error('rate limit transaction discarded');
          const value = (i: number) => {
            const [err, v] = results[i]!;
            if (err) throw err;
            return Number(v ?? 0);
          };
          const ttl = (i: number) => (value(i) > 0 ? value(i) : windowMs);
          const hits = {
            counted: { count: value(0), ttl: ttl(2) },
            reserved: reserve === undefined ? undefined : { count: value(3), ttl: ttl(5) },
          };
          // Should Redis stop answering, this process counts on from what it last told, not from 0:
          // a fresh budget in every process at once is what a burst that outruns the timeout would get.
          fallback.seed(key, hits.counted, now);
          if (reserve !== undefined) fallback.seed(reserve, hits.reserved!, now);
          return hits;
        })
        .then(
          (hits) => {
            if (failing) {
              failing = false;
              log.info('rate limit store reachable again: counters are shared through Redis');
            }
            return hits;
          },
          (err: unknown) => {
            failed(err);
            return fallback.hit(key, reserve, now);
          },
        );
    },
    release(key, now) {
      if (now < retryAt) return fallback.release(key, now);
      // Only a window that still exists: a DECR of an expired key would start one at -1 without expiry.
      redis.eval(RELEASE_SCRIPT, 1, key).catch(failed);
    },
    async close() {
      await fallback.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

const RELEASE_SCRIPT = "if redis.call('exists', KEYS[1]) == 1 then return redis.call('decr', KEYS[1]) end return 0";

/**
 * The command's answer, or a rejection when it has not come within `ms`. Judged after the event
 * loop has read what arrived meanwhile (setImmediate runs after the poll phase): in a process
 * too busy to run its timer on time, an answer Redis gave on time is already in the socket,
 * and counting it a failure would send the process to its own counters for nothing.
 */
function answeredWithin<T>(command: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done();
    };
    const timer = setTimeout(() => setImmediate(() => settle(() => reject(new Error(`Redis did not answer within ${ms} ms`)))), ms);
    command.then(
      (value) => settle(() => resolve(value)),
      (err: unknown) => settle(() => reject(err)),
    );
  });
}

/** Resolves once the client is ready, has failed to connect, or `ms` has passed. */
function connected(redis: Redis, ms: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    redis.on('ready', done);
    redis.on('error', done);
  });
}
