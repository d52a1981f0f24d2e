import pg from 'pg';

/**
 * One set of type parsers for both drivers, so PGlite and node-postgres hand the
 * application identical JavaScript values. Money and hours (numeric) and int8 stay
 * strings: they are turned into decimal.js values where arithmetic happens, never
 * into binary floats. Dates stay `YYYY-MM-DD` strings: a calendar date has no time zone.
 */
const OID = {
  int8: 20,
  numeric: 1700,
  date: 1082,
  timestamp: 1114,
  timestamptz: 1184,
  bytea: 17,
} as const;

const parseTimestampText = pg.types.getTypeParser(OID.timestamptz) as (v: string) => Date;

const DIGIT_0 = 48;
const digitsAt = (text: string, at: number, count: number) => {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const d = text.charCodeAt(i) - DIGIT_0;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
};

/**
 * A timestamp as PostgreSQL prints it in the UTC sessions the app opens
 * (`2026-12-05 02:40:00.123456+00`), read from its digits into the same Date as
 * pg's own parser (postgres-date) gives; any other text (an offset other than
 * +00, BC, infinity, a year before 100 or past 9999, `timestamp` without a zone)
 * goes to that parser. postgres-date matches regular expressions and calls
 * parseFloat, ~0.4 µs a value, and a 2,000-row page carries 4,000 timestamps;
 * reading the digits is a quarter of that (issue 24; docs/decisions.md, "Hot
 * paths: timestamps read from their digits"). Milliseconds are the fraction's first
 * three digits, which is what postgres-date's `1000 * parseFloat(fraction)`,
 * truncated by Date.UTC, gives for every fraction of up to six digits
 * (test/unit/type-parsers.test.ts compares them all).
 */
export function parseTimestamptz(text: string): Date {
  const n = text.length;
  // 'YYYY-MM-DD HH:MM:SS' (19), an optional '.' and 1–6 digits, then '+00'.
  if (n < 22 || n > 29 || n === 23 || text.charCodeAt(n - 3) !== 43 || text.charCodeAt(n - 2) !== DIGIT_0 || text.charCodeAt(n - 1) !== DIGIT_0) {
    return parseTimestampText(text);
  }
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  let ms = 0;
  if (n > 22) {
    const digits = n - 23;
    const fraction = digitsAt(text, 20, Math.min(digits, 3));
    if (text.charCodeAt(19) !== 46 || fraction < 0 || (digits > 3 && digitsAt(text, 23, digits - 3) < 0)) return parseTimestampText(text);
    ms = digits >= 3 ? fraction : fraction * (digits === 1 ? 100 : 10);
  }
  if (year < 100 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return parseTimestampText(text);
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) {
    return parseTimestampText(text);
  }
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
}

const identity = (value: string) => value;
const parseBytea = (value: string) => Buffer.from(value.startsWith('\\x') ? value.slice(2) : value, 'hex');

export const typeParsers: Record<number, (value: string) => unknown> = {
  [OID.int8]: identity,
  [OID.numeric]: identity,
  [OID.date]: identity,
  [OID.timestamp]: parseTimestamptz,
  [OID.timestamptz]: parseTimestamptz,
  [OID.bytea]: parseBytea,
};

/**
 * PGlite's own bytea serializer builds the hex text one byte at a time
 * (Array.from(bytes).map(...).join('')): a 10 MiB receipt took ~2.3 s of CPU and as
 * much again in garbage collection. Buffer's native hex encoding gives the same text.
 * (node-postgres sends a Buffer as it is.)
 */
export const pgliteSerializers: Record<number, (value: unknown) => string> = {
  [OID.bytea]: (value) => {
    if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
    return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  },
};

/** node-postgres `types` option: our parsers first, the library's for everything else. */
export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    const own = typeParsers[oid];
    if (own && format !== 'binary') return own;
    return (pg.types.getTypeParser as (o: number, f?: string) => unknown)(oid, format);
  },
} as unknown as pg.CustomTypesConfig;
