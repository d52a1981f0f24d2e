import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/errors.ts';
import {
  checkPeriod,
  checkReason,
  daysIn,
  fingerprintOf,
  runPreflight,
  type PeriodItem,
} from '../src/modules/tracking/approvals/preflight.ts';
import { capacityByDay, totalHours } from '../src/modules/planning/capacity/rules.ts';
import type { PreflightCapacity } from '../src/modules/tracking/approvals/preflight.ts';
import { reportWeeks, type ApprovedItem } from '../src/modules/tracking/approvals/withdrawal.ts';

/** The pure approval rules: periods, reasons, the fingerprint and the preflight. */

const at = new Date('2026-01-01T00:00:00Z');
let n = 0;
const time = (extra: Partial<PeriodItem> = {}): PeriodItem => ({
  kind: 'time',
  id: `t${++n}`,
  project_id: 'p1',
  task_id: 'k1',
  spent_date: '2026-06-08',
  approval_status: 'submitted',
  is_billed: false,
  updated_at: at,
  notes: null,
  billable: true,
  duration_seconds: 3600,
  hours_entered: null,
  is_running: false,
  started_time: null,
  ended_time: null,
  ...extra,
});
const expense = (extra: Partial<PeriodItem> = {}): PeriodItem => ({
  kind: 'expense',
  id: `e${++n}`,
  project_id: 'p1',
  expense_category_id: 'c1',
  spent_date: '2026-06-09',
  approval_status: 'submitted',
  is_billed: false,
  updated_at: at,
  notes: null,
  billable: true,
  total_cost: '10.00',
  units: null,
  ...extra,
});
const week = { from: '2026-06-08', to: '2026-06-14' };
/** Capacity as before patterns existed: expected weekly hours over Monday to Friday, no breaks required. */
const weekly = (hours: string | null, period = week): PreflightCapacity => ({
  days: capacityByDay({ patterns: [], fallbackWeekly: hours, timeOff: [] }, period.from, period.to),
  breakRules: [],
});
const all = () => true;

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).statusCode).toBe(400);
    return (err as ApiError).extras.field as string;
  }
  throw new Error('expected a 400');
}

describe('periods and reasons', () => {
  it('counts inclusive days and Monday-to-Friday days', () => {
    expect(daysIn('2026-06-08', '2026-06-08')).toBe(1);
    expect(daysIn('2024-01-01', '2024-12-31')).toBe(366);
    expect(daysIn('2026-03-28', '2026-03-30')).toBe(3);
    // Without a working pattern, weekly hours are spread over Monday to Friday: 5 a week is 1 a working day.
    const workingDays = (from: string, to: string) => totalHours(weekly('5', { from, to }).days!).toNumber();
    expect(workingDays('2026-06-08', '2026-06-14')).toBe(5);
    expect(workingDays('2026-06-13', '2026-06-14')).toBe(0);
    expect(workingDays('2026-06-01', '2026-06-30')).toBe(22);
  });

  it('accepts real dates in order, at most 366 days', () => {
    expect(() => checkPeriod({ from: '2024-01-01', to: '2024-12-31' })).not.toThrow();
    expect(() => checkPeriod({ from: '2026-06-08', to: '2026-06-08' })).not.toThrow();
    expect(fieldOf(() => checkPeriod({ from: '2024-01-01', to: '2025-01-01' }))).toBe('to');
    expect(fieldOf(() => checkPeriod({ from: '2026-06-09', to: '2026-06-08' }))).toBe('to');
    expect(fieldOf(() => checkPeriod({ from: '2026-02-29', to: '2026-03-01' }))).toBe('from');
    expect(fieldOf(() => checkPeriod({ from: '2026-06-01', to: '2026-6-2' }))).toBe('to');
  });

  it('reasons: at most 2000 characters, no NUL; blank is null', () => {
    expect(checkReason(undefined)).toBeNull();
    expect(checkReason(null)).toBeNull();
    expect(checkReason('   ')).toBeNull();
    expect(checkReason(' keep as written ')).toBe(' keep as written ');
    expect(checkReason('😀'.repeat(2000))).toHaveLength(4000);
    expect(fieldOf(() => checkReason('x'.repeat(2001)))).toBe('reason');
    expect(fieldOf(() => checkReason('a\u0000'))).toBe('reason');
  });
});

describe('fingerprint', () => {
  it('ignores order and changes with any change of the period', () => {
    const a = time();
    const b = expense();
    const base = fingerprintOf([a, b]);
    expect(fingerprintOf([b, a])).toBe(base);
    expect(fingerprintOf([a])).not.toBe(base);
    for (const change of [
      { duration_seconds: 3601 },
      { approval_status: 'approved' as const },
      { updated_at: new Date(at.getTime() + 1) },
      { notes: 'x' },
      { spent_date: '2026-06-10' },
      { project_id: 'p2' },
      { is_billed: true },
    ]) {
      expect(fingerprintOf([{ ...a, ...change }, b])).not.toBe(base);
    }
    expect(fingerprintOf([a, { ...b, total_cost: '10.01' }])).not.toBe(base);
    expect(fingerprintOf([])).toBe(fingerprintOf([]));
  });
});

describe('preflight', () => {
  it('no blockers or warnings for a submitted period without expected hours', () => {
    const items = [time(), expense()];
    expect(runPreflight(items, all, week, weekly(null))).toEqual({ fingerprint: fingerprintOf(items), blockers: [], warnings: [] });
  });

  it('blockers: running timers and unsubmitted or rejected items; billed items block nothing', () => {
    const running = time({ is_running: true, approval_status: 'unsubmitted' });
    const open = time({ approval_status: 'unsubmitted' });
    const rejected = expense({ approval_status: 'rejected' });
    const billed = time({ approval_status: 'unsubmitted', is_billed: true });
    const pre = runPreflight([running, open, rejected, billed, time()], all, week, weekly(null));
    expect(pre.blockers).toEqual([
      expect.objectContaining({ code: 'running_timer', time_entry_ids: [running.id] }),
      expect.objectContaining({ code: 'unsubmitted_time', time_entry_ids: [open.id], expense_ids: [rejected.id] }),
    ]);
  });

  it('blockers look at the scope only', () => {
    const elsewhere = time({ project_id: 'p2', approval_status: 'unsubmitted' });
    const pre = runPreflight([elsewhere, time()], (i) => i.project_id === 'p1', week, weekly(null));
    expect(pre.blockers).toEqual([]);
  });

  it('hours below expected and above capacity, over the whole period, in decimals', () => {
    const items = [time({ duration_seconds: 8 * 3600 }), time({ duration_seconds: 7 * 3600, project_id: 'p2' })];
    const scopedToP1 = (i: PeriodItem) => i.project_id === 'p1';
    expect(runPreflight(items, scopedToP1, week, weekly('37.5')).warnings).toEqual([
      expect.objectContaining({ code: 'hours_below_expected', tracked_hours: 15, expected_hours: 37.5 }),
    ]);
    expect(runPreflight(items, all, week, weekly('15')).warnings).toEqual([]);
    expect(runPreflight(items, all, week, weekly('12.5')).warnings).toEqual([
      expect.objectContaining({ code: 'outside_working_capacity', tracked_hours: 15, capacity_hours: 12.5 }),
    ]);
    // a weekend-only period has no capacity
    expect(runPreflight([time({ spent_date: '2026-06-13' })], all, { from: '2026-06-13', to: '2026-06-14' }, weekly('40', { from: '2026-06-13', to: '2026-06-14' })).warnings).toEqual([
      expect.objectContaining({ code: 'outside_working_capacity', capacity_hours: 0 }),
    ]);
    // one working day of a 37.5-hour week: 7.5 expected
    expect(runPreflight([time({ duration_seconds: 7 * 3600 })], all, { from: '2026-06-08', to: '2026-06-08' }, weekly('37.5', { from: '2026-06-08', to: '2026-06-08' })).warnings[0]).toMatchObject({
      expected_hours: 7.5,
      tracked_hours: 7,
    });
  });

  it("time on a day the person's week gives no hours is outside working capacity, as on a holiday", () => {
    // Monday 6, Tuesday 6, Wednesday 8: Thursday is off.
    const pattern = { effective_from: '2026-01-01', monday: '6', tuesday: '6', wednesday: '8', thursday: '0', friday: '0', saturday: '0', sunday: '0' };
    const capacity: PreflightCapacity = { days: capacityByDay({ patterns: [pattern], fallbackWeekly: null, timeOff: [] }, week.from, week.to), breakRules: [] };
    const items = [time({ duration_seconds: 6 * 3600 }), time({ spent_date: '2026-06-11', duration_seconds: 8 * 3600 })];
    expect(runPreflight(items, all, week, capacity).warnings).toEqual([
      expect.objectContaining({ code: 'hours_below_expected', tracked_hours: 14, expected_hours: 20 }),
      expect.objectContaining({ code: 'outside_working_capacity', capacity_hours: null, dates: ['2026-06-11'] }),
    ]);
    // On a working day alone, within the week's 20 hours: no warning of it.
    expect(runPreflight([time({ duration_seconds: 6 * 3600 })], all, week, capacity).warnings.map((w) => w.code)).toEqual(['hours_below_expected']);
  });

  it('more than 24 hours on a day is outside working capacity; running timers do not count', () => {
    const items = [time({ duration_seconds: 86400 }), time({ duration_seconds: 60 }), time({ is_running: true, duration_seconds: 600 })];
    const pre = runPreflight(items, all, week, weekly(null));
    expect(pre.warnings).toEqual([expect.objectContaining({ code: 'outside_working_capacity', dates: ['2026-06-08'] })]);
    const both = runPreflight(items, all, week, weekly('1'));
    expect(both.warnings).toEqual([expect.objectContaining({ code: 'outside_working_capacity', capacity_hours: 1, dates: ['2026-06-08'] })]);
  });

  it('overlapping entries of one day, listed within the scope', () => {
    const a = time({ started_time: '09:00', ended_time: '11:00' });
    const b = time({ started_time: '10:59', ended_time: '12:00', project_id: 'p2' });
    const c = time({ started_time: '12:00', ended_time: '13:00' });
    const d = time({ started_time: '09:30', ended_time: '10:00', spent_date: '2026-06-09' });
    const pre = runPreflight([a, b, c, d], all, week, weekly(null));
    expect(pre.warnings).toEqual([expect.objectContaining({ code: 'overlapping_entries', time_entry_ids: [a.id, b.id].sort() })]);
    expect(runPreflight([a, b, c, d], (i) => i.project_id === 'p1', week, weekly(null)).warnings[0].time_entry_ids).toEqual([a.id]);
    expect(runPreflight([c, d], all, week, weekly(null)).warnings).toEqual([]);
  });
});

describe('the withdrawal report', () => {
  const item = (extra: Partial<ApprovedItem>): ApprovedItem => ({
    kind: 'time',
    id: `a${++n}`,
    spent_date: '2026-03-04',
    project_id: 'p1',
    is_billed: false,
    invoice_id: null,
    invoice_number: null,
    invoice_state: null,
    ...extra,
  });
  const scope = { from: '2026-03-03', to: '2026-03-31', projectId: 'p1' };

  it('a week with nothing approved left is unlocked; another is held by each kind of leftover, billed first, with the invoices', () => {
    const billedTime = item({ is_billed: true, invoice_id: 'i1', invoice_number: '7', invoice_state: 'open' });
    const billedExpense = item({ kind: 'expense', is_billed: true, invoice_id: 'i1', invoice_number: '7', invoice_state: 'open' });
    const before = item({ spent_date: '2026-03-02' });
    const elsewhere = item({ project_id: 'p2' });
    const elsewhereToo = item({ project_id: 'p2', spent_date: '2026-03-05' });
    const report = reportWeeks(['2026-03-09', '2026-03-02'], [elsewhere, billedTime, before, billedExpense, elsewhereToo], scope, 'monday');
    expect(report.unlocked_weeks).toEqual([{ week_start: '2026-03-09', week_end: '2026-03-15' }]);
    expect(report.still_locked_weeks).toHaveLength(1);
    const [week] = report.still_locked_weeks;
    expect(week).toMatchObject({ week_start: '2026-03-02', week_end: '2026-03-08' });
    expect(week.held_by.map((h) => h.reason)).toEqual(['billed', 'outside_period', 'other_project']);
    expect(week.held_by[0]).toEqual({
      reason: 'billed',
      message: '1 time entry and 1 expense are billed on invoice 7 (open): a withdrawal keeps billed work approved. Deleting a draft invoice releases its work; withdraw again after that.',
      time_entry_ids: [billedTime.id],
      expense_ids: [billedExpense.id],
      invoice_ids: ['i1'],
    });
    expect(week.held_by[1]).toMatchObject({ time_entry_ids: [before.id], expense_ids: [], message: expect.stringContaining('1 time entry is approved in this week but dated outside 2026-03-03..2026-03-31') });
    expect(week.held_by[2]).toMatchObject({ time_entry_ids: [elsewhere.id, elsewhereToo.id].sort(), message: expect.stringContaining('2 time entries are approved in this week on another project than p1') });
  });

  it('follows the workspace week start; no weeks, no report', () => {
    const sunday = reportWeeks(['2026-03-01'], [item({ spent_date: '2026-03-07', is_billed: true })], scope, 'sunday');
    expect(sunday.still_locked_weeks[0]).toMatchObject({ week_start: '2026-03-01', week_end: '2026-03-07', held_by: [{ reason: 'billed', message: expect.stringContaining('on an invoice') }] });
    expect(reportWeeks([], [], scope, 'monday')).toEqual({ unlocked_weeks: [], still_locked_weeks: [] });
  });
});
