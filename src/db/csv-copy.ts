import type { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, PostgresQueryCompiler, type Compilable, type Kysely } from 'kysely';
import { APP_ROLE } from './migrate.ts';
import type { DB } from './types.ts';
import type { Tx } from './tenant.ts';

/**
 * CSV written by the embedded database itself: PGlite's `COPY (select …) TO '/dev/blob'`
 * returns the file as one Blob, so no value of it is decoded into JavaScript and written
 * out again. The time-entry export uses it on PGlite, where decoding the rows was the
 * bottleneck (docs/decisions.md, "Time-entry export", on the embedded database).
 * PostgreSQL's pool has no such file (COPY TO a server file needs a superuser), so
 * csvCopyAvailable is false there and callers write the CSV from rows.
 */

const handles = new WeakSet<Kysely<DB>>();

/**
 * The role a COPY runs as: the application role's privileges and row-level security (it is a
 * member of it, without BYPASSRLS) plus pg_write_server_files, which COPY TO a file requires
 * even for '/dev/blob'. Tenant transactions switch to it for that one statement only.
 */
const COPY_ROLE = 'sheaf_csv_copy';

/** Makes the embedded database's handle able to COPY to '/dev/blob' (its roles are created once per data directory). */
export async function allowCsvCopy(pglite: PGlite, db: Kysely<DB>) {
  // The application role is created here when the migrations have not yet run (they grant it its privileges).
  await pglite.exec(`do $$ begin
      if not exists (select 1 from pg_roles where rolname = '${APP_ROLE}') then create role ${APP_ROLE} nologin; end if;
      if not exists (select 1 from pg_roles where rolname = '${COPY_ROLE}') then
        create role ${COPY_ROLE} nologin in role ${APP_ROLE}, pg_write_server_files;
      end if;
    end $$`);
  handles.add(db);
}

/**
 * Whether `db` can run copyCsv: only the embedded database's own handle (a request's joining
 * handle of an Idempotency-Key is another identity and writes its CSV from rows).
 */
export const csvCopyAvailable = (db: Kysely<DB>) => handles.has(db);

/**
 * Compiles values into the SQL as literals instead of parameters: COPY takes no
 * parameters. Strings are quoted by Kysely's own literal writer (quotes doubled; the
 * embedded database runs with standard_conforming_strings on, so a backslash is itself).
 */
class LiteralQueryCompiler extends PostgresQueryCompiler {
  protected override appendValue(value: unknown) {
    this.appendImmediateValue(value);
  }
}

/** `query`'s SQL with every value inlined as a literal. */
export function inlinedSql(query: Compilable): string {
  const compiled = query.compile();
  return new LiteralQueryCompiler().compileQuery(compiled.query, compiled.queryId).sql;
}

/**
 * The rows of `query` as CSV lines (RFC 4180 quoting, `\n` after each row, no header;
 * NULL as an empty field), written by the database in the transaction `trx`. Only where
 * csvCopyAvailable(db) holds for the handle the transaction came from.
 */
export async function copyCsv(trx: Tx, query: Compilable): Promise<Buffer> {
  const copy = CompiledQuery.raw(`copy (${inlinedSql(query)}) to '/dev/blob' with (format csv)`);
  await trx.executeQuery(CompiledQuery.raw(`set local role ${COPY_ROLE}`));
  const { rows } = await trx.executeQuery<{ blob?: Blob }>(copy);
  await trx.executeQuery(CompiledQuery.raw(`set local role ${APP_ROLE}`));
  // No rows, no file: PGlite returns a blob only when something was written.
  const blob = rows[0]?.blob;
  return blob ? Buffer.from(await blob.arrayBuffer()) : Buffer.alloc(0);
}
