import { describe, expect, it } from 'vitest';
import { currenciesOf } from './currencies.ts';
import { activeOf, groupByOf } from './params.ts';
import { createFormat } from '../../ui/format.ts';
import { spanDays } from '../../ui/dates.ts';
import { beyondReportSpan, periodOf, periodRange, presetOf, today } from './period.ts';

describe('the reports’ period', () => {
  it.each([
    ['this_month', '2028-02-10', { from: '2028-02-01', to: '2028-02-29' }],
    ['last_month', '2026-01-31', { from: '2025-12-01', to: '2025-12-31' }],
    ['this_quarter', '2026-05-20', { from: '2026-04-01', to: '2026-06-30' }],
    ['last_quarter', '2026-02-01', { from: '2025-10-01', to: '2025-12-31' }],
    ['last_quarter', '2026-11-24', { from: '2026-07-01', to: '2026-09-30' }],
    ['this_year', '2026-07-04', { from: '2026-01-01', to: '2026-12-31' }],
    ['last_year', '2026-07-04', { from: '2025-01-01', to: '2025-12-31' }],
    ['last_365_days', '2026-11-24', { from: '2025-11-25', to: '2026-11-24' }],
  ] as const)('%s on %s', (period, today, range) => {
    expect(periodRange(period, today)).toEqual(range);
  });

  it('this week and last week are the workspace’s weeks: Monday, Sunday or Saturday to the sixth day after', () => {
    // 2026-11-24 is a Tuesday.
    expect(periodRange('this_week', '2026-11-24')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(periodRange('last_week', '2026-11-24', 'monday')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(periodRange('this_week', '2026-11-24', 'sunday')).toEqual({ from: '2026-11-22', to: '2026-11-28' });
    expect(periodRange('last_week', '2026-11-22', 'sunday')).toEqual({ from: '2026-11-15', to: '2026-11-21' });
    expect(periodRange('this_week', '2026-11-24', 'saturday')).toEqual({ from: '2026-11-21', to: '2026-11-27' });
    expect(periodRange('last_week', '2027-01-01', 'saturday')).toEqual({ from: '2026-12-19', to: '2026-12-25' });
    // Named only in the workspace's weeks: a Monday-to-Sunday range is no preset where weeks start on Sunday.
    expect(presetOf({ from: '2026-11-22', to: '2026-11-28' }, '2026-11-24', 'sunday')).toBe('this_week');
    expect(presetOf({ from: '2026-11-15', to: '2026-11-21' }, '2026-11-24', 'sunday')).toBe('last_week');
    expect(presetOf({ from: '2026-11-23', to: '2026-11-29' }, '2026-11-24', 'sunday')).toBeUndefined();
  });

  it('reads from and to from the URL, else this month; a reversed or malformed range is this month', () => {
    expect(periodOf(new URLSearchParams('from=2026-03-01&to=2026-03-31'), '2026-11-24')).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    for (const bad of ['from=2026-03-31&to=2026-03-01', 'from=20260301&to=2026-03-31', 'to=2026-03-31', ''])
      expect(periodOf(new URLSearchParams(bad), '2026-11-24')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
  });

  it('names a preset range, counts days inclusively', () => {
    expect(presetOf({ from: '2026-11-01', to: '2026-11-30' }, '2026-11-24')).toBe('this_month');
    expect(presetOf({ from: '2026-11-02', to: '2026-11-30' }, '2026-11-24')).toBeUndefined();
    expect(spanDays({ from: '2025-11-25', to: '2026-11-24' })).toBe(365);
    expect(spanDays({ from: '2026-03-01', to: '2026-03-01' })).toBe(1);
  });
});

describe('the reports’ parameters', () => {
  it('group by project unless a known grouping is asked for; active projects unless all or archived', () => {
    expect(groupByOf(new URLSearchParams('group_by=task'))).toBe('task');
    expect(groupByOf(new URLSearchParams('group_by=week'))).toBe('project');
    expect(activeOf(new URLSearchParams(''))).toBe('true');
    expect(activeOf(new URLSearchParams('active=false'))).toBe('false');
    expect(activeOf(new URLSearchParams('active=all'))).toBeUndefined();
  });

  it('lists each currency of the amounts once, by code', () => {
    expect(currenciesOf([{ billable_amounts: [{ currency: 'JPY' }, { currency: 'EUR' }] }, { billable_amounts: [{ currency: 'EUR' }] }, {}])).toEqual(['EUR', 'JPY']);
  });
});

describe('today, for the reports’ periods', () => {
  it('is the workspace’s calendar day, not the browser’s or UTC’s', () => {
    const noon = Date.UTC(2026, 10, 30, 12, 0); // 30 Nov 2026, 12:00 UTC
    const at = (timeZone: string) => today(createFormat({ locale: 'en-GB', timeZone, durationStyle: 'clock' }), noon);
    expect(at('UTC')).toBe('2026-11-30');
    expect(at('Pacific/Auckland')).toBe('2026-12-01');
    // So "this month" is December in Auckland while it is still November in London.
    expect(periodRange('this_month', at('Pacific/Auckland'))).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(periodRange('this_month', at('Europe/London'))).toEqual({ from: '2026-11-01', to: '2026-11-30' });
  });
});

describe('the span the team and uninvoiced reports take', () => {
  it('is a year, with its leap day', () => {
    expect(beyondReportSpan({ from: '2027-03-01', to: '2028-02-29' })).toBe(false);
    expect(beyondReportSpan({ from: '2024-03-01', to: '2026-02-28' })).toBe(true);
  });
});
