import { describe, expect, it } from 'vitest';
import { dayHours, hoursOf, STANDARD_WEEK, weekHours, weeklyTotal, WEEKDAYS, type Weekday } from './patterns.ts';

const typed = (over: Partial<Record<Weekday, string>> = {}) => ({ ...Object.fromEntries(WEEKDAYS.map((d) => [d, ''])), ...over }) as Record<Weekday, string>;

describe('working patterns', () => {
  it('read a weekday’s hours as durations, empty as 0, refusing more than a day and nonsense', () => {
    expect(dayHours('8')).toBe(8);
    expect(dayHours('7:30')).toBe(7.5);
    expect(dayHours('7,5')).toBe(7.5);
    expect(dayHours('')).toBe(0);
    expect(dayHours('0')).toBe(0);
    expect(dayHours('25')).toBeNull();
    expect(dayHours('-1')).toBeNull();
    expect(dayHours('eight')).toBeNull();
  });

  it('make the body’s seven numbers, or name the weekdays at fault', () => {
    expect(weekHours(typed({ monday: '8', tuesday: '8', wednesday: '8', thursday: '8', friday: '6:30' }))).toEqual({
      hours: { monday: 8, tuesday: 8, wednesday: 8, thursday: 8, friday: 6.5, saturday: 0, sunday: 0 },
    });
    expect(weekHours(typed({ monday: 'x', sunday: '30' }))).toEqual({ invalid: ['monday', 'sunday'] });
  });

  it('total the week in whole seconds', () => {
    expect(weeklyTotal(STANDARD_WEEK)).toBe(40);
    expect(weeklyTotal({ monday: 7.7, tuesday: 7.7, wednesday: 7.7, thursday: 7.7, friday: 7.7 })).toBe(38.5);
    expect(weeklyTotal({ monday: 0.1, tuesday: 0.2 })).toBe(0.3);
    expect(weeklyTotal({ monday: null, tuesday: 4 })).toBe(4);
  });

  it('take a stored pattern’s weekdays alone', () => {
    expect(hoursOf({ ...STANDARD_WEEK, id: 'p', weekly_hours: 40 } as never)).toEqual(STANDARD_WEEK);
  });
});
