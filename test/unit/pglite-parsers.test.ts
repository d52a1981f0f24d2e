import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dropRowArrayParsers } from '../../src/db/database.ts';
import { typeParsers } from '../../src/db/type-parsers.ts';
import { DATABASE_URL, openTestDatabase } from '../helpers.ts';

/**
 * PGlite copies its table of type parsers for every query() and exec(), so the embedded database drops the
 * parsers of row types' arrays, which no query of Sheaf's returns (src/db/database.ts).
 */
describe.skipIf(DATABASE_URL)("the embedded database's type parsers", () => {
  const arrays = sql<Record<string, unknown>>`
    select array['a', 'b']::text[] as texts, array['3c8f1f2e-6a4b-4c55-9b1e-2f1a7d9c0e11']::uuid[] as ids,
      array[1.50]::numeric[] as amounts, array[9007199254740993]::bigint[] as counts, array[2, 3]::integer[] as numbers,
      array[date '2026-01-02'] as dates, array[true, false] as flags, array['{"a": 1}'::jsonb] as documents,
      array[timestamptz '2026-01-02 03:04:05.678+00'] as instants`;
  const parsed = {
    texts: ['a', 'b'],
    ids: ['3c8f1f2e-6a4b-4c55-9b1e-2f1a7d9c0e11'],
    amounts: ['1.50'],
    counts: ['9007199254740993'],
    numbers: [2, 3],
    dates: ['2026-01-02'],
    flags: [true, false],
    documents: [{ a: 1 }],
    instants: [new Date('2026-01-02T03:04:05.678Z')],
  };

  it('keep the arrays of base types and drop those of row types', async () => {
    const pglite = new PGlite({ parsers: typeParsers });
    try {
      await pglite.waitReady;
      const before = Object.keys(pglite.parsers).length;
      await dropRowArrayParsers(pglite);
      const after = Object.keys(pglite.parsers).length;
      expect(before).toBeGreaterThan(250);
      expect(after).toBeLessThan(120);
      const { rows } = await pglite.query<{ a: number[] }>(`select array[1, 2] as a`);
      expect(rows[0]!.a).toEqual([1, 2]);
    } finally {
      await pglite.close();
    }
  });

  it("are what the app's embedded database reads arrays with", async () => {
    const database = await openTestDatabase();
    try {
      expect((await arrays.execute(database.db)).rows[0]).toEqual(parsed);
      // A row type's array is left as PostgreSQL's text: its parser was dropped when the database opened.
      const rows = await sql<{ list: unknown }>`select (array_agg(m))[1:2] as list from schema_migrations m`.execute(database.db);
      expect(rows.rows[0]!.list).toEqual(expect.stringMatching(/^\{"\(.*\)","\(.*\)"\}$/));
    } finally {
      await database.close();
    }
  });
});

/** PGlite starts with debug message levels; the app's embedded database sets PostgreSQL's (src/db/database.ts). */
describe.skipIf(DATABASE_URL)("the embedded database's message levels", () => {
  it("are PostgreSQL's, not PGlite's debug ones (no debug notice with every statement)", async () => {
    const database = await openTestDatabase();
    try {
      const levels = await sql<{ client: string; log: string }>`select current_setting('client_min_messages') as client, current_setting('log_min_messages') as log`.execute(database.db);
      expect(levels.rows[0]).toEqual({ client: 'notice', log: 'warning' });
    } finally {
      await database.close();
    }
  });
});
