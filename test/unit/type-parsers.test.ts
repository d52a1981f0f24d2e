import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from '../../src/db/type-parsers.ts';

/** pg's own parser (postgres-date): what every timestamp was read with before, and what the app's must equal. */
const postgresDate = pg.types.getTypeParser(1184) as (text: string) => Date | number;
const same = (text: string) => {
  const ours = parseTimestamptz(text);
  const theirs = postgresDate(text);
  return ours instanceof Date && theirs instanceof Date ? Object.is(ours.getTime(), theirs.getTime()) : Object.is(ours, theirs);
};

describe('timestamptz read from its digits', () => {
  it('gives the Date pg gives for every fraction of a second PostgreSQL prints (1 to 6 digits)', () => {
    const mismatches: string[] = [];
    for (let digits = 1; digits <= 6; digits++) {
      for (let fraction = 0; fraction < 10 ** digits; fraction++) {
        const text = `2026-12-05 02:40:59.${String(fraction).padStart(digits, '0')}+00`;
        if (!same(text)) mismatches.push(text);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('gives the Date pg gives across the calendar: years 100 to 9999, leap days, the ends of days and years', () => {
    const texts = ['0100-01-01 00:00:00+00', '1970-01-01 00:00:00+00', '2000-02-29 23:59:59.999999+00', '2024-02-29 12:00:00.5+00', '2026-12-31 23:59:59+00', '9999-12-31 23:59:59.999999+00'];
    let seed = 7;
    const random = (below: number) => (seed = (seed * 48271) % 2147483647) % below;
    for (let i = 0; i < 20_000; i++) {
      const at = new Date(Date.UTC(100 + random(9900), 0, 1) + random(366) * 86_400_000 + random(86_400_000));
      const micros = random(1_000_000);
      const text = at.toISOString().replace('T', ' ').slice(0, 19);
      texts.push(`${text}+00`, `${text}.${String(micros).padStart(6, '0').replace(/0+$/, '') || '0'}+00`);
    }
    expect(texts.filter((text) => !same(text))).toEqual([]);
  });

  it('leaves every other form to pg: offsets, BC, infinity, two-digit years, timestamps without a zone, stray characters', () => {
    const texts = [
      '2026-12-05 02:40:00+01',
      '2026-12-05 02:40:00.25-08',
      '2026-12-05 02:40:00+05:30',
      '2026-12-05 02:40:00.123+00:00',
      '0044-03-15 12:00:00+00 BC',
      '0099-06-01 00:00:00+00',
      '0001-01-01 00:00:00+00',
      '12026-01-01 00:00:00+00',
      'infinity',
      '-infinity',
      '2026-12-05 02:40:00',
      '2026-12-05 02:40:00.123456',
      '2026-12-05 02:40:00.+00',
      '2026-12-05T02:40:00.123+00',
      '2026-12-05 02:40:0x.123+00',
      '2026-12-05 02:40:00.12a4+00',
    ];
    for (const text of texts) expect(same(text), text).toBe(true);
  });
});
