import { describe, expect, it } from 'vitest';
import { minutesOf, parseTimeOfDay, timeOf } from './time-of-day.ts';

describe('parseTimeOfDay', () => {
  it.each([
    ['9', '09:00'],
    ['09', '09:00'],
    ['930', '09:30'],
    ['0930', '09:30'],
    ['1230', '12:30'],
    ['9:30', '09:30'],
    ['9.30', '09:30'],
    ['21:30', '21:30'],
    [' 21:30 ', '21:30'],
    ['0:00', '00:00'],
    ['23:59', '23:59'],
    ['9:30pm', '21:30'],
    ['9:30 PM', '21:30'],
    ['9pm', '21:00'],
    ['9p', '21:00'],
    ['12am', '00:00'],
    ['12pm', '12:00'],
    ['12:15am', '00:15'],
    ['1130am', '11:30'],
  ])('%s is %s', (input, time) => expect(parseTimeOfDay(input)).toEqual({ time }));

  it.each(['', 'nine', '24:00', '9:60', '2400', '13pm', '0am', '9:3', '12345', '-9', '9:30:00'])('refuses %j', (input) => {
    expect(parseTimeOfDay(input)).toHaveProperty('error');
  });
});

describe('minutes', () => {
  it('converts both ways', () => {
    expect(minutesOf('09:30')).toBe(570);
    expect(timeOf(570)).toBe('09:30');
    expect(timeOf(0)).toBe('00:00');
    expect(timeOf(1440)).toBe('24:00');
  });
});
