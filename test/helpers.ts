import { TEST_SECRET_KEY } from './secret-key.ts';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';
import type { FastifyInstance, FastifyPluginAsync, InjectOptions } from 'fastify';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database, type DatabaseOptions } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { isDatabaseUnavailable } from '../src/db/unavailable.ts';
import type { CredentialKind, DB, ManagerPermission, Role, UserType } from '../src/db/types.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { createSession, SESSION_COOKIE } from '../src/auth/sessions.ts';
import { createKey } from '../src/modules/people/credentials/service.ts';
import { operatorPrincipal } from '../src/access/operator.ts';
import { giveBack, noteTemplateShape, takeSpare } from './reused-database.ts';

/**
 * Test database: in-memory PGlite by default; with DATABASE_URL set, a fresh
 * PostgreSQL schema per test file (dropped afterwards), so runs never collide.
 */
export const DATABASE_URL = process.env.DATABASE_URL;
export const onPostgres = Boolean(DATABASE_URL);

export function uniqueSchema(): string {
  return `sheaf_test_${randomBytes(6).toString('hex')}`;
}

/** What a test may change about its database: the pool, the bounds on waits, and (PostgreSQL) the URL, e.g. a proxy's. */
export type TestDatabaseOptions = Pick<DatabaseOptions, 'poolSize' | 'timeouts' | 'databaseUrl'>;

/**
 * A fresh, migrated database. The embedded one is a copy of the migrated data
 * directory test/global-setup.ts made (so migrate finds nothing to do): that
 * costs a third of the CPU of initdb and the migrations in a new in-memory one.
 * With the default options it may instead be the one an earlier file of this
 * worker closed, emptied (test/reused-database.ts): the same state for a
 * small part of the CPU.
 */
export async function openTestDatabase(options: TestDatabaseOptions = {}): Promise<Database & { schema?: string }> {
  const reusable = !DATABASE_URL && Object.keys(options).length === 0;
  const database = (reusable ? await takeSpare() : undefined) ?? (await openFreshDatabase(options));
  if (!reusable) return database;
  await noteTemplateShape(database.db);
  let given = false;
  return {
    ...database,
    close: async () => {
      if (given) return;
      given = true;
      await giveBack(database);
    },
  };
}

/**
 * openDatabase with `warm` pooled connections open and idle, each open retried while
 * it runs into the connect bound. A test's short bound (300 ms) times the wait for a
 * busy or stalled connection; on a loaded machine (CI runs the suites on two cores)
 * merely opening a PostgreSQL connection can take longer than that, which is not what
 * the test is about. Connections stay idle in the pool for 10 s (pg's default).
 */
export async function openBoundedDatabase(options: DatabaseOptions, warm = 1): Promise<Database> {
  const retried = async <T>(open: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await open();
      } catch (err) {
        if (attempt === 5 || !isDatabaseUnavailable(err)) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  };
  const database = await retried(() => openDatabase(options));
  // Concurrent statements that last a moment take `warm` distinct connections of the pool.
  if (warm > 1) await retried(() => Promise.all(Array.from({ length: warm }, () => sql`select pg_sleep(0.05)`.execute(database.db))));
  return database;
}

async function openFreshDatabase(options: TestDatabaseOptions): Promise<Database & { schema?: string }> {
  const schema = DATABASE_URL ? uniqueSchema() : undefined;
  const dataDir = DATABASE_URL ? null : copyOfTemplate();
  const database = await openBoundedDatabase({
    databaseUrl: DATABASE_URL && (options.databaseUrl ?? DATABASE_URL),
    dataDir,
    schema,
    poolSize: options.poolSize ?? 20,
    timeouts: options.timeouts,
  });
  await migrate(database.db);
  return {
    ...database,
    schema,
    close: async () => {
      await database.close();
      if (schema) await dropSchema(schema);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A data directory (DATA_DIR) whose embedded database is already migrated: a copy of the
 * template, so a test of the CLI or the server does not spend seconds of CPU on initdb and
 * every migration before its first command. On PostgreSQL, an empty temporary directory.
 * Tests of the first start or of `migrate` itself need an empty directory instead.
 */
export function migratedDataDir(): string {
  return copyOfTemplate() ?? mkdtempSync(join(tmpdir(), 'sheaf-data-'));
}

/** A new data directory copied from the template, or null (in-memory) when there is none. */
function copyOfTemplate(): string | null {
  const template = inject('pgliteTemplate');
  if (!template) return null;
  const dir = mkdtempSync(`${dirname(template)}/db-`);
  cpSync(template, dir, { recursive: true });
  return dir;
}

export async function dropSchema(schema: string) {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

/** A clock tests can move. */
export class TestClock {
  constructor(private current = new Date()) {}
  now = () => new Date(this.current.getTime());
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface TestContext {
  app: FastifyInstance;
  db: Kysely<DB>;
  clock: TestClock;
  config: Config;
  close(): Promise<void>;
}

export { TEST_SECRET_KEY };

export async function createTestContext(
  options: { config?: Partial<Config>; env?: Record<string, string>; plugins?: FastifyPluginAsync[]; database?: TestDatabaseOptions } = {},
): Promise<TestContext> {
  const database = await openTestDatabase(options.database);
  const clock = new TestClock();
  const config = loadConfig(
    { LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000', SHEAF_SECRET_KEY: TEST_SECRET_KEY, ...options.env },
    { clock: clock.now, dataDir: null, ...options.config },
  );
  const app = await buildApp({ config, db: database.db, plugins: options.plugins });
  return {
    app,
    db: database.db,
    clock,
    config,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

export interface Caller {
  userId: string;
  companyId: string;
  email: string;
  key: string;
  keyId: string;
  headers: Record<string, string>;
}

let counter = 0;
const uniqueEmail = (label: string) => `${label}.${Date.now().toString(36)}.${++counter}.${randomBytes(3).toString('hex')}@example.com`;

export interface MemberOptions {
  role?: Role;
  permissions?: ManagerPermission[];
  userType?: UserType;
  isContractor?: boolean;
  keyKind?: CredentialKind;
  firstName?: string;
  lastName?: string;
  email?: string;
}

/** Adds a member with a key of the given kind (full-access by default) and returns ready-made headers. */
export async function addMember(db: Kysely<DB>, companyId: string, options: MemberOptions = {}): Promise<Caller> {
  const member = await createMember(db, operatorPrincipal(companyId), {
    email: options.email ?? uniqueEmail(options.role ?? 'member'),
    first_name: options.firstName ?? 'Test',
    last_name: options.lastName ?? (options.role ?? 'member'),
    role: options.role ?? 'member',
    permissions: options.permissions,
    user_type: options.userType,
    is_contractor: options.isContractor,
  });
  return issueKey(db, companyId, member.user_id, member.email, options.keyKind ?? 'integration');
}

export async function issueKey(
  db: Kysely<DB>,
  companyId: string,
  userId: string,
  email: string,
  kind: CredentialKind,
): Promise<Caller> {
  const { secret, credential } = await createKey(db, operatorPrincipal(companyId), { userId, kind });
  return {
    userId,
    companyId,
    email,
    key: secret,
    keyId: credential.id,
    headers: { authorization: `Bearer ${secret}`, 'service-account-id': companyId },
  };
}

/** A workspace with an owner holding a full-access key. */
export async function createWorkspaceWithOwner(db: Kysely<DB>, name = 'Acme') {
  const company = await createWorkspace(db, { name });
  const owner = await addMember(db, company.id, { role: 'owner', firstName: 'Olive', lastName: 'Owner' });
  return { company, owner };
}

/**
 * A browser session of a member, as the web app holds it: the cookie and the CSRF
 * header. Made directly (no password, so no scrypt cost); sign-in itself is
 * tested in web-sessions.test.ts.
 */
export async function sessionFor(db: Kysely<DB>, member: { userId: string; companyId: string; email?: string }, now = new Date()): Promise<Caller> {
  const { token, session } = await createSession(db, { userId: member.userId, companyId: member.companyId, now });
  return {
    userId: member.userId,
    companyId: member.companyId,
    email: member.email ?? '',
    key: '',
    keyId: '',
    headers: { cookie: `${SESSION_COOKIE}=${token}`, 'x-csrf-token': session.csrf_token },
  };
}

/** Injects a request as a caller; JSON bodies are serialized for you. */
export function request(app: FastifyInstance, caller: Caller | null, options: InjectOptions) {
  return app.inject({
    ...options,
    headers: { ...(caller?.headers ?? {}), ...(options.headers ?? {}) },
  });
}
