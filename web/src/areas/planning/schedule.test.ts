import { describe, expect, it } from 'vitest';
import {
  barGeometry,
  lanesOf,
  loadOf,
  mondayOf,
  movedByWeeks,
  newAssignmentDates,
  plannedWithoutCapacity,
  resizedByWeeks,
  scheduleParams,
  shortestResize,
  template,
  weekColumns,
  weeksOfDrag,
} from './schedule.ts';

describe('a week’s load', () => {
  it.each([
    [0, 40, 'free'],
    [0, 0, 'none'],
    [8, 40, 'under'],
    [31.99, 40, 'under'],
    [32, 40, 'full'],
    [40, 40, 'full'],
    [40.004, 40, 'full'],
    [40.01, 40, 'over'],
    [48, 40, 'over'],
    [2, 0, 'over'],
  ] as const)('%s planned of %s is %s', (planned, capacity, load) => {
    expect(loadOf(planned, capacity)).toBe(load);
  });
});

describe('the page’s weeks', () => {
  it('start on the Monday of the week asked for, 12 by default, 1 to 52 from the URL', () => {
    expect(scheduleParams(new URLSearchParams(''), '2026-04-16')).toEqual({ from: '2026-04-13', weeks: 12 });
    expect(scheduleParams(new URLSearchParams('from=2026-05-03&weeks=26'), '2026-04-16')).toEqual({ from: '2026-04-27', weeks: 26 });
    expect(scheduleParams(new URLSearchParams('from=2026-02-31&weeks=53'), '2026-04-16')).toEqual({ from: '2026-04-13', weeks: 12 });
    expect(scheduleParams(new URLSearchParams('from=soon&weeks=0'), '2026-04-19')).toEqual({ from: '2026-04-13', weeks: 12 });
    expect(scheduleParams(new URLSearchParams('weeks=1.5'), '2026-04-20')).toEqual({ from: '2026-04-20', weeks: 12 });
  });

  it('are Mondays, across a year’s end and a DST change', () => {
    expect(mondayOf('2027-01-01')).toBe('2026-12-28');
    expect(weekColumns('2026-03-23', 3)).toEqual(['2026-03-23', '2026-03-30', '2026-04-06']);
  });

  it('a new assignment starts this week when shown, else in the first shown week', () => {
    expect(newAssignmentDates('2026-04-06', 12, '2026-04-16')).toEqual({ starts_on: '2026-04-13', ends_on: '2026-04-17' });
    expect(newAssignmentDates('2026-06-01', 12, '2026-04-16')).toEqual({ starts_on: '2026-06-01', ends_on: '2026-06-05' });
    expect(newAssignmentDates('2026-01-05', 4, '2026-04-16')).toEqual({ starts_on: '2026-01-05', ends_on: '2026-01-09' });
  });
});

describe('the page’s weeks in a Sunday- or Saturday-start workspace', () => {
  // 2026-04-16 is a Thursday.
  it('start on the workspace week’s first day, from the URL or today', () => {
    expect(scheduleParams(new URLSearchParams(''), '2026-04-16', 'sunday')).toEqual({ from: '2026-04-12', weeks: 12 });
    expect(scheduleParams(new URLSearchParams('from=2026-05-02&weeks=26'), '2026-04-16', 'sunday')).toEqual({ from: '2026-04-26', weeks: 26 });
    expect(scheduleParams(new URLSearchParams('from=2026-05-03'), '2026-04-16', 'sunday')).toEqual({ from: '2026-05-03', weeks: 12 });
    expect(scheduleParams(new URLSearchParams(''), '2026-04-16', 'saturday')).toEqual({ from: '2026-04-11', weeks: 12 });
    expect(scheduleParams(new URLSearchParams('from=2026-04-17'), '2026-04-16', 'saturday')).toEqual({ from: '2026-04-11', weeks: 12 });
    expect(weekColumns('2026-12-30', 2, 'saturday')).toEqual(['2026-12-26', '2027-01-02']);
  });

  it('a new assignment takes this workspace week’s Monday to Friday', () => {
    // Sunday 12 to Saturday 18 April: Monday 13 to Friday 17.
    expect(newAssignmentDates('2026-04-05', 12, '2026-04-12', 'sunday')).toEqual({ starts_on: '2026-04-13', ends_on: '2026-04-17' });
    // Saturday 18 to Friday 24 April (today is that Saturday): Monday 20 to Friday 24.
    expect(newAssignmentDates('2026-04-11', 12, '2026-04-18', 'saturday')).toEqual({ starts_on: '2026-04-20', ends_on: '2026-04-24' });
    // This week not shown: the first shown week's.
    expect(newAssignmentDates('2026-06-06', 4, '2026-04-18', 'saturday')).toEqual({ starts_on: '2026-06-08', ends_on: '2026-06-12' });
  });
});

describe('a bar’s geometry', () => {
  const from = '2026-04-13'; // 2 weeks: 14 days

  it('spans its days as fractions of the shown weeks', () => {
    expect(barGeometry({ starts_on: '2026-04-13', ends_on: '2026-04-19' }, from, 2)).toEqual({ left: 0, width: 0.5, clippedStart: false, clippedEnd: false });
    expect(barGeometry({ starts_on: '2026-04-21', ends_on: '2026-04-23' }, from, 2)).toEqual({ left: 8 / 14, width: 3 / 14, clippedStart: false, clippedEnd: false });
  });

  it('is cut at the shown weeks’ edges, and absent outside them', () => {
    expect(barGeometry({ starts_on: '2026-04-01', ends_on: '2026-04-14' }, from, 2)).toEqual({ left: 0, width: 2 / 14, clippedStart: true, clippedEnd: false });
    expect(barGeometry({ starts_on: '2026-04-24', ends_on: '2026-05-30' }, from, 2)).toEqual({ left: 11 / 14, width: 3 / 14, clippedStart: false, clippedEnd: true });
    expect(barGeometry({ starts_on: '2026-04-01', ends_on: '2026-04-12' }, from, 2)).toBeNull();
    expect(barGeometry({ starts_on: '2026-04-27', ends_on: '2026-04-30' }, from, 2)).toBeNull();
  });

  it('overlapping bars stack in lanes; a bar after another’s end reuses its lane', () => {
    const bars = [
      { id: 'c', starts_on: '2026-04-20', ends_on: '2026-04-24' },
      { id: 'a', starts_on: '2026-04-13', ends_on: '2026-04-17' },
      { id: 'b', starts_on: '2026-04-15', ends_on: '2026-04-21' },
      { id: 'd', starts_on: '2026-04-17', ends_on: '2026-04-17' },
    ];
    const { lane, count } = lanesOf(bars);
    expect(Object.fromEntries(lane)).toEqual({ a: 0, b: 1, d: 2, c: 0 });
    expect(count).toBe(3);
    expect(lanesOf([]).count).toBe(1);
  });
});

describe('moves by whole weeks', () => {
  const a = { starts_on: '2026-04-14', ends_on: '2026-04-23' }; // Tuesday to the next Thursday

  it('a move shifts both dates, keeping the weekdays', () => {
    expect(movedByWeeks(a, 1)).toEqual({ starts_on: '2026-04-21', ends_on: '2026-04-30' });
    expect(movedByWeeks(a, -2)).toEqual({ starts_on: '2026-03-31', ends_on: '2026-04-09' });
    expect(movedByWeeks({ starts_on: '2026-12-28', ends_on: '2027-01-01' }, 1)).toEqual({ starts_on: '2027-01-04', ends_on: '2027-01-08' });
  });

  it('a resize moves the end only, never before the start', () => {
    expect(resizedByWeeks(a, 1)).toEqual({ starts_on: '2026-04-14', ends_on: '2026-04-30' });
    expect(resizedByWeeks(a, -1)).toEqual({ starts_on: '2026-04-14', ends_on: '2026-04-16' });
    expect(resizedByWeeks(a, -2)).toBeNull();
    expect(shortestResize(a)).toBe(-1);
    expect(shortestResize({ starts_on: '2026-04-14', ends_on: '2026-04-14' })).toBe(0);
  });

  it('a drag snaps to the nearest whole week', () => {
    expect(weeksOfDrag(0, 88)).toBe(0);
    expect(weeksOfDrag(43, 88)).toBe(0);
    expect(weeksOfDrag(45, 88)).toBe(1);
    expect(weeksOfDrag(-130, 88)).toBe(-1);
    expect(weeksOfDrag(-140, 88)).toBe(-2);
    expect(weeksOfDrag(50, 0)).toBe(0);
  });
});

describe('a label template', () => {
  it('is translated once and filled in any order, any number of times', () => {
    let calls = 0;
    const translate = (v: Record<string, string>) => {
      calls++;
      return `${v.project} (${v.client}), ${v.range}: ${v.project}`;
    };
    const name = template(translate, ['project', 'client', 'range']);
    expect(name('Website', 'Acme', '13–17 Apr')).toBe('Website (Acme), 13–17 Apr: Website');
    expect(name('Shop', 'Bolt', '1 May')).toBe('Shop (Bolt), 1 May: Shop');
    expect(template(() => 'Planung', [])()).toBe('Planung');
    expect(calls).toBe(1);
  });
});

describe('people planned without capacity', () => {
  const person = (name: string, cells: [planned: number, capacity: number][]) => ({ name, cells: cells.map(([planned_hours, capacity_hours]) => ({ planned_hours, capacity_hours })) });
  it('names those planned in a week while no shown week gives them an hour', () => {
    const people = [
      person('No hours, planned', [[0, 0], [5, 0]]),
      person('No hours, nothing planned', [[0, 0], [0, 0]]),
      person('Hours in one week only', [[5, 0], [0, 8]]),
      person('Hours', [[50, 40], [0, 40]]),
      person('A rounding crumb of hours', [[3, 0.004]]),
    ];
    expect(plannedWithoutCapacity(people).map((p) => p.name)).toEqual(['No hours, planned', 'A rounding crumb of hours']);
  });
});
