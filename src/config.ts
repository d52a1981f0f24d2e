import { resolve } from 'node:path';
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
  rateLimit: { max: number; windowMs: number; redisUrl?: string };
  smtpUrl?: string;
  /** How often the outbox worker looks for due e-mails (with SMTP_URL set). Tests shorten it. */
  outboxIntervalMs: number;
  jwt: JwtConfig | null;
  logLevel: string;
  clock: Clock;
  /**
   * The built web app that buildApp serves at `/` (WEB_DIST: a directory holding
   * index.html); null serves the API alone. loadConfig leaves it null unless WEB_DIST
   * names a directory: `sheaf serve` fills in the checkout's web/dist (see webBuild).
   */
  webDist: string | null;
  /**
   * Whether `sheaf serve` serves the checkout's web/dist, building it first when it is
   * missing or older than its sources: true when WEB_DIST is unset; WEB_DIST=off or a
   * directory turns it off.
   */
  webBuild: boolean;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min}`);
  return value;
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
      redisUrl: env.REDIS_URL || undefined,
    },
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
    webDist: env.WEB_DIST && env.WEB_DIST !== 'off' ? resolve(env.WEB_DIST) : null,
    webBuild: !env.WEB_DIST,
    ...overrides,
  };
}
