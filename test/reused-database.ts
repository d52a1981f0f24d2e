import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/database.ts';
import type { DB } from '../src/db/types.ts';

/**
 * The embedded test database a test file closed, kept open for the next file of the same worker
 * (vitest.config.ts: files of a worker run one after another in one process). Opening a copy of
 * the template costs about a second of CPU (PGlite's boot and its dynamic linking, measured: ~1.0 s
 * against ~0.02 s for emptying the tables, below), and the suite opens about a hundred.
 *
 * A kept database is handed out again only as a fresh copy would be: its catalog must still be the
 * template's (a test that left a table, function or trigger behind, or changed the migrations'
 * record, gets a new copy instead) and every table but the migrations' record is emptied, with
 * identities restarted, before the next file sees it. Only PGlite with the default options is kept;
 * on PostgreSQL each file still gets its own schema.
 *
 * Emptying is DELETE, not TRUNCATE, for all but the tables that grew past LARGE_TABLE_BYTES:
 * TRUNCATE gives every table and index new files, which in PGlite's file system took ~300 ms for
 * the schema against ~15 ms for deleting the few rows a test file leaves (measured, docs/decisions.md
 * "The test suite's time"). The deletes run with session_replication_role = replica, so no trigger
 * (the change feed, the append-only guards) and no foreign-key check runs, whatever the order. The
 * large tables are truncated, so the dead rows of a bulk test are not carried into the next file.
 */

interface Shape {
  /** What the catalog holds (tables, functions, triggers, migrations applied), as text to compare. */
  catalog: string;
  /** The tables to empty, quoted. */
  tables: string[];
  /** The sequences their columns own (identities, serials), quoted: restarted as TRUNCATE's RESTART IDENTITY would. */
  sequences: string[];
}

let shape: Shape | undefined;
let spare: Database | undefined;

/** How long emptying a kept database may take before a fresh copy is opened instead (a test left a transaction open). */
const RESET_WITHIN_MS = 5_000;

/** A table larger than this (its main fork) is truncated instead of deleted from. */
const LARGE_TABLE_BYTES = 8 * 8192;

async function catalogOf(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ catalog: string }>`
    select concat_ws(' ',
      (select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema()),
      (select count(*) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = current_schema()),
      (select count(*) from pg_trigger),
      (select count(*) from pg_roles),
      (select count(*) from schema_migrations)) as catalog`.execute(db);
  return rows[0]!.catalog;
}

/** Reads the template's shape from a fresh copy (once per process), before any test has used it. */
export async function noteTemplateShape(db: Kysely<DB>): Promise<void> {
  if (shape) return;
  const catalog = await catalogOf(db);
  const { rows } = await sql<{ name: string }>`
    select quote_ident(tablename) as name from pg_tables
    where schemaname = current_schema() and tablename <> 'schema_migrations' order by tablename`.execute(db);
  const owned = await sql<{ name: string }>`
    select quote_ident(s.relname) as name from pg_class s
    join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = s.oid and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
    join pg_class t on t.oid = d.refobjid
    where s.relkind = 'S' and s.relnamespace = current_schema()::regnamespace and t.relname <> 'schema_migrations'
    order by s.relname`.execute(db);
  shape = { catalog, tables: rows.map((r) => r.name), sequences: owned.rows.map((r) => r.name) };
}

/** Empties every table of the shape and restarts the sequences they own, in one transaction. */
async function empty(db: Kysely<DB>, { tables, sequences }: Shape): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select quote_ident(relname) as name from pg_class
    where relnamespace = current_schema()::regnamespace and relkind = 'r' and relname <> 'schema_migrations'
      and pg_relation_size(oid) > ${LARGE_TABLE_BYTES}`.execute(db);
  const large = new Set(rows.map((r) => r.name));
  const statements = [
    'begin',
    'set local session_replication_role = replica',
    ...tables.filter((t) => !large.has(t)).map((t) => `delete from ${t}`),
    ...(large.size ? [`truncate ${[...large].join(', ')} cascade`] : []),
    ...sequences.map((s) => `alter sequence ${s} restart`),
    'commit',
  ];
  await sql.raw(statements.join(';\n')).execute(db);
}

/** The kept database, emptied, or undefined when there is none or it no longer looks like the template. */
export async function takeSpare(): Promise<Database | undefined> {
  const database = spare;
  spare = undefined;
  if (!database || !shape) return undefined;
  const kept = shape;
  let timer: NodeJS.Timeout | undefined;
  const reset = (async () => {
    if ((await catalogOf(database.db)) !== kept.catalog) return false;
    await empty(database.db, kept);
    return true;
  })();
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), RESET_WITHIN_MS)));
  try {
    const outcome = await Promise.race([reset, late]);
    if (outcome === true) return database;
    if (outcome === false) await database.close();
    return undefined; // 'late': left as it is (closing would wait for the same transaction)
  } catch {
    await database.close().catch(() => {});
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** A test file is done with `database`: keep it for the next file, or close it when one is kept already. */
export async function giveBack(database: Database): Promise<void> {
  if (spare) return database.close();
  spare = database;
}
