import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { Mutex } from './mutex.ts';
import { statementsOf, type PGliteStatements } from './pglite-statements.ts';

/**
 * Kysely dialect for the embedded PGlite database. PGlite is a single backend with
 * no connection pool, so "acquiring a connection" takes a mutex: a transaction owns
 * the database until it commits, and other requests queue behind it. Code inside a
 * transaction must use the transaction handle, never the outer `db`, or it waits
 * for itself.
 */
export class PGliteDialect implements Dialect {
  /** `acquireTimeoutMs`: how long a request may wait for the database (none when absent). */
  constructor(
    private readonly pglite: PGlite,
    private readonly acquireTimeoutMs?: number,
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.acquireTimeoutMs);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

class PGliteDriver implements Driver {
  private readonly mutex = new Mutex();
  private readonly statements: PGliteStatements;
  constructor(
    private readonly pglite: PGlite,
    private readonly acquireTimeoutMs?: number,
  ) {
    this.statements = statementsOf(pglite);
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    // The message is node-postgres's for a full pool, so both are the same 503 (src/db/unavailable.ts).
    const release = await this.mutex.lock(this.acquireTimeoutMs, () => new Error('timeout exceeded when trying to connect (the embedded database is busy)'));
    return new PGliteConnection(this.statements, release);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${level}`));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(connection: DatabaseConnection) {
    (connection as PGliteConnection).release();
  }
  async destroy() {
    if (!this.pglite.closed) await this.pglite.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(
    private readonly statements: PGliteStatements,
    readonly release: () => void,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (query.parameters.length > 0) {
      // Prepared once, then run in one call into the database (pglite-statements.ts).
      const { rows, affectedRows } = await this.statements.query(query.sql, query.parameters);
      return { rows: rows as R[], numAffectedRows: BigInt(affectedRows) };
    }
    // Parameterless SQL goes through the simple protocol, which (unlike the extended
    // one) accepts several statements at once: migrations and DO blocks need it.
    const { rows, affectedRows, blob } = await this.statements.simple(query.sql);
    // A COPY … TO '/dev/blob' answers with a file instead of rows: its one row carries it (csv-copy.ts).
    if (blob) return { rows: [{ blob }] as R[], numAffectedRows: BigInt(affectedRows) };
    return { rows: rows as R[], numAffectedRows: BigInt(affectedRows) };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not support streaming queries');
  }
}
