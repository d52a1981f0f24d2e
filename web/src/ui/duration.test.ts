import { describe, expect, it } from 'vitest';
import { formatElapsed, parseDuration, secondsToHours } from './duration.ts';

describe('parseDuration', () => {
  it.each([
    ['1:30', 5400],
    ['1.5', 5400],
    ['1,5', 5400],
    ['90m', 5400],
    ['90 min', 5400],
    ['1h30', 5400],
    ['1h 30m', 5400],
    ['1.5h', 5400],
    ['2', 7200],
    [' 0:05 ', 300],
    ['', 0],
    ['24', 86400],
  ])('%s is %i s', (text, seconds) => expect(parseDuration(text)).toEqual({ seconds }));

  it.each([['-1'], ['abc'], ['1:75'], ['25'], ['24:01'], ['100:00'], ['1h 30x']])('%s is refused', (text) => {
    expect(parseDuration(text)).toHaveProperty('error');
  });

  it('reads a longer total against its own maximum, with its own words', () => {
    expect(parseDuration('120:30', { maxHours: 1000 })).toEqual({ seconds: 120 * 3600 + 1800 });
    expect(parseDuration('1000', { maxHours: 1000 })).toEqual({ seconds: 3_600_000 });
    expect(parseDuration('1000:01', { maxHours: 1000, tooLong: 'At most 1,000 hours.' })).toEqual({ error: 'At most 1,000 hours.' });
    expect(parseDuration('25')).toEqual({ error: 'A day holds at most 24 hours.' });
  });
});

describe('formatting', () => {
  it('shows the running timer as h:mm:ss', () => {
    expect(formatElapsed(5_425_000)).toBe('1:30:25');
    expect(formatElapsed(-5)).toBe('0:00:00');
  });
  it('sends hours with at most 6 decimals', () => {
    expect(secondsToHours(4800)).toBe(1.333333);
    expect(secondsToHours(5400)).toBe(1.5);
  });
});
