import { describe, expect, it } from 'vitest';
import { isId, newId } from '../../src/ids.ts';

describe('newId', () => {
  it('is a UUIDv7 carrying the given millisecond', () => {
    const at = Date.UTC(2026, 2, 20, 12, 0, 0);
    const id = newId(at);
    expect(isId(id)).toBe(true);
    expect(id[14]).toBe('7'); // version
    expect('89ab').toContain(id[19]); // variant
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts ids made at the same instant in creation order, and stays unique', () => {
    const at = Date.UTC(2026, 2, 20);
    const ids = Array.from({ length: 5000 }, () => newId(at));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('orders by time first', () => {
    const later = newId(Date.UTC(2026, 2, 21));
    const earlier = newId(Date.UTC(2026, 2, 20));
    expect(earlier < later).toBe(true);
  });
});
