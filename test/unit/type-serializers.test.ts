import { types } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { pgliteSerializers } from '../../src/db/type-parsers.ts';

describe('the embedded database\'s bytea serializer', () => {
  const ours = pgliteSerializers[types.BYTEA];
  const theirs = types.serializers[types.BYTEA] as (value: unknown) => string;

  it('writes the text PGlite\'s own serializer writes, for a view into a larger buffer too', () => {
    const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 151 + 7) % 256);
    for (const value of [new Uint8Array(0), bytes, bytes.subarray(13, 400), Buffer.from(bytes.buffer, 100, 9)]) {
      expect(ours(value)).toBe(theirs(value));
    }
  });

  it('refuses anything but bytes, as PGlite\'s does', () => {
    for (const value of ['\\x00', [1, 2], 3]) {
      expect(() => ours(value)).toThrow(/bytea/);
      expect(() => theirs(value)).toThrow(/bytea/);
    }
  });
});
