import { PGlite } from '@electric-sql/pglite';
import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGliteDialect } from './pglite-dialect.ts';
import { allowCsvCopy } from './csv-copy.ts';
import { pgliteSerializers, typeParsers, pgTypes } from './type-parsers.ts';
import { useFastRowTemplates } from './row-templates.ts';
import { lockDataDir } from './lockfile.ts';
import type { DB } from './types.ts';
import { statementLimitIn, type DatabaseTimeouts } from './timeouts.ts';
import { MAX_PREPARED_PER_CONNECTION, MAX_PREPARED_SQL_LENGTH } from './prepared.ts';

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
  /** Bounds on connecting, statements, locks and idle transactions; absent, none (tests, one-off tools). */
  timeouts?: DatabaseTimeouts;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = await (options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options.dataDir ?? null, options.timeouts));
  kinds.set(database.db, database.kind);
  return database;
}

const kinds = new WeakMap<Kysely<DB>, DatabaseKind>();

/**
 * Whether a handle opened by openDatabase runs statements at once on several
 * connections (PostgreSQL's pool), rather than one at a time (the embedded
 * database's single connection): work done ahead of a request would only queue
 * in front of other requests on the latter.
 */
export const runsConcurrently = (db: Kysely<DB>) => kinds.get(db) === 'postgres';

/**
 * The name the process's pooled connections carry in pg_stat_activity: per schema, so an
 * operator, a test or a benchmark (which reads its backends' CPU by it) can tell them apart.
 */
export const poolApplicationName = (schema?: string) => (schema ? `sheaf:${schema}` : 'sheaf');

/**
 * The planner's price of a random page read, against 1 for a sequential one. PostgreSQL's default
 * of 4 is for spinning disks; with the data in memory or on SSD it makes an index probe into a
 * table of a few pages look dearer than reading the table whole, so in a workspace of a few
 * hundred people every request's credential and membership were found by sequential scans and
 * a hash join (twice the database's CPU for the request). 1.1 is the usual value for SSD. The
 * reports keep 4 (readReport, REPORTS_RANDOM_PAGE_COST): their large joins plan faster with it.
 * docs/decisions.md, "Hot paths: the planner's page cost".
 */
export const RANDOM_PAGE_COST = '1.1';

/** What each of Sheaf's PostgreSQL connections starts with (pg's `options`); the benchmarks' own clients use it too. */
export const connectionOptions = (schema?: string) =>
  ['-c TimeZone=UTC', `-c random_page_cost=${RANDOM_PAGE_COST}`, schema ? `-c search_path=${schema}` : ''].filter(Boolean).join(' ');

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
  useFastRowTemplates();
  const settings = connectionOptions(schema);
  const timeouts = options.timeouts;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    options: settings,
    types: pgTypes,
    application_name: poolApplicationName(schema),
    ...(timeouts && boundedWaits(timeouts)),
  });
  // An idle pooled connection that the server, a proxy or a failover drops emits
  // 'error' on the pool; without a listener that event would end the process. The
  // pool has already discarded the client, and the next query opens a new one;
  // queries during an outage fail and are answered 503 (src/db/unavailable.ts).
  // An idle client's error reaches both listeners below as the same object: logged once.
  const logged = new WeakSet<Error>();
  const connectionLost = (err: Error) => {
    if (logged.has(err)) return;
    logged.add(err);
    process.stderr.write(`${JSON.stringify({ level: 40, time: Date.now(), msg: 'database connection lost; the pool drops it and reconnects', err: err.message })}\n`);
  };
  pool.on('error', connectionLost);
  // A connection lost while checked out (between a transaction's statements) emits
  // 'error' on its client, which the pool does not listen to then: the statement in
  // flight fails on its own (a 503), and this listener keeps the event from ending the process.
  pool.on('connect', (client) => client.on('error', connectionLost));
  const preparing = preparingPool(pool, timeouts);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparing }) });
  singleRoundTrips.set(db, preparing.afterSettings);
  await sql`select 1`.execute(db); // fail fast on a bad URL
  return { db, kind: 'postgres', close: () => db.destroy() };
}

/**
 * The pool's share of DatabaseTimeouts (src/db/timeouts.ts). The server enforces the
 * statement, lock and idle-in-transaction limits (sent as startup parameters; 0 sends
 * none, leaving the server's setting). A stalled network (a proxy or a link that
 * stops passing bytes without closing) defeats them all: the client waits for an
 * answer that never comes. query_timeout is the client's backstop: a statement not
 * answered within the statement limit plus connectMs fails, and its connection is
 * discarded (preparingPool). connectionTimeoutMillis bounds both opening a
 * connection and waiting for a free one in a full pool.
 */
function boundedWaits(t: DatabaseTimeouts): pg.PoolConfig {
  return {
    connectionTimeoutMillis: t.connectMs,
    statement_timeout: t.statementMs,
    lock_timeout: t.lockMs,
    idle_in_transaction_session_timeout: t.idleInTransactionMs,
    query_timeout: backstop(t.statementMs, t),
  };
}

/** A lifted limit's backstop: the longest timer Node has (0 or undefined would mean the pool's). */
const NO_BACKSTOP = 2 ** 31 - 1;

/** The client-side bound on a statement under `limitMs` (undefined: none). */
const backstop = (limitMs: number, t: DatabaseTimeouts | undefined) => (t && limitMs > 0 ? limitMs + t.connectMs : undefined);

/**
 * node-postgres sends a parameterised query as an unnamed statement, which PostgreSQL
 * parses and plans on every execution: for a four-table join (authentication) the
 * planning costs several times the execution. Naming each statement after a hash of
 * its text lets every pooled connection parse and plan it once and then only bind and
 * execute. Queries without parameters (BEGIN, COMMIT, DDL) stay on the simple protocol.
 * The set of named statements per connection is bounded.
 *
 * It also saves a round trip per transaction: Kysely's `begin` is held back and sent
 * in front of the transaction's first statement when that one has no parameters (the
 * simple protocol takes several statements at once), as withTenant's settings
 * statement has. A transaction that ran nothing sends neither begin nor commit.
 *
 * With timeouts, a transaction that sets its own statement limit (statementLimit in
 * timeouts.ts: reports, backup pages, migrations) moves the client-side backstop
 * with it until the connection is released; a connection whose statement outlived
 * the backstop is discarded at release, not reused (its answer may still arrive).
 */
function preparingPool(pool: pg.Pool, timeouts?: DatabaseTimeouts): PostgresPool & { afterSettings: SingleRoundTrip } {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined) {
      name = `k_${createHash('sha1').update(text).digest('base64url')}`;
      if (names.size < 10 * MAX_PREPARED_PER_CONNECTION) names.set(text, name);
    }
    return name;
  };
  // One wrapper per pooled client, made once: Kysely keys its connection objects by
  // the client it is handed, so a fresh wrapper per checkout would cost a new one each time.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const prepared = new Set<string>();
    let beginHeld = false;
    // The client-side bound of this checkout's statements when its transaction set
    // its own statement limit (undefined: the pool's query_timeout).
    let queryTimeout: number | undefined;
    let stalled = false;
    const sent = (config: pg.QueryConfig) => {
      // Behind a stalled statement the next one (the transaction's rollback) would wait out a backstop of its own.
      if (stalled) return Promise.reject(new Error('Query read timeout: an earlier statement on this connection was not answered'));
      return client.query(queryTimeout === undefined ? config : ({ ...config, query_timeout: queryTimeout } as pg.QueryConfig)).catch((err: unknown) => {
        if ((err as Error)?.message === 'Query read timeout') stalled = true;
        throw err;
      });
    };
    const simpleQuery = (text: string) => {
      const limit = statementLimitIn(text);
      if (limit !== undefined && timeouts) queryTimeout = backstop(limit, timeouts) ?? NO_BACKSTOP;
      return sent({ text }).then(lastResult);
    };
    const send = (text: any, values?: ReadonlyArray<unknown>): any => {
      // A query object (a cursor) goes to the client as it is.
      if (typeof text !== 'string') return values === undefined ? client.query(text) : client.query(text, [...values]);
      if (!values || values.length === 0 || text.length > MAX_PREPARED_SQL_LENGTH) return sent(values === undefined ? { text } : { text, values: [...values] });
      const name = nameOf(text);
      if (!prepared.has(name)) {
        if (prepared.size >= MAX_PREPARED_PER_CONNECTION) return sent({ text, values: [...values] });
        prepared.add(name);
      }
      return sent({ name, text, values: [...values] });
    };
    const query = (text: any, values?: ReadonlyArray<unknown>): any => {
      const simple = typeof text === 'string' && (!values || values.length === 0);
      if (simple && text === 'begin') {
        beginHeld = true;
        return Promise.resolve(EMPTY_RESULT);
      }
      if (!beginHeld) return simple ? simpleQuery(text) : send(text, values);
      beginHeld = false;
      if (simple && (text === 'commit' || text === 'rollback')) return Promise.resolve(EMPTY_RESULT);
      if (simple) return simpleQuery(`begin;\n${text}`);
      return sent({ text: 'begin' }).then(() => send(text, values));
    };
    const release = () => {
      // SET LOCAL ended with the transaction; the next checkout starts from the session's limit.
      queryTimeout = undefined;
      beginHeld = false;
      if (!stalled) return client.release();
      // Its statement may still be running or answering: a later checkout would read that answer.
      stalled = false;
      client.release(true);
    };
    /**
     * `head` (parameterless statements) and then the parameterized `text`, as one
     * simple-protocol message: one round trip, one implicit transaction. The text is
     * prepared with SQL PREPARE (in the same message, the first time on this
     * connection) and run with EXECUTE and its values as literals, so it is planned
     * once per connection like the statements above.
     */
    const afterSettings = async (head: string, text: string, values: readonly unknown[]) => {
      const name = sqlNameOf(text);
      const known = sqlPrepared.has(name);
      const run = `${head};\nexecute ${name}(${values.map(literal).join(', ')})`;
      try {
        const result = await sent({ text: known ? run : `prepare ${name} as ${text};\n${run}` });
        sqlPrepared.add(name);
        return lastResult(result).rows;
      } catch (err) {
        // PREPARE is not undone with the transaction: it exists unless it was what failed.
        if (!known && !stalled) {
          const exists = await client.query({ text: 'select 1 from pg_prepared_statements where name = $1', values: [name] }).catch(() => null);
          if (exists && exists.rows.length > 0) sqlPrepared.add(name);
        }
        throw err;
      }
    };
    const sqlPrepared = new Set<string>();
    return { query, release, afterSettings } as PostgresPoolClient & { afterSettings: typeof afterSettings };
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = wrap(client)));
      return wrapper;
    },
    async afterSettings(head, text, values) {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = wrap(client)));
      try {
        return await (wrapper as ReturnType<typeof wrap> & { afterSettings: SingleRoundTrip }).afterSettings(head, text, values);
      } finally {
        wrapper.release();
      }
    },
    end: () => pool.end(),
  };
}

/**
 * Runs parameterless `head` statements (a tenant transaction's settings) and then one
 * parameterized statement in one round trip and one implicit transaction, which
 * commits when the statement succeeds and rolls back with everything when any fails.
 * Returns the statement's rows.
 */
export type SingleRoundTrip = (head: string, text: string, values: readonly unknown[]) => Promise<unknown[]>;

const singleRoundTrips = new WeakMap<Kysely<DB>, SingleRoundTrip>();

/**
 * The single-round-trip runner of a PostgreSQL handle made by openDatabase; undefined
 * for PGlite and for any other handle (a request's joining handle of an
 * Idempotency-Key, whose statements belong in its shared transaction).
 */
export const singleRoundTripOf = (db: Kysely<DB>): SingleRoundTrip | undefined => singleRoundTrips.get(db);

/** Names of SQL-level prepared statements (`s_`), apart from the protocol-level ones (`k_`): one namespace per connection. */
const sqlNames = new Map<string, string>();
function sqlNameOf(text: string): string {
  let name = sqlNames.get(text);
  if (name === undefined) {
    name = `s_${createHash('sha1').update(text).digest('hex')}`;
    if (sqlNames.size < 1000) sqlNames.set(text, name);
  }
  return name;
}

/**
 * A value as an SQL literal for EXECUTE. Quoted literals are of unknown type, so each
 * takes the type PREPARE inferred for its parameter, as a parameter sent as text does.
 */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Date) return `'${value.toISOString()}'`;
  if (typeof value === 'boolean') return value ? "'true'" : "'false'";
  if (typeof value === 'number' && Number.isFinite(value)) return `'${value}'`;
  if (typeof value === 'string') return escapeLiteral(value);
  throw new Error(`no SQL literal for ${typeof value}`);
}

/** Quotes a string as node-postgres does (backslashes make it an E'' literal, so standard_conforming_strings does not matter). */
function escapeLiteral(text: string): string {
  const quoted = text.replaceAll("'", "''");
  return text.includes('\\') ? ` E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

const EMPTY_RESULT = { command: '', rowCount: null, rows: [], fields: [] };

/** Several statements in one simple query answer with one result each: Kysely gets the last. */
const lastResult = (result: pg.QueryResult | pg.QueryResult[]) => (Array.isArray(result) ? result[result.length - 1] : result);

/**
 * PGlite runs each statement synchronously on this thread, and has no timer to
 * cancel one: statement_timeout and lock_timeout have no effect there (and a lock
 * is never waited for: there is one session). Its one bound is the wait for the
 * database itself, which a transaction holds until it ends: connectMs.
 */
let assets: Promise<{ wasmModule: WebAssembly.Module; fsBundle: Blob }> | undefined;

/**
 * PGlite's compiled WebAssembly and its file-system bundle, read and compiled once per
 * process: PGlite otherwise does both on every open, which was about half of opening a
 * test's database (the suite opens a few hundred); a server opens one, so it changes nothing there.
 */
function pgliteAssets() {
  return (assets ??= (async () => {
    const dist = dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
    const [wasm, data] = await Promise.all([readFile(join(dist, 'pglite.wasm')), readFile(join(dist, 'pglite.data'))]);
    return { wasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
  })());
}

/**
 * PGlite copies its whole table of type parsers into a new object for every query() and exec() it
 * answers (its parseResults spreads them; the dialect's own calls, pglite-statements.ts, look single
 * parsers up instead and leave only a few texts to query() and exec(): one over the prepared
 * statements' length bound, the CSV COPY, a query while the database starts), and at start it adds
 * a parser for the array type of every type in the catalog, including the row type of each table,
 * PostgreSQL's own and Sheaf's: 380 entries in a migrated database, 106 without those (measured,
 * before the dialect's own calls: a simple query through the app's PGlite took 308 µs with them and
 * 262 µs without). No query of Sheaf's returns an array of rows,
 * and PGlite would leave such an array's elements as text anyway, so those parsers are dropped;
 * arrays of base types (text, uuid, integers, numeric, dates, jsonb, …), enums, domains and ranges
 * keep theirs.
 */
export async function dropRowArrayParsers(pglite: PGlite): Promise<void> {
  const { rows } = await pglite.query<{ oid: number }>(
    `select a.oid::int as oid from pg_type a join pg_type e on e.oid = a.typelem where a.typcategory = 'A' and e.typtype = 'c'`,
  );
  const rowArrays = new Set(rows.map((r) => String(r.oid)));
  pglite.parsers = Object.fromEntries(Object.entries(pglite.parsers).filter(([oid]) => !rowArrays.has(oid)));
}

async function openPglite(dataDir: string | null, timeouts?: DatabaseTimeouts): Promise<Database> {
  const unlock = dataDir ? await lockDataDir(dataDir) : () => {};
  try {
    const pglite = new PGlite(dataDir ? join(dataDir, 'pglite') : undefined, { parsers: typeParsers, serializers: pgliteSerializers, ...(await pgliteAssets()) });
    await pglite.waitReady;
    await dropRowArrayParsers(pglite);
    // PGlite starts its backend with client_min_messages = debug3 and log_min_messages = debug1, so
    // every statement also sends debug notices, which PGlite parses and drops: a prepared statement's
    // run took 45 µs with them and 29 µs without. PostgreSQL's defaults instead.
    // The planner's page cost is the PostgreSQL pool's too (connectionOptions).
    await pglite.exec(`set TimeZone = 'UTC'; set client_min_messages = notice; set log_min_messages = warning; set random_page_cost = ${RANDOM_PAGE_COST}`);
    const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite, timeouts?.connectMs || undefined) });
    await allowCsvCopy(pglite, db);
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
