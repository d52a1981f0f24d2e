import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createWorkspaceWithOwner, DATABASE_URL, openTestDatabase } from '../helpers.ts';

/**
 * test/reused-database.ts: the embedded database a file closed is handed to the worker's next
 * file as a fresh copy would be. PGlite only (PostgreSQL runs give each file its own schema).
 */
describe.skipIf(DATABASE_URL)('a kept test database, handed out again', () => {
  it('is emptied, its owned sequences restarted, its big tables truncated, and its triggers still fire', async () => {
    const first = await openTestDatabase();
    // A session setting marks the connection, so the second open is known to be the kept database.
    await sql`select set_config('sheaf_test.kept', 'yes', false)`.execute(first.db);
    const migrations = await sql<{ n: string }>`select count(*) as n from schema_migrations`.execute(first.db);
    await createWorkspaceWithOwner(first.db);
    await sql`select nextval('credentials_serial_seq')`.execute(first.db);
    // More than LARGE_TABLE_BYTES of rows in one table, as a bulk test leaves them.
    await sql`
      insert into changes (company_id, record_type, record_id, action)
      select gen_random_uuid(), 'clients', gen_random_uuid(), 'created' from generate_series(1, 3000)`.execute(first.db);
    expect(Number((await sql<{ n: string }>`select count(*) as n from companies`.execute(first.db)).rows[0]!.n)).toBe(1);
    await first.close();

    const again = await openTestDatabase();
    try {
      const db = again.db;
      expect((await sql<{ kept: string }>`select current_setting('sheaf_test.kept', true) as kept`.execute(db)).rows[0]!.kept).toBe('yes');
      const tables = (
        await sql<{ name: string }>`
          select quote_ident(tablename) as name from pg_tables
          where schemaname = current_schema() and tablename <> 'schema_migrations'`.execute(db)
      ).rows.map((r) => r.name);
      const counts = await sql.raw<{ name: string; n: string }>(
        tables.map((t) => `select '${t}' as name, count(*) as n from ${t}`).join(' union all '),
      ).execute(db);
      expect(counts.rows.filter((r) => Number(r.n) > 0)).toEqual([]);
      expect((await sql<{ n: string }>`select count(*) as n from schema_migrations`.execute(db)).rows[0]!.n).toBe(migrations.rows[0]!.n);
      // Truncated: the 3,000 rows' pages are gone, not left dead for the next file's scans.
      expect(Number((await sql<{ size: string }>`select pg_relation_size('changes') as size`.execute(db)).rows[0]!.size)).toBe(0);
      expect((await sql<{ v: string }>`select nextval('credentials_serial_seq') as v`.execute(db)).rows[0]!.v).toBe('1');
      // The triggers were off only for the reset: a new workspace's people are in the change feed again.
      expect((await sql<{ role: string }>`select current_setting('session_replication_role') as role`.execute(db)).rows[0]!.role).toBe('origin');
      await createWorkspaceWithOwner(db);
      const feed = await sql<{ seq: string; record_type: string }>`select seq, record_type from changes order by seq`.execute(db);
      expect(feed.rows[0]).toEqual({ seq: '1', record_type: 'users' });
    } finally {
      await again.close();
    }
  });
});
