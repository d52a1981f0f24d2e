import { describe, expect, it } from 'vitest';
import { largestRows } from './chart-rows.ts';

describe('largestRows: what a report chart draws', () => {
  // Twenty projects named A… to T…, hours rising to the end of the alphabet: the alphabetically first are the smallest.
  const rows = Array.from({ length: 20 }, (_, i) => ({ name: `${String.fromCharCode(65 + i)} project`, hours: i + 1, billable_hours: 0 }));

  it('keeps the 15 largest by hours, largest first, not the alphabetically first', () => {
    const drawn = largestRows(rows, 'hours', 15);
    expect(drawn).toHaveLength(15);
    expect(drawn[0]).toEqual({ name: 'T project', hours: 20, billable_hours: 0 });
    expect(drawn.map((r) => r.hours)).toEqual([20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6]);
    expect(drawn.some((r) => r.name === 'A project')).toBe(false);
  });

  it('breaks ties by name, reads null as zero, and leaves the input as it was', () => {
    const input = [
      { name: 'Beta', hours: 2 },
      { name: 'alpha', hours: 2 },
      { name: 'Gamma', hours: null },
    ];
    expect(largestRows(input, 'hours', 15).map((r) => r.name)).toEqual(['alpha', 'Beta', 'Gamma']);
    expect(input.map((r) => r.name)).toEqual(['Beta', 'alpha', 'Gamma']);
  });

  it('draws every row when they fit', () => {
    expect(largestRows(rows.slice(0, 3), 'hours', 15)).toHaveLength(3);
  });
});
