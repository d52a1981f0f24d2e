import { describe, expect, it } from 'vitest';
import { Decimal } from 'decimal.js';
import {
  EXTERNAL_REFERENCE_NOT_OBJECT,
  checkExternalReference,
  checkMetadata,
  checkNotes,
  completedDuration,
  currentSeconds,
  elapsedSeconds,
  parseHours,
  reservedService,
  timerStart,
  timesAfterStop,
} from '../../src/modules/tracking/time/rules.ts';
import {
  isRuleError,
  roundHours,
  roundHoursNumber,
  roundSeconds,
  secondsToHours,
  secondsToHoursNumber,
  weekEndOf,
} from '../../src/modules/tracking/week/rules.ts';
import { weeksOf } from '../../src/modules/tracking/week/lock.ts';

const err = (value: unknown) => (isRuleError(value) ? value : null);

describe('hours', () => {
  it('accepts 0..24 with at most six decimals, exactly', () => {
    expect((parseHours(1.5) as Decimal).toString()).toBe('1.5');
    expect((parseHours(0) as Decimal).toString()).toBe('0');
    expect((parseHours(24) as Decimal).toString()).toBe('24');
    expect((parseHours(0.123456) as Decimal).toString()).toBe('0.123456');
    expect((parseHours(-0) as Decimal).toString()).toBe('0');
  });
  it('refuses out of range, too precise and non-numbers', () => {
    expect(err(parseHours(24.000001))?.message).toMatch(/at most 24/);
    expect(err(parseHours(-0.5))?.message).toMatch(/at least 0/);
    expect(err(parseHours(0.1234567))?.message).toMatch(/6 decimal places/);
    expect(err(parseHours('1.5'))?.field).toBe('hours');
    expect(err(parseHours(Number.NaN))?.field).toBe('hours');
  });
});

describe('rounded hours', () => {
  const rule = (rounding: 'none' | 'up' | 'down' | 'nearest', rounding_minutes = 15) => ({ rounding, rounding_minutes });
  it('rounds exact hours to multiples of the rounding minutes', () => {
    expect(roundHours('1.1', rule('none')).toString()).toBe('1.1');
    expect(roundHours('1.1', rule('up')).toString()).toBe('1.25');
    expect(roundHours('1.1', rule('down')).toString()).toBe('1');
    expect(roundHours('1.1', rule('nearest')).toString()).toBe('1');
    expect(roundHours('1.125', rule('nearest')).toString()).toBe('1.25'); // half up
    expect(roundHours('1.1', rule('up', 6)).toString()).toBe('1.1'); // already a multiple
    expect(roundHours('0', rule('up')).toString()).toBe('0');
    expect(roundHours('0.333333', rule('up', 20)).toString()).toBe('0.333333');
    expect(roundHours('0.000001', rule('up', 1)).toString()).toBe('0.016667');
  });

  it('takes the six-place text of a step boundary as the boundary: 10 minutes rounded up to 10 minutes stays 10', () => {
    // 10 minutes is 0.1666… hours, written 0.166667: it used to round up to 20 minutes, and 5 minutes down to 0.
    expect(roundHoursNumber(0.166667, rule('up', 10))).toBe(0.166667);
    expect(roundHours('0.166667', rule('up', 10)).toString()).toBe('0.166667');
    expect(roundHoursNumber(0.166668, rule('up', 10))).toBe(0.333333); // a micro-hour past it is past it
    expect(roundHoursNumber(0.083333, rule('down', 5))).toBe(0.083333);
    expect(roundHoursNumber(0.083332, rule('down', 5))).toBe(0);
    expect(roundHoursNumber(0.008333, rule('nearest', 1))).toBe(0.016667); // 30 s, half a step: up
    expect(roundHoursNumber(0.008332, rule('nearest', 1))).toBe(0);
    expect(roundHoursNumber(2.333333, rule('nearest', 20))).toBe(2.333333);
  });

  it('rounds the hours of a whole number of seconds as the seconds round (roundSeconds), for every rule and step', () => {
    const steps = [1, 2, 5, 6, 7, 9, 10, 12, 15, 20, 25, 30, 40, 45, 50, 59, 60];
    for (const rounding of ['up', 'down', 'nearest'] as const) {
      for (const rounding_minutes of steps) {
        const r = { rounding, rounding_minutes };
        // Every boundary and half-way point of every step is a multiple of 30 s: those, and a second either side.
        for (let at = 0; at <= 86_400; at += 30) {
          for (const s of [at - 1, at, at + 1]) {
            if (s < 0 || s > 86_400) continue;
            const want = secondsToHours(roundSeconds(s, r)).toNumber();
            const got = roundHoursNumber(secondsToHoursNumber(s), r);
            if (got !== want) expect([r, s, got]).toEqual([r, s, want]);
          }
        }
      }
    }
  });
});

describe('the number twins the list uses, against their decimal.js rules', () => {
  const rules = ['up', 'down', 'nearest'] as const;
  const minutes = [1, 5, 6, 7, 10, 12, 15, 20, 30, 45, 59, 60];
  it('secondsToHoursNumber is Number(secondsToHours) for every second of a day', () => {
    for (let s = 0; s <= 86_400; s++) {
      if (secondsToHoursNumber(s) !== secondsToHours(s).toNumber()) expect([s, secondsToHoursNumber(s)]).toEqual([s, secondsToHours(s).toNumber()]);
    }
  });
  it('roundHoursNumber is roundHours(...).toNumber() for hours from seconds, every rule and step', () => {
    for (const rounding of rules) {
      for (const rounding_minutes of minutes) {
        const rule = { rounding, rounding_minutes };
        for (let s = 0; s <= 86_400; s += 37) {
          const h = secondsToHoursNumber(s);
          const want = roundHours(h, rule).toNumber();
          if (roundHoursNumber(h, rule) !== want) expect([rule, h, roundHoursNumber(h, rule)]).toEqual([rule, h, want]);
        }
      }
    }
  });
  it('and for hours entered with up to six decimals, including exact halves of a step', () => {
    const hours = [0, 0.000001, 0.125, 0.25, 1.1, 1.125, 1.999999, 2.5, 7.758333, 12.041667, 23.999999, 24];
    let seed = 7;
    for (let i = 0; i < 3000; i++) {
      seed = (seed * 48_271) % 2_147_483_647;
      hours.push((seed % 24_000_001) / 1e6);
    }
    for (const rounding of rules) {
      for (const rounding_minutes of minutes) {
        const rule = { rounding, rounding_minutes };
        for (const h of hours) {
          const want = roundHours(h, rule).toNumber();
          if (roundHoursNumber(h, rule) !== want) expect([rule, h, roundHoursNumber(h, rule)]).toEqual([rule, h, want]);
        }
      }
    }
    expect(roundHoursNumber(1.1, { rounding: 'none', rounding_minutes: 15 })).toBe(1.1);
  });
});

describe('completed durations', () => {
  it('comes from hours, or from the wall-clock span, or both when they agree', () => {
    expect(completedDuration({ hours: new Decimal('1.5') }, '2026-06-01', 'UTC')).toEqual({ seconds: 5400, hours: new Decimal('1.5') });
    expect(completedDuration({ started: '09:00', ended: '10:30' }, '2026-06-01', 'UTC')).toEqual({ seconds: 5400, hours: null });
    expect(completedDuration({ hours: new Decimal('1.333333'), started: '09:00', ended: '10:20' }, '2026-06-01', 'UTC')).toMatchObject({
      seconds: 4800,
    });
    expect(completedDuration({}, '2026-06-01', 'UTC')).toBeNull();
  });
  it('refuses a lone time, an end not after the start, and hours that disagree', () => {
    expect(err(completedDuration({ started: '09:00' }, '2026-06-01', 'UTC'))?.field).toBe('ended_time');
    expect(err(completedDuration({ ended: '09:00' }, '2026-06-01', 'UTC'))?.field).toBe('started_time');
    expect(err(completedDuration({ started: '09:00', ended: '09:00' }, '2026-06-01', 'UTC'))?.field).toBe('ended_time');
    expect(err(completedDuration({ started: '10:00', ended: '09:00' }, '2026-06-01', 'UTC'))?.field).toBe('ended_time');
    expect(err(completedDuration({ hours: new Decimal(2), started: '09:00', ended: '10:30' }, '2026-06-01', 'UTC'))?.field).toBe('hours');
  });
  it('measures across a DST change in the zone', () => {
    expect(completedDuration({ started: '01:00', ended: '04:00' }, '2026-03-29', 'Europe/Berlin')).toMatchObject({ seconds: 7200 });
    expect(completedDuration({ started: '01:00', ended: '04:00' }, '2026-10-25', 'Europe/Berlin')).toMatchObject({ seconds: 14400 });
    // 02:30 does not exist on 2026-03-29 in Berlin: it is 03:30, so 02:30..03:30 is empty, and the refusal says why.
    expect(err(completedDuration({ started: '02:30', ended: '03:30' }, '2026-03-29', 'Europe/Berlin'))).toEqual({
      field: 'started_time',
      message: 'started_time 02:30 does not exist on 2026-03-29 in Europe/Berlin (the clocks went forward); it counts as 03:30, which leaves no time between started_time and ended_time.',
    });
    expect(err(completedDuration({ started: '03:00', ended: '02:00' }, '2026-03-29', 'Europe/Berlin'))?.message).toContain('ended_time 02:00 does not exist');
    // A span inside the gap keeps its length (both ends move forward alike), and an end before its start is still that.
    expect(completedDuration({ started: '02:10', ended: '02:40' }, '2026-03-29', 'Europe/Berlin')).toMatchObject({ seconds: 1800 });
    expect(err(completedDuration({ started: '05:00', ended: '04:00' }, '2026-03-29', 'Europe/Berlin'))?.message).toBe('ended_time must be after started_time.');
  });
  it("refuses more than 24 hours between two times of the day the clocks go back (a 400, not the column's check)", () => {
    expect(completedDuration({ started: '00:00', ended: '23:00' }, '2026-10-25', 'Europe/Berlin')).toMatchObject({ seconds: 86400 });
    expect(err(completedDuration({ started: '00:00', ended: '23:59' }, '2026-10-25', 'Europe/Berlin'))).toEqual({
      field: 'ended_time',
      message: '00:00 to 23:59 on 2026-10-25 in Europe/Berlin is 24.983333 hours (the clocks went back); an entry holds at most 24 hours.',
    });
    // Lord Howe's clocks go back by half an hour.
    expect(err(completedDuration({ started: '00:00', ended: '23:45' }, '2026-04-05', 'Australia/Lord_Howe'))?.field).toBe('ended_time');
  });
});

describe("a stopped timer's times", () => {
  const Z = 'Europe/Berlin';
  const none = { started_time: null, ended_time: null };
  it("keeps its start and the stop's clock when the run ended on its own date and they span its hours", () => {
    expect(timesAfterStop({ spent_date: '2026-06-09', started_time: '09:00' }, { date: '2026-06-09', time: '17:30' }, 30_600, Z)).toEqual({ started_time: '09:00', ended_time: '17:30' });
    // Times are whole minutes, the run is not: 09:00:59 to 09:02:00 is 61 s beside a span of 120.
    expect(timesAfterStop({ spent_date: '2026-06-09', started_time: '09:00' }, { date: '2026-06-09', time: '09:02' }, 61, Z)).toEqual({ started_time: '09:00', ended_time: '09:02' });
    // 01:00 to 04:00 on the spring-forward night is 2 hours.
    expect(timesAfterStop({ spent_date: '2026-03-29', started_time: '01:00' }, { date: '2026-03-29', time: '04:00' }, 7200, Z)).toEqual({ started_time: '01:00', ended_time: '04:00' });
  });
  it('keeps none when it ended on a later date (past midnight, or at the 24-hour cap), never had a start time, or ran more than once', () => {
    expect(timesAfterStop({ spent_date: '2026-06-09', started_time: '23:00' }, { date: '2026-06-10', time: '01:00' }, 7200, Z)).toEqual(none);
    expect(timesAfterStop({ spent_date: '2026-06-09', started_time: '09:15' }, { date: '2026-06-10', time: '09:15' }, 86_400, Z)).toEqual(none);
    expect(timesAfterStop({ spent_date: '2026-06-09', started_time: null }, { date: '2026-06-09', time: '17:30' }, 3600, Z)).toEqual(none);
    // Across the hour the clocks go back: 01:50 CEST to 02:20 CET is 90 minutes, which 01:50–02:20 cannot say.
    expect(timesAfterStop({ spent_date: '2026-10-25', started_time: '01:50' }, { date: '2026-10-25', time: '02:20' }, 5400, Z)).toEqual(none);
    // Restarted: 08:00 to 09:45 holds 45 minutes of work, not 105.
    expect(timesAfterStop({ spent_date: '2026-06-09', started_time: '08:00' }, { date: '2026-06-09', time: '09:45' }, 2700, Z)).toEqual(none);
  });
});

describe('timer starts', () => {
  const now = new Date('2026-06-10T12:00:30Z');
  const base = { now, zone: 'UTC', allowPast: false };
  it('defaults to today and now in the zone', () => {
    expect(timerStart(base)).toEqual({ spentDate: '2026-06-10', startedTime: '12:00', startedAt: now });
    expect(timerStart({ ...base, zone: 'Pacific/Auckland' })).toMatchObject({ spentDate: '2026-06-11', startedTime: '00:00' });
  });
  it('accepts a start within a minute of now either way', () => {
    expect(timerStart({ ...base, startedTime: '12:00' })).toMatchObject({ startedAt: new Date('2026-06-10T12:00:00Z') });
    expect(timerStart({ ...base, startedTime: '12:01' })).toMatchObject({ startedAt: now }); // 30 s ahead: now
    expect(timerStart({ ...base, startedTime: '11:59' })).toMatchObject({ startedAt: new Date('2026-06-10T11:59:00Z') }); // the previous minute
    expect(err(timerStart({ ...base, startedTime: '11:58' }))?.field).toBe('started_time'); // two minutes back: the past
  });
  it('refuses the future', () => {
    expect(err(timerStart({ ...base, spentDate: '2026-06-11' }))?.field).toBe('spent_date');
    expect(err(timerStart({ ...base, startedTime: '12:02' }))?.field).toBe('started_time');
  });
  it('needs allow_past_timer_starts for a past start, however far back (the spec bounds only the future)', () => {
    expect(err(timerStart({ ...base, startedTime: '11:00' }))?.message).toMatch(/allow_past_timer_starts/);
    expect(err(timerStart({ ...base, spentDate: '2026-06-09' }))?.field).toBe('spent_date');
    expect(timerStart({ ...base, allowPast: true, startedTime: '11:00' })).toMatchObject({ startedAt: new Date('2026-06-10T11:00:00Z') });
    expect(timerStart({ ...base, allowPast: true, spentDate: '2026-06-09' })).toEqual({ spentDate: '2026-06-09', startedTime: null, startedAt: now });
    expect(timerStart({ ...base, allowPast: true, spentDate: '2026-06-09', startedTime: '13:00' })).toMatchObject({ spentDate: '2026-06-09' });
    expect(timerStart({ ...base, allowPast: true, spentDate: '2026-06-09', startedTime: '11:00' })).toMatchObject({
      startedAt: new Date('2026-06-09T11:00:00Z'),
    });
    expect(timerStart({ ...base, allowPast: true, spentDate: '2025-06-09', startedTime: '08:30' })).toMatchObject({
      spentDate: '2025-06-09',
      startedAt: new Date('2025-06-09T08:30:00Z'),
    });
    expect(err(timerStart({ ...base, spentDate: '2025-06-09', startedTime: '08:30' }))?.field).toBe('spent_date');
  });
});

describe('running seconds', () => {
  it('adds the current run to earlier runs, never negative, at most 24 hours', () => {
    const start = new Date('2026-06-10T10:00:00Z');
    expect(elapsedSeconds(start, new Date('2026-06-10T10:00:59.9Z'))).toBe(59);
    expect(elapsedSeconds(start, new Date('2026-06-10T09:00:00Z'))).toBe(0);
    expect(currentSeconds({ duration_seconds: 600, timer_started_at: start }, new Date('2026-06-10T10:30:00Z'))).toBe(2400);
    expect(currentSeconds({ duration_seconds: 600, timer_started_at: null }, new Date())).toBe(600);
    expect(currentSeconds({ duration_seconds: 0, timer_started_at: start }, new Date('2026-06-12T10:00:00Z'))).toBe(86400);
  });
});

describe('weeks', () => {
  it('groups dates by week and gives the last day', () => {
    expect(weeksOf(['2026-06-10', '2026-06-14', '2026-06-15'], 'monday')).toEqual(['2026-06-08', '2026-06-15']);
    expect(weeksOf(['2026-06-14'], 'sunday')).toEqual(['2026-06-14']);
    expect(weekEndOf('2026-06-08')).toBe('2026-06-14');
    expect(weekEndOf('2026-12-28')).toBe('2027-01-03');
  });
});

describe('metadata, notes and external references', () => {
  it('metadata is an object of at most 4096 bytes', () => {
    expect(checkMetadata({ a: 1 })).toBeNull();
    expect(checkMetadata([])?.message).toBe('metadata must be an object.');
    expect(checkMetadata('x')?.field).toBe('metadata');
    const fits = { k: 'x'.repeat(4096 - '{"k":""}'.length) };
    expect(checkMetadata(fits)).toBeNull();
    expect(checkMetadata({ k: `${fits.k}x` })?.message).toMatch(/4096 bytes/);
    expect(checkMetadata({ k: 'é'.repeat(2100) })?.message).toMatch(/4096 bytes/); // bytes, not characters
    expect(checkMetadata({ k: '\u0000' })?.message).toMatch(/NUL/);
  });

  it('notes: blank is null, at most 10,000 characters', () => {
    expect(checkNotes('  ')).toBeNull();
    expect(checkNotes(null)).toBeNull();
    expect(checkNotes(' keep as written ')).toBe(' keep as written ');
    expect(err(checkNotes('x'.repeat(10_001)))?.field).toBe('notes');
    expect(err(checkNotes('a\u0000b'))?.field).toBe('notes');
  });

  it('external references follow the spec table', () => {
    for (const bad of ['x', 1, [], null, true]) expect(err(checkExternalReference(bad))?.message).toBe(EXTERNAL_REFERENCE_NOT_OBJECT);
    expect(checkExternalReference({ id: 'A-1', service: 'example.com', permalink: 'https://example.com/a/1', parent_id: null })).toEqual({
      id: 'A-1',
      service: 'example.com',
      permalink: 'https://example.com/a/1',
    });
    expect(err(checkExternalReference({}))?.field).toBe('external_reference.id');
    expect(err(checkExternalReference({ id: null }))?.field).toBe('external_reference.id');
    expect(err(checkExternalReference({ id: ' ' }))?.field).toBe('external_reference.id');
    expect(err(checkExternalReference({ id: 'x'.repeat(256) }))?.field).toBe('external_reference.id');
    expect(checkExternalReference({ id: 'x'.repeat(255) })).toEqual({ id: 'x'.repeat(255) });
    expect(err(checkExternalReference({ id: 1 }))?.message).toMatch(/must be a string/);
    expect(err(checkExternalReference({ id: 'a', bogus: 'b' }))).toMatchObject({ field: 'external_reference.bogus', code: 'unknown_field' });
    for (const url of ['ftp://example.com/x', 'example.com', 'https://', 'javascript:alert(1)', `https://e.com/${'x'.repeat(2040)}`]) {
      expect(err(checkExternalReference({ id: 'a', permalink: url }))?.field).toBe('external_reference.permalink');
    }
    expect(checkExternalReference({ id: 'a', permalink: 'http://e.com' })).toMatchObject({ permalink: 'http://e.com' });
  });

  it('reserves github.com and atlassian.net (and their subdomains) for built-in integrations', () => {
    expect(reservedService('github.com')).toBe('github.com');
    expect(reservedService('GitHub.com')).toBe('github.com');
    expect(reservedService('acme.atlassian.net')).toBe('atlassian.net');
    expect(reservedService('notgithub.com')).toBeNull();
    expect(reservedService('gitlab.com')).toBeNull();
    expect(err(checkExternalReference({ id: '1', service: 'github.com' }))).toMatchObject({
      code: 'integration_not_enabled',
      field: 'external_reference.service',
    });
  });
});
