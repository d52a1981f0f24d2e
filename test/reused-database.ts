import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/database.ts';
import type { DB } from '../src/db/types.ts';

/**
 * The embedded test database a test file closed, kept open for the next file of the same worker
 * (vitest.config.ts: files of a worker run one after another in one process). Opening a copy of
 * the template costs about a second of CPU (PGlite's boot and its dynamic linking, measured: ~1.0 s
 * against ~0.25 s for emptying the tables), and the suite opens about a hundred.
 *
 * A kept database is handed out again only as a fresh copy would be: its catalog must still be the
 * template's (a test that left a table, function or trigger behind, or changed the migrations'
 * record, gets a new copy instead) and every table but the migrations' record is emptied, with
 * identities restarted, before the next file sees it. Only PGlite with the default options is kept;
 * on PostgreSQL each file still gets its own schema.
 */

interface Shape {
  /** What the catalog holds (tables, functions, triggers, migrations applied), as text to compare. */
  catalog: string;
  /** The tables to empty, quoted and comma-separated. */
  tables: string;
}

let shape: Shape | undefined;
let spare: Database | undefined;

/** How long emptying a kept database may take before a fresh copy is opened instead (a test left a transaction open). */
const RESET_WITHIN_MS = 5_000;

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
  shape = { catalog, tables: rows.map((r) => r.name).join(', ') };
}

/** The kept database, emptied, or undefined when there is none or it no longer looks like the template. */
export async function takeSpare(): Promise<Database | undefined> {
  const database = spare;
  spare = undefined;
  if (!database || !shape) return undefined;
  const { catalog, tables } = shape;
  let timer: NodeJS.Timeout | undefined;
  const reset = (async () => {
    if ((await catalogOf(database.db)) !== catalog) return false;
    await sql.raw(`truncate ${tables} restart identity cascade`).execute(database.db);
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
