import { describe, expect, it } from 'vitest';
import { isWeekday, plannedByDay, planProblem, weekStarts } from '../../src/modules/planning/assignments/rules.ts';

// 2026-06-08 is a Monday.
describe('planning arithmetic', () => {
  it('puts hours per day on each working day of the range', () => {
    const days = plannedByDay({ starts_on: '2026-06-08', ends_on: '2026-06-14', hours_per_day: '6', total_hours: null }, isWeekday);
    expect([...days.keys()]).toEqual(['2026-06-08', '2026-06-09', '2026-06-10', '2026-06-11', '2026-06-12']);
    expect([...days.values()].map(Number)).toEqual([6, 6, 6, 6, 6]);
  });

  it('spreads a total evenly over the working days of the whole range, then cuts to the window', () => {
    const plan = { starts_on: '2026-06-08', ends_on: '2026-06-19', hours_per_day: null, total_hours: '50' };
    const all = plannedByDay(plan, isWeekday);
    expect(all.size).toBe(10);
    expect(Number(all.get('2026-06-08'))).toBe(5);
    const secondWeek = plannedByDay(plan, isWeekday, { from: '2026-06-15', to: '2026-06-21' });
    expect([...secondWeek.values()].reduce((s, h) => s + Number(h), 0)).toBe(25);
    // A person working Monday to Thursday: 8 working days share the total.
    const fourDays = (d: string) => isWeekday(d) && new Date(`${d}T00:00:00Z`).getUTCDay() !== 5;
    expect(Number(plannedByDay(plan, fourDays).get('2026-06-08'))).toBe(6.25);
  });

  it('refuses more than 24 hours a working day, reversed ranges and ranges without working days', () => {
    expect(planProblem({ starts_on: '2026-06-08', ends_on: '2026-06-08', hours_per_day: null, total_hours: '25' }, isWeekday)).toMatchObject({ field: 'total_hours' });
    expect(planProblem({ starts_on: '2026-06-08', ends_on: '2026-06-09', hours_per_day: null, total_hours: '48' }, isWeekday)).toBeNull();
    expect(planProblem({ starts_on: '2026-06-13', ends_on: '2026-06-14', hours_per_day: null, total_hours: '8' }, isWeekday)).toMatchObject({ field: 'ends_on' });
    expect(planProblem({ starts_on: '2026-06-10', ends_on: '2026-06-09', hours_per_day: '8', total_hours: null }, isWeekday)).toMatchObject({ field: 'ends_on' });
    // Hours per day on a weekend plan nothing: refused as a total there is.
    expect(planProblem({ starts_on: '2026-06-13', ends_on: '2026-06-14', hours_per_day: '8', total_hours: null }, isWeekday)).toMatchObject({ field: 'ends_on' });
  });

  it('refuses hours that two decimals store as none', () => {
    expect(planProblem({ starts_on: '2026-06-08', ends_on: '2026-06-08', hours_per_day: '0.00', total_hours: null }, isWeekday)).toMatchObject({ field: 'hours_per_day' });
    expect(planProblem({ starts_on: '2026-06-08', ends_on: '2026-06-08', hours_per_day: null, total_hours: '0.00' }, isWeekday)).toMatchObject({ field: 'total_hours' });
    expect(planProblem({ starts_on: '2026-06-08', ends_on: '2026-06-08', hours_per_day: '0.01', total_hours: null }, isWeekday)).toBeNull();
  });

  it('lists the Mondays of the planner from the week holding a day', () => {
    expect(weekStarts('2026-06-11', 3)).toEqual(['2026-06-08', '2026-06-15', '2026-06-22']);
  });

  it('lists the workspace weeks’ first days in a Sunday- or Saturday-start workspace, across a year’s end', () => {
    expect(weekStarts('2026-06-11', 2, 'sunday')).toEqual(['2026-06-07', '2026-06-14']);
    expect(weekStarts('2026-06-07', 1, 'sunday')).toEqual(['2026-06-07']);
    expect(weekStarts('2026-06-11', 2, 'saturday')).toEqual(['2026-06-06', '2026-06-13']);
    expect(weekStarts('2027-01-01', 2, 'saturday')).toEqual(['2026-12-26', '2027-01-02']);
    expect(weekStarts('2026-06-11', 1, 'monday')).toEqual(['2026-06-08']);
  });
});
