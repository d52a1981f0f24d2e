import { describe, expect, it } from 'vitest';
import { addDays, isDate, monthRange, pickerDate, pickerDateOrNull, spanDays, weekDays, weekStartOf, yearRange } from './dates.ts';

describe('calendar days', () => {
  it('move across month and year ends', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
  });

  it('count a span inclusively', () => {
    expect(spanDays({ from: '2025-11-25', to: '2026-11-24' })).toBe(365);
    expect(spanDays({ from: '2026-03-01', to: '2026-03-01' })).toBe(1);
  });

  it('make whole months and years', () => {
    expect(monthRange(2028, 2)).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthRange(2026, 4, 3)).toEqual({ from: '2026-04-01', to: '2026-06-30' });
    expect(yearRange(2026)).toEqual({ from: '2026-01-01', to: '2026-12-31' });
  });

  it('know the shape of a day, and a picker value', () => {
    expect(isDate('2026-03-01')).toBe(true);
    expect(isDate('20260301')).toBe(false);
    expect(isDate(null)).toBe(false);
    expect(pickerDate('2026-03-01')?.toString()).toBe('2026-03-01');
    expect(pickerDate(null)).toBeNull();
    expect(pickerDateOrNull('2026-02-30')).toBeNull();
    expect(pickerDateOrNull('soon')).toBeNull();
  });
});

describe('weeks', () => {
  it('have seven calendar days across a DST switch', () => {
    expect(weekDays('2026-03-23')).toEqual(['2026-03-23', '2026-03-24', '2026-03-25', '2026-03-26', '2026-03-27', '2026-03-28', '2026-03-29']);
    expect(weekDays('2026-10-19').at(-1)).toBe('2026-10-25');
    expect(weekDays('2026-12-28').at(-1)).toBe('2027-01-03');
  });

  it('start on the workspace’s day', () => {
    expect(weekStartOf('2026-03-29', 'monday')).toBe('2026-03-23');
    expect(weekStartOf('2026-03-29', 'sunday')).toBe('2026-03-29');
    expect(weekStartOf('2026-03-28', 'sunday')).toBe('2026-03-22');
    expect(weekStartOf('2026-03-23', 'monday')).toBe('2026-03-23');
    expect(weekStartOf('2026-01-01', 'saturday')).toBe('2025-12-27');
  });
});

