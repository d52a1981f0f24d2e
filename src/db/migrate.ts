import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { statementLimit } from './timeouts.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** The role tenant work runs as: no BYPASSRLS, so row-level security applies to it. */
export const APP_ROLE = 'sheaf_app';

export interface Migration {
  version: string;
  sql: string;
}

export function listMigrations(): Migration[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: f.replace(/\.sql$/, ''), sql: readFileSync(join(MIGRATIONS_DIR, f), 'utf8') }));
}

/**
 * Applies the pending plain-SQL migrations, forward only, in one transaction under
 * an advisory lock, so several processes starting at once apply each exactly once.
 * Then makes sure the application role exists and may use this schema's tables.
 * Returns the versions it applied.
 */
export async function migrate(db: Kysely<any>): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    // Migrations may run long (an index over a large table): no statement limit. A second
    // process starting meanwhile waits for the first one's migrations however long they
    // take; the DDL then waits for its table locks at most the usual lock timeout, so a
    // migration blocked by live traffic fails (and is retried at the next start) instead of
    // queueing that traffic behind it.
    await sql`select ${statementLimit(0)}, set_config('lock_timeout', '0', true)`.execute(trx);
    // One lock for the whole database: role creation and grants are cluster-wide
    // catalogue writes that fail when two schemas' migrations run them at once.
    await sql`select pg_advisory_xact_lock(7372101)`.execute(trx);
    await sql`set local lock_timeout to default`.execute(trx);
    await sql`create table if not exists schema_migrations (
      version text primary key,
      applied_at timestamptz not null default now()
    )`.execute(trx);
    const done = new Set(
      (await sql<{ version: string }>`select version from schema_migrations`.execute(trx)).rows.map((r) => r.version),
    );
    const applied: string[] = [];
    for (const m of listMigrations()) {
      if (done.has(m.version)) continue;
      await sql.raw(m.sql).execute(trx);
      await sql`insert into schema_migrations (version) values (${m.version})`.execute(trx);
      applied.push(m.version);
    }
    await grantAppRole(trx);
    return applied;
  });
}

async function grantAppRole(trx: Kysely<any>) {
  await sql.raw(`do $$ begin
      if not exists (select 1 from pg_roles where rolname = '${APP_ROLE}') then
        create role ${APP_ROLE} nologin;
      end if;
      -- The login role must be a member to SET ROLE; superusers already may.
      if not (select rolsuper from pg_roles where rolname = current_user)
         and not pg_has_role(current_user, '${APP_ROLE}', 'member') then
        execute format('grant ${APP_ROLE} to %I', current_user);
      end if;
      execute format('grant usage on schema %I to ${APP_ROLE}', current_schema());
      execute format('grant select, insert, update, delete on all tables in schema %I to ${APP_ROLE}', current_schema());
      execute format('grant usage, select on all sequences in schema %I to ${APP_ROLE}', current_schema());
      execute format('grant execute on all functions in schema %I to ${APP_ROLE}', current_schema());
    end $$`).execute(trx);
}
