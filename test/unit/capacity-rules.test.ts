import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { holidaysFromICal } from '../../src/modules/planning/capacity/ical.ts';
import { breakMinutes, breakRulesProblem, capacityByDay, requiredBreak, totalHours, type Pattern } from '../../src/modules/planning/capacity/rules.ts';

const pattern = (effective_from: string, week: number[]): Pattern => ({
  effective_from,
  monday: String(week[0]),
  tuesday: String(week[1]),
  wednesday: String(week[2]),
  thursday: String(week[3]),
  friday: String(week[4]),
  saturday: String(week[5]),
  sunday: String(week[6]),
});

// 2026-06-08 is a Monday.
describe('capacity per day', () => {
  it('takes the pattern in effect on each day, and weekly / 5 on weekdays without one', () => {
    const days = capacityByDay({ patterns: [pattern('2026-06-10', [8, 8, 8, 8, 4, 0, 0]), pattern('2026-01-01', [6, 6, 6, 6, 6, 0, 0])], fallbackWeekly: '40', timeOff: [] }, '2026-06-08', '2026-06-14')!;
    expect(days.map((d) => d.hours.toNumber())).toEqual([6, 6, 8, 8, 4, 0, 0]);
    expect(totalHours(days).toNumber()).toBe(32);
    const fallback = capacityByDay({ patterns: [], fallbackWeekly: '37.5', timeOff: [] }, '2026-06-08', '2026-06-14')!;
    expect(fallback.map((d) => d.hours.toNumber())).toEqual([7.5, 7.5, 7.5, 7.5, 7.5, 0, 0]);
    expect(capacityByDay({ patterns: [], fallbackWeekly: null, timeOff: [] }, '2026-06-08', '2026-06-14')).toBeNull();
  });

  it('takes time off and holidays off: whole days, hours per day, never below zero', () => {
    const days = capacityByDay(
      {
        patterns: [pattern('2026-01-01', [8, 8, 8, 8, 8, 0, 0])],
        fallbackWeekly: null,
        timeOff: [
          { user_id: null, starts_on: '2026-06-08', ends_on: '2026-06-08', hours: null },
          { user_id: 'u', starts_on: '2026-06-10', ends_on: '2026-06-11', hours: '3' },
          { user_id: 'u', starts_on: '2026-06-12', ends_on: '2026-06-14', hours: '10' },
        ],
      },
      '2026-06-08',
      '2026-06-14',
    )!;
    expect(days.map((d) => d.hours.toNumber())).toEqual([0, 8, 5, 5, 0, 0, 0]);
    expect(days[0]).toMatchObject({ whole_day_off: true });
    expect(days[4]).toMatchObject({ whole_day_off: false, off: new Decimal(8) });
    // A week with a holiday expects less.
    expect(totalHours(days).toNumber()).toBe(18);
  });
});

describe('breaks', () => {
  it('adds up the gaps between entries, merging overlaps; unknown when an entry has no times', () => {
    expect(breakMinutes([{ started_time: '13:00', ended_time: '17:00' }, { started_time: '08:00', ended_time: '12:30' }])).toBe(30);
    expect(breakMinutes([{ started_time: '08:00', ended_time: '12:00' }, { started_time: '11:00', ended_time: '12:15' }, { started_time: '12:30', ended_time: '16:00' }])).toBe(15);
    expect(breakMinutes([{ started_time: '08:00', ended_time: '12:00' }, { started_time: null, ended_time: null }])).toBeNull();
  });

  it('requires the largest break of the rules the day passes', () => {
    const rules = [
      { after_hours: '6', break_minutes: 30 },
      { after_hours: '9', break_minutes: 45 },
    ];
    expect(requiredBreak(rules, new Decimal(6))).toBe(0);
    expect(requiredBreak(rules, new Decimal('6.25'))).toBe(30);
    expect(requiredBreak(rules, new Decimal('9.5'))).toBe(45);
    expect(breakRulesProblem(rules)).toBeNull();
    expect(breakRulesProblem([...rules, { after_hours: '6.0', break_minutes: 10 }])).toMatch(/twice/);
    expect(breakRulesProblem([{ after_hours: '24', break_minutes: 10 }])).toMatch(/less than 24/);
  });
});

describe('holidays from iCalendar', () => {
  const ics = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Sheaf//Test//EN',
    'BEGIN:VEVENT',
    'UID:a',
    'DTSTART;VALUE=DATE:20261225',
    'DTEND;VALUE=DATE:20261227',
    'SUMMARY:Weihnachten',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:b',
    'DTSTART;VALUE=DATE:20200101',
    'RRULE:FREQ=YEARLY',
    'SUMMARY:Neujahr',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:c',
    'DTSTART:20261001T090000Z',
    'DTEND:20261001T100000Z',
    'SUMMARY:A meeting, not a holiday',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:d',
    'DTSTART;VALUE=DATE:20250501',
    'SUMMARY:Last year',
    'END:VEVENT',
    'END:VCALENDAR',
  ].join('\r\n');

  it("reads the year's all-day events, recurring ones too, and skips the rest", () => {
    expect(holidaysFromICal(ics, 2026)).toEqual({
      holidays: [
        { name: 'Weihnachten', starts_on: '2026-12-25', ends_on: '2026-12-26' },
        { name: 'Neujahr', starts_on: '2026-01-01', ends_on: '2026-01-01' },
      ],
      skipped: 2,
    });
  });

  it('refuses what is not iCalendar, naming calendar', () => {
    for (const bad of ['hello', 'BEGIN:VCARD\r\nEND:VCARD', '{"x":1}']) {
      expect(() => holidaysFromICal(bad, 2026), bad).toThrow(expect.objectContaining({ extras: { field: 'calendar' } }));
    }
  });
});
