import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PGliteDialect } from '../../src/db/pglite-dialect.ts';
import { PGliteStatements, statementsOf } from '../../src/db/pglite-statements.ts';
import { MAX_PREPARED_PER_CONNECTION, MAX_PREPARED_SQL_LENGTH } from '../../src/db/prepared.ts';
import { typeParsers } from '../../src/db/type-parsers.ts';

/**
 * The embedded database runs parameterized queries as named prepared statements and the rest as one
 * Query message, one call into PGlite each (src/db/pglite-statements.ts). What a query answers must
 * not change: every answer is compared with PGlite's own query() or exec() on the same SQL.
 */
describe("the embedded database's statements", () => {
  let pglite: PGlite;
  let statements: PGliteStatements;
  const reference = async (text: string, params: unknown[]) => {
    const r = await pglite.query(text, params, { rowMode: 'object', parsers: typeParsers });
    return { rows: r.rows, affectedRows: r.affectedRows ?? 0 };
  };

  beforeAll(async () => {
    pglite = new PGlite();
    await pglite.exec(`
      create table t (id int primary key, code text unique, amount numeric(12, 2), big bigint, day date, at timestamptz,
        flag boolean, doc jsonb, raw bytea, tags text[], ids uuid[]);
      insert into t values (1, 'a', 12.50, 9007199254740993, '2026-01-02', '2026-01-02 03:04:05.678+00', true,
        '{"a": [1, 2.50]}', '\\x00ff10', '{x,"y z"}', '{3c8f1f2e-6a4b-4c55-9b1e-2f1a7d9c0e11}');`);
    statements = new PGliteStatements(pglite, typeParsers);
  });
  afterAll(() => pglite.close());

  it('answers what query() answers, for every type and parameter kind', async () => {
    const cases: [string, unknown[]][] = [
      ['select * from t where id = $1', [1]],
      ['select * from t where id = $1', ['1']],
      ['select * from t where code = $1 and flag = $2', ['a', true]],
      ['select $1::timestamptz as at, $2::date as day, $3::numeric as n, $4::bigint as b', [new Date('2026-05-06T07:08:09.010Z'), '2026-05-06', '1.10', '42']],
      ['select $1::jsonb as doc, $2::bytea as raw, $3::text[] as tags', [JSON.stringify({ k: 'v' }), Buffer.from([1, 2, 3]), ['p', 'q r']]],
      ['select $1::text as nothing, $2::int as also', [null, undefined]],
      ['select id, code as id from t where id = $1', [1]],
      ['select * from t where id = $1', [2]],
    ];
    for (const [text, params] of cases) {
      expect(await statements.query(text, params), text).toEqual(await reference(text, params));
    }
    const { rows } = await statements.query('select big, amount, at from t where id = $1', [1]);
    // Sheaf's parsers win over PGlite's: int8 and numeric are strings, timestamps Dates.
    expect(rows[0]).toEqual({ big: '9007199254740993', amount: '12.50', at: new Date('2026-01-02T03:04:05.678Z') });
  });

  it('counts changed rows as query() does', async () => {
    const insert = ['insert into t (id, code) values ($1, $2), ($3, $4)', [10, 'p', 11, 'q']] as const;
    expect(await statements.query(insert[0], [...insert[1]])).toEqual({ rows: [], affectedRows: 2 });
    expect(await statements.query('update t set flag = $1 where id >= $2', [false, 10])).toEqual({ rows: [], affectedRows: 2 });
    expect(await statements.query('delete from t where id >= $1 returning id', [10])).toEqual({ rows: [{ id: 10 }, { id: 11 }], affectedRows: 2 });
    expect(await statements.query('select id from t where id >= $1', [0])).toMatchObject({ affectedRows: 0 });
  });

  it('parses and plans a statement once, then runs it in one call', async () => {
    const text = 'select code from t where id = $1 and $2::int > 0';
    const calls = vi.spyOn(pglite, 'execProtocol');
    try {
      const prepared = statements.size;
      await statements.query(text, [1, 1]);
      expect(statements.size).toBe(prepared + 1);
      expect(calls).toHaveBeenCalledTimes(2); // Parse and Describe; then Bind, Describe, Execute
      calls.mockClear();
      for (let i = 0; i < 3; i++) expect((await statements.query(text, [1, i + 1])).rows).toEqual([{ code: 'a' }]);
      expect(calls).toHaveBeenCalledTimes(3);
      expect(statements.size).toBe(prepared + 1);
    } finally {
      calls.mockRestore();
    }
    const { rows } = await pglite.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements where statement = $1`, [text]);
    expect(rows[0].n).toBe(1);
  });

  it('carries the database error (code, constraint, the query) and keeps working after it', async () => {
    const text = 'insert into t (id, code) values ($1, $2)';
    const error = await statements.query(text, [20, 'a']).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23505', constraint: 't_code_key', query: text, params: [20, 'a'] });
    expect(await statements.query(text, [20, 'b'])).toMatchObject({ affectedRows: 1 });
    // A statement that does not parse is not kept.
    const size = statements.size;
    await expect(statements.query('select nope from t where id = $1', [1])).rejects.toMatchObject({ code: '42703' });
    expect(statements.size).toBe(size);
  });

  it('prepares a statement again when its table changed its columns, or when it was deallocated', async () => {
    await pglite.exec(`create table s (id int primary key); insert into s values (1);`);
    const text = 'select * from s where id = $1';
    expect((await statements.query(text, [1])).rows).toEqual([{ id: 1 }]);
    await pglite.exec(`alter table s add column label text default 'x'`);
    expect((await statements.query(text, [1])).rows).toEqual([{ id: 1, label: 'x' }]);
    const { rows } = await pglite.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements where statement = $1`, [text]);
    expect(rows[0].n).toBe(1);
    // Statements deallocated behind its back are prepared again too.
    await pglite.exec('deallocate all');
    expect((await statements.query(text, [1])).rows).toEqual([{ id: 1, label: 'x' }]);
  });

  it('runs a text over the length bound through query(), and closes the least recently run beyond the count', async () => {
    const long = `select $1::int as n -- ${'x'.repeat(MAX_PREPARED_SQL_LENGTH)}`;
    const size = statements.size;
    expect((await statements.query(long, [7])).rows).toEqual([{ n: 7 }]);
    expect(statements.size).toBe(size);

    const db = new PGlite();
    try {
      const full = new PGliteStatements(db, typeParsers);
      await db.waitReady;
      const text = (i: number) => `select $1::int + ${i} as n`;
      for (let i = 0; i < MAX_PREPARED_PER_CONNECTION; i++) await full.query(text(i), [1]);
      await full.query(text(0), [1]); // the first is now the last run
      expect((await full.query('select $1::int * 2 as n', [4])).rows).toEqual([{ n: 8 }]);
      expect(full.size).toBe(MAX_PREPARED_PER_CONNECTION);
      const prepared = async () => (await db.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map((r) => r.statement);
      // text(1) was closed (its Close goes with the next Parse); text(0) was kept.
      await full.query('select $1::int * 3 as n', [1]);
      expect(await prepared()).not.toContain(text(1));
      expect(await prepared()).toContain(text(0));
      expect((await prepared()).length).toBe(MAX_PREPARED_PER_CONNECTION + 1);
      expect((await full.query(text(1), [1])).rows).toEqual([{ n: 2 }]);
    } finally {
      await db.close();
    }
  });

  it('runs parameterless SQL as one message, answering what exec() answers last', async () => {
    const texts = [
      'select 1 as a; select 2 as b, 3 as b',
      'begin; select * from t where id = 1; commit',
      "insert into t (id, code) values (30, 'm'), (31, 'n'); update t set flag = true where id >= 30",
      'delete from t where id >= 30',
      'select * from t order by id',
    ];
    for (const text of texts) {
      const reset = "delete from t where id >= 30; insert into t (id, code) values (32, 'o')";
      await pglite.exec(reset);
      const r = (await pglite.exec(text, { rowMode: 'object', parsers: typeParsers })).at(-1)!;
      await pglite.exec(reset);
      expect(await statements.simple(text), text).toEqual({ rows: r.rows, affectedRows: r.affectedRows ?? 0 });
    }
    await statements.simple('begin');
    expect(pglite.isInTransaction()).toBe(true);
    await statements.simple('commit');
    expect(pglite.isInTransaction()).toBe(false);
    await expect(statements.simple('select nope from t')).rejects.toMatchObject({ code: '42703', query: 'select nope from t' });
    // A COPY to '/dev/blob' hands back the file it wrote.
    const { blob } = await statements.simple(`copy (select id, code from t where id = 1) to '/dev/blob' with (format csv)`);
    expect(await blob?.text()).toBe('1,a\n');
  });

  it('is one set per database, shared by every handle on it, so names never collide', async () => {
    const db = new PGlite();
    try {
      expect(statementsOf(db)).toBe(statementsOf(db));
      const one = new Kysely<any>({ dialect: new PGliteDialect(db) });
      const two = new Kysely<any>({ dialect: new PGliteDialect(db) });
      for (const [i, handle] of [one, two, one, two].entries()) {
        expect((await sql<{ n: number }>`select ${i}::int as n`.execute(handle)).rows).toEqual([{ n: i }]);
        expect((await sql<{ n: number }>`select ${i}::int + 1 as n`.execute(handle)).rows).toEqual([{ n: i + 1 }]);
      }
      expect(statementsOf(db).size).toBe(2);
    } finally {
      await db.close();
    }
    // A closed database refuses as query() refuses, prepared or not.
    const refusal = await db.query('select $1::int', [1]).catch((e: Error) => e.message);
    await expect(statementsOf(db).query('select 1::int + 1 as n', [1])).rejects.toThrow(refusal as string);
  });
});
