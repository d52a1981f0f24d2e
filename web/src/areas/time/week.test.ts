import { describe, expect, it } from 'vitest';
import type { WebEntry } from './api.ts';
import { addDays, buildGrid, dayLabel, secondsOf, weekDays } from './week.ts';

const entry = (over: Partial<WebEntry>): WebEntry =>
  ({
    id: 'e1',
    project_id: 'p1',
    task_id: 't1',
    spent_date: '2026-02-03',
    duration_seconds: 3600,
    rounded_hours: 1,
    is_running: false,
    timer_started_at: null,
    billable: true,
    project: { id: 'p1', name: 'Website', code: null },
    client: { id: 'c1', name: 'Acme' },
    task: { id: 't1', name: 'Design' },
    ...over,
  }) as WebEntry;

describe('week grid', () => {
  it('has 7 days across a DST change and month ends', () => {
    expect(weekDays('2026-03-23')).toEqual(['2026-03-23', '2026-03-24', '2026-03-25', '2026-03-26', '2026-03-27', '2026-03-28', '2026-03-29']);
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(dayLabel('2026-02-03')).toBe('Tue 3 Feb');
  });
  it('groups entries by project and task, keeps added rows, sorts by label', () => {
    const rows = buildGrid(
      [entry({ id: 'a' }), entry({ id: 'b' }), entry({ id: 'c', spent_date: '2026-02-04' })],
      [{ project_id: 'p0', project_name: 'Brand', project_code: null, client_id: 'c1', client_name: 'Acme', task_id: 't1', task_name: 'Design', billable: true }],
    );
    expect(rows.map((r) => r.label)).toEqual(['Acme - Brand - Design', 'Acme - Website - Design']);
    expect(rows[1].cells['2026-02-03'].map((e) => e.id)).toEqual(['a', 'b']);
    expect(rows[0].cells).toEqual({});
  });
  it('counts a running entry up to now', () => {
    const running = entry({ is_running: true, duration_seconds: 60, timer_started_at: '2026-02-03T10:00:00Z' });
    expect(secondsOf([running], Date.parse('2026-02-03T10:30:00Z'))).toBe(60 + 1800);
  });
});
