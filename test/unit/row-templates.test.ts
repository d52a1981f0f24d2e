import { createHash } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { fastAddFields, libraryAddFields, type ResultSetup } from '../../src/db/row-templates.ts';
import { pgTypes } from '../../src/db/type-parsers.ts';
import { onPostgres, openTestDatabase } from '../helpers.ts';

type Result = ResultSetup & { addFields(): void; parseRow(values: (string | null)[]): Record<string, unknown> };
const ResultClass = (pg as unknown as { Result: new (rowMode: string | undefined, types: unknown) => Result }).Result;

const field = (name: string, dataTypeID = 25, format = 'text') => ({ name, dataTypeID, format, tableID: 0, columnID: 0, dataTypeSize: -1, dataTypeModifier: -1 });

/** Result shapes: what the app reads, and the names an ordinary object treats specially. */
const SHAPES: Record<string, ReturnType<typeof field>[]> = {
  'no columns (an INSERT without RETURNING)': [],
  'the authentication query': [
    'key_id', 'user_id', 'company_id', 'kind', 'revoked_at', 'expires_at', 'use_due_at', 'role', 'is_active',
    'first_name', 'last_name', 'email', 'company_name', 'timezone', 'permissions', 'features',
  ].map((name, i) => field(name, [25, 1184, 16, 1700, 20, 1082, 1009, 114][i % 8])),
  'integer-like names, which objects keep first and in numeric order': ['b', '10', 'a', '2', '0', '-1', '01'].map((n) => field(n)),
  'a name used twice': [field('id'), field('name'), field('id', 23)],
  'names an object inherits': ['constructor', 'toString', 'hasOwnProperty', 'valueOf', ''].map((n) => field(n)),
  'a __proto__ column': [field('a'), field('__proto__'), field('b')],
  'binary and unknown types': [field('bytes', 17, 'binary'), field('odd', 999_999), field('stamp', 1184)],
};

/** The library method's source text, whitespace folded: a new version of it needs a new look at the replacement. */
const LIBRARY_SOURCE_HASH = 'f6578a04f8c642c6';

/** A value as PostgreSQL sends it, per type (oid). */
const SAMPLE_TEXT: Record<number, string> = { 16: 't', 20: '9007199254740993', 114: '{"a":[1]}', 1009: '{a,"b c"}', 1082: '2026-12-05', 1184: '2026-12-05 08:00:00.123456+00', 1700: '1.10' };

function setUp(addFields: typeof libraryAddFields, types: unknown, shapes: ReturnType<typeof field>[][]): Result {
  const result = new ResultClass(undefined, types);
  for (const shape of shapes) addFields.call(result, shape);
  return result;
}

function expectSameSetup(ours: Result, theirs: Result) {
  expect(ours.fields).toBe(theirs.fields);
  expect(ours._parsers?.length).toBe(theirs._parsers?.length);
  ours._parsers?.forEach((parser, i) => expect(parser).toBe(theirs._parsers![i]));
  const [a, b] = [ours._prebuiltEmptyResultObject!, theirs._prebuiltEmptyResultObject!];
  expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
  expect(Reflect.ownKeys(a)).toEqual(Reflect.ownKeys(b));
  expect(Object.values(a)).toEqual(Object.values(b));
}

describe('node-postgres result setup (row templates)', () => {
  for (const [label, shape] of Object.entries(SHAPES)) {
    it(`leaves a result as the library does: ${label}`, () => {
      for (const types of [pgTypes, undefined]) {
        const ours = setUp(fastAddFields, types, [shape]);
        const theirs = setUp(libraryAddFields, types, [shape]);
        expectSameSetup(ours, theirs);
        if (shape.length === 0 || shape.some((f) => f.format === 'binary')) continue;
        const values = shape.map((f, i) => (i % 3 === 2 ? null : (SAMPLE_TEXT[f.dataTypeID] ?? `v${i}`)));
        const [row, expected] = [ours.parseRow(values), theirs.parseRow(values)];
        expect(Reflect.ownKeys(row)).toEqual(Reflect.ownKeys(expected));
        expect(Object.getPrototypeOf(row)).toBe(Object.getPrototypeOf(expected));
        expect(row).toStrictEqual(expected);
      }
    });
  }

  it('a second result set of the same statement replaces the first, as in the library', () => {
    const sets = [SHAPES['the authentication query'], SHAPES['a name used twice']];
    expectSameSetup(setUp(fastAddFields, pgTypes, sets), setUp(libraryAddFields, pgTypes, sets));
    const emptyAfter = [SHAPES['a name used twice'], []];
    expectSameSetup(setUp(fastAddFields, pgTypes, emptyAfter), setUp(libraryAddFields, pgTypes, emptyAfter));
  });

  it('replaces the addFields of node-postgres 8.23 (review row-templates.ts when the library changes it)', () => {
    const source = libraryAddFields.toString().replace(/\s+/g, ' ');
    expect(source).toContain('Object.create(null)');
    expect(createHash('sha256').update(source).digest('hex').slice(0, 16)).toBe(LIBRARY_SOURCE_HASH);
  });

  it('uses our type parsers, not the library defaults, when the pool gives them', () => {
    const result = setUp(fastAddFields, pgTypes, [[field('at', 1184), field('on', 1082), field('amount', 1700)]]);
    expect(result.parseRow(['2026-12-05 08:00:00.5+00', '2026-12-05', '1.10'])).toEqual({ at: new Date('2026-12-05T08:00:00.500Z'), on: '2026-12-05', amount: '1.10' });
  });
});

describe.runIf(onPostgres)('row templates on PostgreSQL', () => {
  it('the app\'s node-postgres pool sets its results up with them, and its rows are as before', async () => {
    const database = await openTestDatabase();
    try {
      const installed = ResultClass.prototype.addFields;
      expect(installed).not.toBe(libraryAddFields);
      expect(installed.name).toBe('fastAddFields');
      const { rows } = await sql<Record<string, unknown>>`select 1 as "b", 'x' as "10", null::text as "__proto__", timestamptz '2026-12-05 08:00:00.25+00' as at`.execute(database.db);
      expect(Reflect.ownKeys(rows[0])).toEqual(['10', 'b', '__proto__', 'at']);
      expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
      expect(rows[0]).toEqual({ b: 1, 10: 'x', ['__proto__']: null, at: new Date('2026-12-05T08:00:00.250Z') });
    } finally {
      await database.close();
    }
  });
});
