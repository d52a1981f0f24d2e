import { describe, expect, it } from 'vitest';
import { safeNext } from './next.ts';

describe('safeNext', () => {
  it.each([
    ['/settings/password', '/settings/password'],
    ['/time/week?start=2025-01-13', '/time/week?start=2025-01-13'],
    [null, '/'],
    ['', '/'],
    ['https://evil.example/', '/'],
    ['//evil.example/path', '/'],
    ['/\\evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['/\tjavascript', '/'],
    ['/sign-in?next=/x', '/'],
    ['/sign-in/link', '/'],
  ])('%s -> %s', (input, expected) => {
    expect(safeNext(input)).toBe(expected);
  });
});
