import { describe, expect, it } from 'vitest';
import { pageOfRows } from './pages.ts';

describe('a list a page at a time', () => {
  const rows = Array.from({ length: 250 }, (_, i) => i);
  it('shows `size` rows a page, the rest on the last', () => {
    expect(pageOfRows(rows, 1, 100)).toMatchObject({ page: 1, pages: 3, shown: rows.slice(0, 100) });
    expect(pageOfRows(rows, 3, 100)).toMatchObject({ page: 3, pages: 3, shown: rows.slice(200) });
  });
  it('keeps to the pages there are: past the last is the last, and no rows are one empty page', () => {
    expect(pageOfRows(rows, 9, 100)).toMatchObject({ page: 3, shown: rows.slice(200) });
    expect(pageOfRows([], 2, 50)).toEqual({ page: 1, pages: 1, shown: [] });
  });
});
