import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { join } from 'node:path';
import { PGliteDialect } from './pglite-dialect.ts';
import { typeParsers, pgTypes } from './type-parsers.ts';
import { lockDataDir } from './lockfile.ts';
import type { DB } from './types.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  kind: DatabaseKind;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** PGlite data directory; `null` for an in-memory database (tests). */
  dataDir?: string | null;
  /** PostgreSQL schema to use (created if missing); lets test runs share one database. */
  schema?: string;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options.dataDir ?? null);
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const schema = options.schema;
  if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const settings = ['-c TimeZone=UTC', schema ? `-c search_path=${schema}` : ''].filter(Boolean).join(' ');
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    options: settings,
    types: pgTypes,
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  await sql`select 1`.execute(db); // fail fast on a bad URL
  return { db, kind: 'postgres', close: () => db.destroy() };
}

async function openPglite(dataDir: string | null): Promise<Database> {
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    const pglite = new PGlite(dataDir ? join(dataDir, 'pglite') : undefined, { parsers: typeParsers });
    await pglite.waitReady;
    await pglite.exec(`set TimeZone = 'UTC'`);
    const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
    return {
      db,
      kind: 'pglite',
      close: async () => {
        await db.destroy();
        unlock();
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}
