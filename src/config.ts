import { isIP } from 'node:net';
import { systemClock, type Clock } from './clock.ts';
import type { JwtConfig } from './auth/jwt.ts';

export interface Config {
  port: number;
  host: string;
  /** PostgreSQL; when absent, the embedded PGlite database in `dataDir`. */
  databaseUrl?: string;
  databaseSchema?: string;
  databasePoolSize: number;
  /** PGlite data directory; null keeps the embedded database in memory (tests). */
  dataDir: string | null;
  rateLimit: {
    max: number;
    windowMs: number;
    /** Requests refused with 401 one client address may make per window before unknown credentials from it get 429. */
    invalidMax: number;
    redisUrl?: string;
    /** Prepended to every rate-limit key in Redis (several installs, or test runs, can share one Redis). */
    redisPrefix: string;
  };
  /**
   * Which proxies' X-Forwarded-For to believe for the client address: false (the
   * default: the TCP peer is the client) or the proxies' addresses / CIDR ranges
   * (Fastify's `trustProxy`).
   */
  trustProxy: false | string[];
  smtpUrl?: string;
  /** How often the outbox worker looks for due e-mails (with SMTP_URL set). Tests shorten it. */
  outboxIntervalMs: number;
  jwt: JwtConfig | null;
  logLevel: string;
  clock: Clock;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min}`);
  return value;
}

const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: the proxies whose X-Forwarded-For names the client, as addresses,
 * CIDR ranges or proxy-addr's names (`loopback`, `linklocal`, `uniquelocal`).
 * Neither `true` nor a hop count: with either, a client that reaches the API
 * directly could choose the address its limits are counted under.
 */
function trustProxy(env: Env): Config['trustProxy'] {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw || raw === 'false') return false;
  const entries = raw.split(',').map((a) => a.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, bits, ...rest] = entry.split('/');
    const valid = PROXY_RANGES.has(entry) || (isIP(address!) !== 0 && rest.length === 0 && (bits === undefined || /^\d{1,3}$/.test(bits)));
    if (!valid) throw new Error(`TRUST_PROXY must list proxy addresses or CIDR ranges (or loopback, linklocal, uniquelocal), not ${entry}`);
  }
  return entries;
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const jwtKeySource = env.JWT_JWKS_URL || env.JWT_PUBLIC_KEY;
  if (jwtKeySource && (!env.JWT_ISSUER || !env.JWT_AUDIENCE)) {
    throw new Error('JWT_ISSUER and JWT_AUDIENCE are required with JWT_JWKS_URL or JWT_PUBLIC_KEY');
  }
  return {
    port: int(env, 'PORT', 8080, 0),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10),
    dataDir: env.DATA_DIR || './data',
    rateLimit: {
      max: int(env, 'RATE_LIMIT_MAX', 100),
      windowMs: int(env, 'RATE_LIMIT_WINDOW_MS', 15_000),
      invalidMax: int(env, 'RATE_LIMIT_INVALID_MAX', 20),
      redisUrl: env.REDIS_URL || undefined,
      redisPrefix: env.RATE_LIMIT_REDIS_PREFIX || 'sheaf:rl:',
    },
    trustProxy: trustProxy(env),
    smtpUrl: env.SMTP_URL || undefined,
    outboxIntervalMs: 5000,
    jwt: jwtKeySource
      ? {
          jwksUrl: env.JWT_JWKS_URL || undefined,
          publicKey: env.JWT_PUBLIC_KEY || undefined,
          algorithms: env.JWT_ALGORITHMS ? env.JWT_ALGORITHMS.split(',').map((a) => a.trim()) : undefined,
          issuer: env.JWT_ISSUER!,
          audience: env.JWT_AUDIENCE!,
        }
      : null,
    logLevel: env.LOG_LEVEL || 'info',
    clock: systemClock,
    ...overrides,
  };
}
