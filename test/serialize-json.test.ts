import { describe, expect, it } from 'vitest';
import { SLICE_ITEMS, serializeJson } from '../src/http/serializers.ts';

/**
 * serializeJson (the list routes' serializer): JSON.stringify's bytes exactly, as a Buffer when a
 * page's array is long enough to be serialized in slices, else JSON.stringify's string.
 */

const bytesOf = (out: string | Buffer) => (Buffer.isBuffer(out) ? out : Buffer.from(out));

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = ['', 'plain', 'Grüße € 😀', 'quote " backslash \\ newline \n tab \t', '\u0000\u001f\u2028\u2029', '\ud800 lone surrogate'];

function item(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 7 : 10));
  switch (pick) {
    case 0: return null;
    case 1: return next() < 0.5;
    case 2: return Math.floor(next() * 1e9) - 5e8;
    case 3: return next() * 1e6;
    case 4: return STRINGS[Math.floor(next() * STRINGS.length)];
    case 5: return new Date(Math.floor(next() * 2e12));
    case 6: return undefined;
    case 7: return Array.from({ length: Math.floor(next() * 4) }, () => item(next, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (const key of ['id', 'name', '2', 'é', 'a"b', 'fn']) if (next() < 0.7) o[key] = key === 'fn' ? () => 1 : item(next, depth + 1);
      return o;
    }
  }
}

describe('serializeJson', () => {
  it.each([0, 1, SLICE_ITEMS, SLICE_ITEMS + 1, 2 * SLICE_ITEMS, 2 * SLICE_ITEMS + 1, 2000])('a page of %i items: JSON.stringify\'s bytes', (n) => {
    const next = random(n + 1);
    const page = {
      time_entries: Array.from({ length: n }, () => item(next)),
      per_page: 2000,
      skipped: undefined,
      fn: () => 1,
      next_page: null,
      links: { first: '/api/v2/time_entries?page=1', next: null },
    };
    const out = serializeJson(page);
    expect(Buffer.isBuffer(out)).toBe(n > SLICE_ITEMS);
    expect(bytesOf(out).equals(Buffer.from(JSON.stringify(page)))).toBe(true);
  });

  it('two long arrays, integer-like keys (which JSON.stringify writes first), a key to escape and an empty object', () => {
    const next = random(7);
    const page = { b: Array.from({ length: 250 }, () => item(next)), 10: 'ten', a: Array.from({ length: 101 }, () => item(next)), 1: {}, sym: Symbol('s'), 'k"ey\\': 'escaped key' };
    expect(bytesOf(serializeJson(page)).equals(Buffer.from(JSON.stringify(page)))).toBe(true);
  });

  it('leaves to JSON.stringify what is not a plain page: toJSON, top-level arrays, scalars', () => {
    const long = Array.from({ length: 300 }, (_, i) => ({ i }));
    const withToJson = { items: long, toJSON: () => ({ replaced: true }) };
    expect(serializeJson(withToJson)).toBe('{"replaced":true}');
    expect(serializeJson(long)).toBe(JSON.stringify(long));
    expect(serializeJson(null)).toBe('null');
    expect(serializeJson('text')).toBe('"text"');
    expect(serializeJson({ short: long.slice(0, SLICE_ITEMS) })).toBe(JSON.stringify({ short: long.slice(0, SLICE_ITEMS) }));
  });

  it('a throwing value throws, as JSON.stringify does (a cycle, a BigInt)', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => serializeJson({ items: Array.from({ length: 150 }, (_, i) => (i === 120 ? cyclic : i)) })).toThrow(TypeError);
    expect(() => serializeJson({ items: Array.from({ length: 150 }, (_, i) => (i === 3 ? 1n : i)) })).toThrow(TypeError);
  });
});
