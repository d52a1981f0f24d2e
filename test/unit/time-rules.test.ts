import { describe, expect, it } from 'vitest';
import {
  entryRoundedHours,
  hoursToSeconds,
  roundSeconds,
  secondsToHours,
  wallClockInstant,
  wallClockOf,
  wallClockSeconds,
  weekStartOf,
} from '../../src/modules/tracking/week/rules.ts';

describe('time rules', () => {
  it('converts between seconds and decimal hours without floats', () => {
    expect(secondsToHours(5400).toString()).toBe('1.5');
    expect(secondsToHours(1200).toString()).toBe('0.333333');
    expect(hoursToSeconds('0.1')).toBe(360);
    expect(hoursToSeconds('1.333333')).toBe(4800);
  });

  it('applies each rounding mode to a multiple of the rounding minutes', () => {
    const s = 7 * 60 + 30; // 7.5 minutes
    expect(roundSeconds(s, { rounding: 'none', rounding_minutes: 15 })).toBe(s);
    expect(roundSeconds(s, { rounding: 'up', rounding_minutes: 15 })).toBe(900);
    expect(roundSeconds(s, { rounding: 'down', rounding_minutes: 15 })).toBe(0);
    expect(roundSeconds(s, { rounding: 'nearest', rounding_minutes: 15 })).toBe(900); // half up
    expect(roundSeconds(7 * 60, { rounding: 'nearest', rounding_minutes: 15 })).toBe(0);
    expect(roundSeconds(900, { rounding: 'up', rounding_minutes: 15 })).toBe(900); // exact stays
    expect(entryRoundedHours({ hours_entered: null, duration_seconds: 61 * 60 }, { rounding: 'up', rounding_minutes: 6 }).toString()).toBe('1.1');
  });

  it('measures wall-clock spans across a DST change in the workspace zone', () => {
    // Europe/Berlin springs forward on 2026-03-29 at 02:00 → 03:00.
    expect(wallClockSeconds('2026-03-29', '01:00', '04:00', 'Europe/Berlin')).toBe(2 * 3600);
    // And falls back on 2026-10-25 at 03:00 → 02:00.
    expect(wallClockSeconds('2026-10-25', '01:00', '04:00', 'Europe/Berlin')).toBe(4 * 3600);
    expect(wallClockSeconds('2026-06-01', '09:00', '17:30', 'Europe/Berlin')).toBe(8.5 * 3600);
  });

  it('reads an instant as wall-clock time and date in the zone', () => {
    const instant = wallClockInstant('2026-11-22', '23:30', 'America/New_York');
    expect(instant.toISOString()).toBe('2026-11-23T04:30:00.000Z');
    expect(wallClockOf(instant, 'America/New_York')).toEqual({ date: '2026-11-22', time: '23:30' });
    expect(wallClockOf(instant, 'UTC')).toEqual({ date: '2026-11-23', time: '04:30' });
  });

  it('finds the start of the week for each week start day', () => {
    expect(weekStartOf('2026-11-22', 'monday')).toBe('2026-11-16'); // a Sunday
    expect(weekStartOf('2026-11-22', 'sunday')).toBe('2026-11-22');
    expect(weekStartOf('2026-11-20', 'saturday')).toBe('2026-11-14');
  });
});
