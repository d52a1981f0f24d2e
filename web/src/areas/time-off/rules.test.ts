import { describe, expect, it } from 'vitest';
import { HttpError, type ErrorBody } from '../../api/call.ts';
import { breakRulesOf, daysIn, GERMAN_LAW, holidayHours, holidayValues, hoursPerDay, inDateOrder, kindsFor, overlapOf, ruleRow, ruleRows, sameRules, timeOffValues, yearOf, type HolidayDraft, type TimeOffDraft } from './rules.ts';

const draft = (over: Partial<TimeOffDraft> = {}): TimeOffDraft => ({ kind: 'vacation', starts_on: '2026-08-03', ends_on: null, whole: true, hours: '', name: '', ...over });

describe('the year a page shows', () => {
  it('is the URL’s when it is a year the server takes, else today’s', () => {
    expect(yearOf(new URLSearchParams('year=2025'), '2026-06-15')).toBe(2025);
    expect(yearOf(new URLSearchParams(''), '2026-06-15')).toBe(2026);
    expect(yearOf(new URLSearchParams('year=26'), '2026-06-15')).toBe(2026);
    expect(yearOf(new URLSearchParams('year=1800'), '2026-06-15')).toBe(2026);
    expect(yearOf(new URLSearchParams('year=abcd'), '2026-06-15')).toBe(2026);
  });
});

describe('kinds', () => {
  it('leaves public holidays to administrators', () => {
    expect(kindsFor(false)).toEqual(['vacation', 'sick', 'unpaid', 'other']);
    expect(kindsFor(true)).toContain('public_holiday');
  });
});

describe('the list', () => {
  it('is in date order, a holiday before own time off on the same days', () => {
    const items = [
      { id: 'c', user_id: 'u', starts_on: '2026-12-24', ends_on: '2026-12-31' },
      { id: 'b', user_id: 'u', starts_on: '2026-05-01', ends_on: '2026-05-01' },
      { id: 'a', user_id: null, starts_on: '2026-05-01', ends_on: '2026-05-01' },
      { id: 'd', user_id: 'u', starts_on: '2026-01-02', ends_on: '2026-01-05' },
    ];
    expect(inDateOrder(items).map((i) => i.id)).toEqual(['d', 'a', 'b', 'c']);
  });

  it('counts the days of a range, both ends included', () => {
    expect(daysIn({ starts_on: '2026-08-03', ends_on: '2026-08-07' })).toBe(5);
    expect(daysIn({ starts_on: '2026-03-28', ends_on: '2026-03-30' })).toBe(3); // across the DST switch
    expect(daysIn({ starts_on: '2026-08-03', ends_on: '2026-08-03' })).toBe(1);
  });
});

describe('the time off form', () => {
  it('sends whole days with hours null, the last day defaulting to the first, no empty note', () => {
    expect(timeOffValues(draft())).toEqual({ kind: 'vacation', starts_on: '2026-08-03', ends_on: '2026-08-03', hours: null, name: null });
    expect(timeOffValues(draft({ ends_on: '2026-08-07', name: '  Baltic  ' }))).toEqual({ kind: 'vacation', starts_on: '2026-08-03', ends_on: '2026-08-07', hours: null, name: 'Baltic' });
  });

  it('sends hours per day as typed (durations), refusing none, nonsense and more than a day', () => {
    expect(timeOffValues(draft({ whole: false, hours: '4' }))).toMatchObject({ hours: 4 });
    expect(timeOffValues(draft({ whole: false, hours: '3:30' }))).toMatchObject({ hours: 3.5 });
    expect(timeOffValues(draft({ whole: false, hours: '2,5' }))).toMatchObject({ hours: 2.5 });
    expect(timeOffValues(draft({ whole: false, hours: '' }))).toBeNull();
    expect(hoursPerDay('0')).toEqual({ error: 'empty' });
    expect(hoursPerDay('lots')).toEqual({ error: 'format' });
    expect(hoursPerDay('25')).toEqual({ error: 'format' });
    expect(hoursPerDay('24')).toEqual({ hours: 24 });
  });

  it('is incomplete without a first day', () => {
    expect(timeOffValues(draft({ starts_on: null }))).toBeNull();
  });
});

describe('the holiday form', () => {
  const holiday = (over: Partial<HolidayDraft> = {}): HolidayDraft => ({ name: ' Heiligabend ', starts_on: '2026-12-24', ends_on: null, hours: '', ...over });

  it('sends no hours as the whole day, the last day defaulting to the first, the name trimmed', () => {
    expect(holidayValues(holiday())).toEqual({ name: 'Heiligabend', starts_on: '2026-12-24', ends_on: '2026-12-24', hours: null });
    expect(holidayValues(holiday({ hours: '   ', ends_on: '2026-12-26' }))).toEqual({ name: 'Heiligabend', starts_on: '2026-12-24', ends_on: '2026-12-26', hours: null });
  });

  it('reads hours per day as the time off form does: 4, 4:00, 3,5, 3.5, 3:30', () => {
    for (const [typed, hours] of [['4', 4], ['4:00', 4], ['3,5', 3.5], ['3.5', 3.5], ['3:30', 3.5], ['4h', 4], ['24', 24]] as const) {
      expect(holidayValues(holiday({ hours: typed })), typed).toMatchObject({ hours });
    }
  });

  it('refuses none, nonsense and more than a day, with the time off form’s reasons', () => {
    expect(holidayHours('0')).toEqual({ error: 'empty' });
    expect(holidayHours('0:00')).toEqual({ error: 'empty' });
    expect(holidayHours('half')).toEqual({ error: 'format' });
    expect(holidayHours('25')).toEqual({ error: 'format' });
    expect(holidayHours('-4')).toEqual({ error: 'format' });
    expect(holidayValues(holiday({ hours: 'half' }))).toBeNull();
    expect(holidayValues(holiday({ starts_on: null }))).toBeNull();
  });

  it('sends untouched hours back as stored, not as the field rounded them', () => {
    const kept = { text: '2.67', hours: 2.666667 };
    expect(holidayValues(holiday({ hours: '2.67' }), kept)).toMatchObject({ hours: 2.666667 });
    expect(holidayValues(holiday({ hours: '2:40' }), kept)).toMatchObject({ hours: 2.666667 });
    expect(holidayValues(holiday({ hours: '3' }), kept)).toMatchObject({ hours: 3 });
    expect(holidayValues(holiday({ hours: '' }), kept)).toMatchObject({ hours: null });
  });
});

describe('an overlap refused by the server', () => {
  const refused = (extra: Partial<ErrorBody>) =>
    new HttpError(400, { error: 'invalid_request', error_description: 'This overlaps …', message: 'This overlaps …', field: 'starts_on', ...extra }, new Headers());

  it('gives the days of the time off it overlaps, so the form words it', () => {
    expect(overlapOf(refused({ overlapping_id: 'a1', overlapping_starts_on: '2026-12-09', overlapping_ends_on: '2026-12-11' }))).toEqual({ starts_on: '2026-12-09', ends_on: '2026-12-11' });
  });

  it('is null for other refusals, and for an overlap without its days (the server’s message stays)', () => {
    expect(overlapOf(refused({}))).toBeNull();
    expect(overlapOf(refused({ overlapping_id: 'a1' }))).toBeNull();
    expect(overlapOf(new HttpError(409, { error: 'conflict', overlapping_id: 'a1', overlapping_starts_on: '2026-12-09', overlapping_ends_on: '2026-12-09' }, new Headers()))).toBeNull();
    expect(overlapOf(new Error('x'))).toBeNull();
  });
});

describe('break rules', () => {
  it('read the stored rules (hours as strings) as rows', () => {
    const rows = ruleRows([{ after_hours: '6', break_minutes: 30 }, { after_hours: '9.5', break_minutes: 45 }]);
    expect(rows.map(({ after_hours, break_minutes }) => [after_hours, break_minutes])).toEqual([[6, 30], [9.5, 45]]);
    expect(new Set(rows.map((r) => r.key)).size).toBe(2);
  });

  it('send the rows in order of hours; German law is 6 h: 30 min and 9 h: 45 min', () => {
    expect(breakRulesOf([ruleRow({ after_hours: 9, break_minutes: 45 }), ruleRow({ after_hours: 6, break_minutes: 30 })])).toEqual({ rules: [...GERMAN_LAW] });
    expect(breakRulesOf([])).toEqual({ rules: [] });
  });

  it('name the first row at fault', () => {
    expect(breakRulesOf([ruleRow({ after_hours: 6, break_minutes: 30 }), ruleRow({ after_hours: NaN, break_minutes: 30 })])).toEqual({ problem: 'hours', index: 1 });
    expect(breakRulesOf([ruleRow({ after_hours: 24, break_minutes: 30 })])).toEqual({ problem: 'hours', index: 0 });
    expect(breakRulesOf([ruleRow({ after_hours: 6, break_minutes: 0 })])).toEqual({ problem: 'minutes', index: 0 });
    expect(breakRulesOf([ruleRow({ after_hours: 6, break_minutes: 30.5 })])).toEqual({ problem: 'minutes', index: 0 });
    expect(breakRulesOf([ruleRow({ after_hours: 6, break_minutes: 30 }), ruleRow({ after_hours: 6, break_minutes: 45 })])).toEqual({ problem: 'twice', index: 1 });
  });

  it('know when the rows say what is stored', () => {
    const stored = [{ after_hours: '6', break_minutes: 30 }, { after_hours: '9', break_minutes: 45 }];
    expect(sameRules(GERMAN_LAW.map(ruleRow), stored)).toBe(true);
    expect(sameRules([ruleRow({ after_hours: 6, break_minutes: 30 })], stored)).toBe(false);
  });
});
