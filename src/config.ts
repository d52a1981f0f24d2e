import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { systemClock, type Clock } from './clock.ts';
import type { JwtConfig } from './auth/jwt.ts';
import { MIN_SECRET_KEY_LENGTH } from './auth/secret-box.ts';
import { DEFAULT_DATABASE_TIMEOUTS as T, type DatabaseTimeouts } from './db/timeouts.ts';

export interface Config {
  port: number;
  host: string;
  /**
   * The address people reach this server at (PUBLIC_URL), for links in e-mails
   * (password resets, invitations). Never taken from a request's Host header, which
   * a caller controls. Default: http://HOST:PORT.
   */
  publicUrl?: string;
  /** PostgreSQL; when absent, the embedded PGlite database in `dataDir`. */
  databaseUrl?: string;
  databaseSchema?: string;
  databasePoolSize: number;
  /** Bounds on the waits for the database (src/db/timeouts.ts); 0 turns one off. */
  databaseTimeouts: DatabaseTimeouts;
  /**
   * How long a request's body may take to arrive once its headers have
   * (REQUEST_BODY_TIMEOUT_MS); then 408. 0 turns the bound off (Node's 300 s remains).
   */
  requestBodyTimeoutMs: number;
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
    /** The least time between two top-ups of the valid-key list (src/auth/valid-keys.ts): what a flood of bad keys costs the database. */
    keyRefreshMs: number;
  };
  /**
   * Which proxies' X-Forwarded-For to believe for the client address: false (the
   * default: the TCP peer is the client) or the proxies' addresses / CIDR ranges
   * (Fastify's `trustProxy`).
   */
  trustProxy: false | string[];
  smtpUrl?: string;
  /** The From address (`SMTP_FROM`); its domain is also the Message-ID's (src/outbox/mailer.ts). */
  smtpFrom?: string;
  /** How often the outbox worker looks for due e-mails (with SMTP_URL set; OUTBOX_INTERVAL_MS, default 5 s). Tests shorten it. */
  outboxIntervalMs: number;
  /**
   * How often each server process runs its schedulers (recurring invoices, saved reports' e-mails)
   * (RECURRING_INTERVAL_MS, default a minute); 0 turns it off in this process.
   */
  recurringIntervalMs: number;
  /** How many days the change feed keeps its changes (CHANGES_RETENTION_DAYS, default 30); a cursor from before a deleted change is 410. */
  changesRetentionDays: number;
  /** Webhooks may go to private, loopback and link-local addresses (WEBHOOK_ALLOW_PRIVATE=true; default false). */
  webhookAllowPrivate: boolean;
  /** How often each server process looks for due webhook deliveries (WEBHOOK_INTERVAL_MS, default 1 s); 0 turns delivery off in this process. */
  webhookIntervalMs: number;
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
  /**
   * SHEAF_SECRET_KEY, then SHEAF_SECRET_KEY_PREVIOUS (comma-separated): the first seals
   * secrets at rest, every one opens them (src/auth/secret-box.ts). Empty without them; an
   * embedded database then gets one in DATA_DIR/secret-key at start (src/auth/server-secret-key.ts).
   */
  secretKeys: string[];
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min}`);
  if (value > max) throw new Error(`${name} must be at most ${max}`);
  return value;
}

/** A true/false setting: true, 1 or yes turn it on; unset, false, 0 or no leave it off; anything else is refused. */
function flag(env: Env, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0' || raw === 'no') return false;
  if (raw === 'true' || raw === '1' || raw === 'yes') return true;
  throw new Error(`${name} must be true or false, not '${env[name]}'`);
}

function publicUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('PUBLIC_URL must be an absolute http(s) URL such as https://sheaf.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('PUBLIC_URL must be an http(s) URL');
  return url.toString().replace(/\/$/, '');
}

/** A URL setting of one of `schemes` (`smtp`, `smtps`; `redis`, `rediss`): a typo is said at start, not at the first e-mail or request. */
function serviceUrl(env: Env, name: string, schemes: readonly string[], example: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !schemes.includes(url.protocol.slice(0, -1)) || !url.hostname) {
    throw new Error(`${name} must be a ${schemes.map((s) => `${s}://`).join(' or ')} URL such as ${example}`);
  }
  return raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function logLevel(env: Env): string {
  const raw = env.LOG_LEVEL?.trim();
  if (!raw) return 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not '${raw}'`);
  return raw;
}

/** WEB_DIST: a built web app (a folder holding index.html), or `off`; a wrong path would serve every page as a bare 404. */
function webDist(env: Env): string | null {
  if (!env.WEB_DIST || env.WEB_DIST === 'off') return null;
  const dist = resolve(env.WEB_DIST);
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error(`WEB_DIST must be a built web app (a folder holding index.html), not ${dist}; npm run build:web makes one, WEB_DIST=off serves the API alone`);
  }
  return dist;
}

/** Where people reach the server, for links in e-mails. */
export const publicUrlOf = (config: Pick<Config, 'publicUrl' | 'host' | 'port'>) =>
  config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;

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
    const family = isIP(address!);
    const valid = PROXY_RANGES.has(entry) || (family !== 0 && rest.length === 0 && (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))));
    if (!valid) throw new Error(`TRUST_PROXY must list proxy addresses or CIDR ranges (or loopback, linklocal, uniquelocal), not ${entry}`);
  }
  return entries;
}

function secretKeys(env: Env): string[] {
  const keys = [env.SHEAF_SECRET_KEY, ...(env.SHEAF_SECRET_KEY_PREVIOUS ?? '').split(',')].map((k) => k?.trim() ?? '').filter(Boolean);
  for (const key of keys) {
    if (key.length < MIN_SECRET_KEY_LENGTH) {
      throw new Error(`SHEAF_SECRET_KEY and SHEAF_SECRET_KEY_PREVIOUS need at least ${MIN_SECRET_KEY_LENGTH} characters each (openssl rand -base64 32 makes one)`);
    }
  }
  if (keys.length > 0 && !env.SHEAF_SECRET_KEY?.trim()) throw new Error('SHEAF_SECRET_KEY_PREVIOUS is set without SHEAF_SECRET_KEY');
  return keys;
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const jwtKeySource = env.JWT_JWKS_URL || env.JWT_PUBLIC_KEY;
  if (jwtKeySource && (!env.JWT_ISSUER || !env.JWT_AUDIENCE)) {
    throw new Error('JWT_ISSUER and JWT_AUDIENCE are required with JWT_JWKS_URL or JWT_PUBLIC_KEY');
  }
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    publicUrl: env.PUBLIC_URL ? publicUrl(env.PUBLIC_URL) : undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10),
    databaseTimeouts: {
      connectMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', T.connectMs, 0),
      statementMs: int(env, 'DATABASE_STATEMENT_TIMEOUT_MS', T.statementMs, 0),
      lockMs: int(env, 'DATABASE_LOCK_TIMEOUT_MS', T.lockMs, 0),
      idleInTransactionMs: int(env, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', T.idleInTransactionMs, 0),
      longStatementMs: int(env, 'DATABASE_LONG_STATEMENT_TIMEOUT_MS', T.longStatementMs, 0),
    },
    requestBodyTimeoutMs: int(env, 'REQUEST_BODY_TIMEOUT_MS', 30_000, 0),
    dataDir: env.DATA_DIR || './data',
    rateLimit: {
      max: int(env, 'RATE_LIMIT_MAX', 100),
      windowMs: int(env, 'RATE_LIMIT_WINDOW_MS', 15_000),
      invalidMax: int(env, 'RATE_LIMIT_INVALID_MAX', 20),
      redisUrl: serviceUrl(env, 'REDIS_URL', ['redis', 'rediss'], 'redis://127.0.0.1:6379'),
      redisPrefix: env.RATE_LIMIT_REDIS_PREFIX || 'sheaf:rl:',
      keyRefreshMs: 1000,
    },
    trustProxy: trustProxy(env),
    smtpUrl: serviceUrl(env, 'SMTP_URL', ['smtp', 'smtps'], 'smtps://user:pass@smtp.example.com:465'),
    smtpFrom: env.SMTP_FROM || undefined,
    outboxIntervalMs: int(env, 'OUTBOX_INTERVAL_MS', 5000),
    recurringIntervalMs: int(env, 'RECURRING_INTERVAL_MS', 60_000, 0),
    changesRetentionDays: int(env, 'CHANGES_RETENTION_DAYS', 30),
    webhookAllowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE'),
    webhookIntervalMs: int(env, 'WEBHOOK_INTERVAL_MS', 1000, 0),
    jwt: jwtKeySource
      ? {
          jwksUrl: env.JWT_JWKS_URL || undefined,
          publicKey: env.JWT_PUBLIC_KEY || undefined,
          algorithms: env.JWT_ALGORITHMS ? env.JWT_ALGORITHMS.split(',').map((a) => a.trim()) : undefined,
          issuer: env.JWT_ISSUER!,
          audience: env.JWT_AUDIENCE!,
          // A day: long enough for any access token an identity provider issues, short enough to bound a leaked one.
          maxLifetimeSeconds: int(env, 'JWT_MAX_LIFETIME_SECONDS', 24 * 60 * 60),
        }
      : null,
    logLevel: logLevel(env),
    clock: systemClock,
    webDist: webDist(env),
    webBuild: !env.WEB_DIST,
    secretKeys: secretKeys(env),
    ...overrides,
  };
}
