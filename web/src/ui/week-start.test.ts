import { describe, expect, it } from 'vitest';
import { firstDayOfWeek } from './week-start.ts';

describe('a calendar’s first day of the week', () => {
  it('is the workspace’s week_start in React Aria’s words; an unknown one leaves it to the language', () => {
    expect(firstDayOfWeek('monday')).toBe('mon');
    expect(firstDayOfWeek('sunday')).toBe('sun');
    expect(firstDayOfWeek('saturday')).toBe('sat');
    expect(firstDayOfWeek('someday')).toBeUndefined();
    expect(firstDayOfWeek('constructor')).toBeUndefined();
    expect(firstDayOfWeek(undefined)).toBeUndefined();
  });
});
