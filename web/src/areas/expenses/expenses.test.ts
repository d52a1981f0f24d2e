import { describe, expect, it } from 'vitest';
import { addDays } from '../../ui/dates.ts';
import { isPeriod, periodRange } from './period.ts';
import { lockReason, statusOf } from './status.ts';
import { filterOf, searchOf } from './filters.ts';

describe('periodRange', () => {
  it.each([
    ['all', '2026-03-15', {}],
    ['this_month', '2026-02-10', { from: '2026-02-01', to: '2026-02-28' }],
    ['this_month', '2028-02-10', { from: '2028-02-01', to: '2028-02-29' }],
    ['last_month', '2026-01-31', { from: '2025-12-01', to: '2025-12-31' }],
    ['last_month', '2026-03-31', { from: '2026-02-01', to: '2026-02-28' }],
    ['last_90_days', '2026-03-31', { from: '2026-01-01', to: '2026-03-31' }],
    ['this_year', '2026-07-04', { from: '2026-01-01', to: '2026-12-31' }],
    ['last_year', '2026-07-04', { from: '2025-01-01', to: '2025-12-31' }],
  ] as const)('%s on %s', (period, today, range) => {
    expect(periodRange(period, today)).toEqual(range);
  });

  it('moves calendar dates across months and years', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
  });

  it('knows its periods', () => {
    expect(isPeriod('this_month')).toBe(true);
    expect(isPeriod('yesterday')).toBe(false);
    expect(isPeriod(null)).toBe(false);
  });
});

describe('an expense’s state', () => {
  const expense = (is_billed: boolean, approval_status: string | null, is_locked = false) => ({ is_billed, is_locked, approval_status }) as Parameters<typeof lockReason>[0];

  it('names the short status the list shows', () => {
    expect(statusOf(expense(true, 'approved'))).toBe('billed');
    expect(statusOf(expense(false, 'approved'))).toBe('approved');
    expect(statusOf(expense(false, 'submitted'))).toBe('submitted');
    expect(statusOf(expense(false, 'rejected'))).toBe('rejected');
    expect(statusOf(expense(false, null))).toBeNull();
  });

  it('says why a locked expense cannot change', () => {
    expect(lockReason(expense(false, 'approved'))).toBeNull();
    expect(lockReason(expense(true, 'approved', true))).toBe('billed');
    expect(lockReason(expense(false, 'approved', true))).toBe('approved');
  });
});

describe('the filter in the URL', () => {
  const id = '0190a8f2-7c4d-7e3a-9b1c-2d3e4f5a6b7c';
  it('reads what it can and drops the rest', () => {
    expect(filterOf(new URLSearchParams(`from=2026-03-01&to=2026-03-31&project_id=${id}&page=2`))).toEqual({
      from: '2026-03-01',
      to: '2026-03-31',
      project_id: id,
      page: 2,
    });
    expect(filterOf(new URLSearchParams('from=yesterday&to=2026-01-01&project_id=x&expense_category_id=1&page=-3'))).toEqual({ to: '2026-01-01' });
    expect(filterOf(new URLSearchParams('from=2026-03-01&to=2026-02-01'))).toEqual({ from: '2026-03-01' });
  });

  it('writes it back', () => {
    expect(searchOf({ from: '2026-03-01', expense_category_id: id, page: 1 })).toBe(`?from=2026-03-01&expense_category_id=${id}`);
    expect(searchOf({})).toBe('');
  });
});
