import { protocol, type PGlite } from '@electric-sql/pglite';
import { MAX_PREPARED_PER_CONNECTION, MAX_PREPARED_SQL_LENGTH } from './prepared.ts';
import { typeParsers } from './type-parsers.ts';

type Parser = (value: string, typeId?: number) => unknown;
type Message = { name: string } & Record<string, any>;

/** What the embedded database answered a parameterized query: its rows, as PGlite's query() gives them. */
export interface StatementResult {
  rows: Record<string, unknown>[];
  affectedRows: number;
  /** What a COPY … TO '/dev/blob' wrote (csv-copy.ts). */
  blob?: Blob;
}

interface Statement {
  name: string;
  /** The type of each parameter, as the database inferred it: how each value is written (PGlite's serializers). */
  paramTypes: number[];
}

const { serialize } = protocol;

/**
 * What the PGlite dialect sends the embedded database, each in one call into PGlite
 * (docs/decisions.md, "Hot paths: prepared statements on the embedded database"): parameterized
 * queries as named prepared statements (query), parameterless SQL as one Query message (simple).
 * PGlite's own query() sends an unnamed statement, so the SQL is parsed and planned again on every
 * call, and it crosses into the WebAssembly backend six times (Parse, Describe, Bind, Describe,
 * Execute, Sync). Here a statement is parsed and described once (its parameter types decide how
 * values are written, exactly as query() writes them), then every run is Bind, Describe, Execute
 * and Sync in one message. Rows are built as query() builds them: each value through `parsers`
 * (the caller's, over PGlite's own), an object per row, the last of two same-named columns winning.
 * Texts are prepared under PostgreSQL's bounds (prepared.ts): a longer text runs through query()
 * as before, and beyond the count the least recently run statement is closed. (PostgreSQL's pool
 * keeps its first statements instead: node-postgres cannot close one.)
 *
 * One per PGlite instance (statementsOf), so that every handle on a database shares its statements.
 * It leans on PGlite's protocol-level API (execProtocol, the protocol serializers, and the
 * underscored but typed _runExclusiveQuery): after a PGlite upgrade, test/unit/pglite-statements.test.ts
 * says whether the answers are still query()'s and exec()'s.
 */
export class PGliteStatements {
  /** In the order of their last run. */
  private readonly statements = new Map<string, Statement>();
  /** Close messages of statements evicted or gone stale, sent with the next Parse. */
  private closing: Uint8Array[] = [];

  constructor(
    private readonly pglite: PGlite,
    private readonly parsers: Record<number, Parser>,
  ) {}

  /** How many statements are prepared now (for tests). */
  get size() {
    return this.statements.size;
  }

  async query(sql: string, params: readonly unknown[]): Promise<StatementResult> {
    // A database still starting or already closed is query()'s to wait for or refuse; execProtocol does neither.
    if (!this.pglite.ready || sql.length > MAX_PREPARED_SQL_LENGTH) {
      const r = await this.pglite.query(sql, params as unknown[], { rowMode: 'object', parsers: this.parsers });
      return { rows: r.rows as Record<string, unknown>[], affectedRows: r.affectedRows ?? 0 };
    }
    // The same lock as PGlite's query(): nothing else talks to the backend between our messages.
    return this.pglite._runExclusiveQuery(async () => {
      try {
        return await this.run(sql, params);
      } catch (e) {
        if (!isStale(e)) throw withQuery(e, sql, params);
        // The statement's tables changed their columns (or it is gone): prepare it again, once.
        this.forget(sql);
        try {
          return await this.run(sql, params);
        } catch (again) {
          throw withQuery(again, sql, params);
        }
      }
    });
  }

  /**
   * Parameterless SQL, one statement or several (migrations, DO blocks, BEGIN with the tenant's
   * settings), as one Query message: exec() follows it with a Sync, a second call into the
   * backend that the simple protocol does not need. The result is the last statement's rows and,
   * as exec() counts them, the rows all the statements changed. The CSV COPY to '/dev/blob' stays
   * exec()'s, which hands back the file.
   */
  async simple(sql: string): Promise<StatementResult> {
    if (!this.pglite.ready || sql.includes('/dev/blob')) {
      const r = (await this.pglite.exec(sql, { rowMode: 'object', parsers: this.parsers })).at(-1)!;
      return { rows: r.rows as Record<string, unknown>[], affectedRows: r.affectedRows ?? 0, ...(r.blob ? { blob: r.blob } : {}) };
    }
    return this.pglite._runExclusiveQuery(async () => {
      try {
        const { messages } = await this.pglite.execProtocol(serialize.query(sql), { syncToFs: false });
        await this.pglite.syncToFs();
        return this.rowsOf(messages as Message[]);
      } catch (e) {
        throw withQuery(e, sql, []);
      }
    });
  }

  private async run(sql: string, params: readonly unknown[]): Promise<StatementResult> {
    let statement = this.statements.get(sql);
    if (statement) {
      // To the end of the line: the least recently used statement is the first closed.
      this.statements.delete(sql);
      this.statements.set(sql, statement);
    } else {
      statement = await this.prepare(sql);
    }
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const write = this.pglite.serializers[statement.paramTypes[i]];
      return write ? write(value) : String(value);
    });
    const { messages } = await this.pglite.execProtocol(
      join([serialize.bind({ statement: statement.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
      { syncToFs: false },
    );
    // As query() does after every query outside PGlite's own transaction() (which Sheaf does not use).
    await this.pglite.syncToFs();
    return this.rowsOf(messages as Message[]);
  }

  private async prepare(sql: string): Promise<Statement> {
    const name = `sheaf_${++serial}`;
    const closing = this.closing;
    this.closing = [];
    const { messages } = await this.pglite.execProtocol(
      join([...closing, serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const description = (messages as Message[]).find((m) => m.name === 'parameterDescription');
    const statement = { name, paramTypes: (description?.dataTypeIDs as number[] | undefined) ?? [] };
    this.statements.set(sql, statement);
    if (this.statements.size > MAX_PREPARED_PER_CONNECTION) this.forget(this.statements.keys().next().value!);
    return statement;
  }

  private forget(sql: string) {
    const statement = this.statements.get(sql);
    if (!statement) return;
    this.statements.delete(sql);
    this.closing.push(serialize.close({ type: 'S', name: statement.name }));
  }

  /** The last statement's rows, and the rows all of them changed (one statement, for a prepared one). */
  private rowsOf(messages: Message[]): StatementResult {
    let rows: Record<string, unknown>[] = [];
    let current: Record<string, unknown>[] = [];
    let affectedRows = 0;
    let names: string[] = [];
    let parsers: (Parser | undefined)[] = [];
    let types: number[] = [];
    for (const message of messages) {
      if (message.name === 'rowDescription') {
        const fields = message.fields as { name: string; dataTypeID: number }[];
        names = fields.map((f) => f.name);
        types = fields.map((f) => f.dataTypeID);
        parsers = types.map((t) => this.parsers[t] ?? this.pglite.parsers[t]);
      } else if (message.name === 'dataRow') {
        const values = message.fields as (string | null)[];
        const row: Record<string, unknown> = {};
        for (let i = 0; i < values.length; i++) {
          const value = values[i];
          const parse = parsers[i];
          row[names[i]] = value === null ? null : parse ? parse(value, types[i]) : value;
        }
        current.push(row);
      } else if (message.name === 'commandComplete') {
        rows = current;
        current = [];
        affectedRows += affectedBy(message.text as string);
      }
    }
    return { rows, affectedRows };
  }
}

/** Statement names, unique in the process: two sets on one database never take the same. */
let serial = 0;

const registry = new WeakMap<PGlite, PGliteStatements>();

/** The prepared statements of `pglite`, read with Sheaf's type parsers, shared by every handle on it. */
export function statementsOf(pglite: PGlite): PGliteStatements {
  let statements = registry.get(pglite);
  if (!statements) registry.set(pglite, (statements = new PGliteStatements(pglite, typeParsers)));
  return statements;
}

/** The rows a command reports changing, counted as PGlite's query() counts them (a SELECT counts none). */
function affectedBy(tag: string): number {
  const words = tag.split(' ');
  switch (words[0]) {
    case 'INSERT':
      return parseInt(words[2], 10);
    case 'UPDATE':
    case 'DELETE':
    case 'COPY':
    case 'MERGE':
      return parseInt(words[1], 10);
    default:
      return 0;
  }
}

/**
 * A prepared statement that cannot run as prepared: its result's columns changed under it
 * (`cached plan must not change result type`) or it no longer exists.
 */
function isStale(e: unknown): boolean {
  const code = (e as { code?: string } | null)?.code;
  return code === '26000' || (code === '0A000' && /cached plan must not change result type/.test(String((e as Error).message)));
}

/** The query and its parameters on the error, as PGlite's query() puts them there. */
function withQuery(e: unknown, sql: string, params: readonly unknown[]) {
  if (e && typeof e === 'object') Object.assign(e, { query: sql, params });
  return e;
}

function join(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
