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

const parseTimestamptz = pg.types.getTypeParser(OID.timestamptz) as (v: string) => Date;

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
