import { describe, expect, it } from 'vitest';
import { path } from '../../src/modules/integrations/mcp/api-caller.ts';
import { summarizeWeek, today, weekContaining } from '../../src/modules/integrations/mcp/rules.ts';

/** The MCP server's own rules: a week's days and sums, "today", and ids in paths. */

describe('weekContaining', () => {
  it('starts on the chosen day and lists seven days', () => {
    expect(weekContaining('2026-03-05', 'monday')).toMatchObject({ from: '2026-03-02', to: '2026-03-08' });
    expect(weekContaining('2026-03-05', 'sunday')).toMatchObject({ from: '2026-03-01', to: '2026-03-07' });
    expect(weekContaining('2026-03-05', 'saturday').days).toEqual(['2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06']);
  });
});

describe('summarizeWeek', () => {
  const week = weekContaining('2026-03-05', 'monday');
  const entry = (spent_date: string, project_id: string, hours: number, billable = true, is_running = false) => ({ spent_date, project_id, hours, billable, is_running });

  it('adds hours as decimals, per day and per project, billable and not', () => {
    const summary = summarizeWeek(
      week,
      [entry('2026-03-02', 'a', 0.1), entry('2026-03-02', 'a', 0.2), entry('2026-03-03', 'b', 1.25, false), entry('2026-03-04', 'a', 0.05, true, true)],
      [{ id: 'a', name: 'Alpha', client: { id: 'c', name: 'Client' } }],
    );
    expect(summary).toMatchObject({ hours: 1.6, billable_hours: 0.35, non_billable_hours: 1.25, entry_count: 4, running_timers: 1 });
    expect(summary.days.map((d) => d.hours)).toEqual([0.3, 1.25, 0.05, 0, 0, 0, 0]);
    expect(summary.projects).toEqual([
      { project_id: 'b', project_name: null, client_name: null, hours: 1.25, billable_hours: 0, non_billable_hours: 1.25 },
      { project_id: 'a', project_name: 'Alpha', client_name: 'Client', hours: 0.35, billable_hours: 0.35, non_billable_hours: 0 },
    ]);
  });
});

describe('today', () => {
  it('is the date in the named zone, and refuses a zone that does not exist', () => {
    const now = new Date('2026-03-05T23:30:00Z');
    expect(today(now, 'UTC')).toBe('2026-03-05');
    expect(today(now, 'Europe/Berlin')).toBe('2026-03-06');
    expect(() => today(now, 'Mars/Olympus')).toThrow("time_zone must be an IANA time zone such as Europe/Berlin, not 'Mars/Olympus'.");
  });
});

describe('path', () => {
  it('encodes ids, dots included, so an argument cannot step to another route', () => {
    const id = '../../invoices';
    expect(path`/time_entries/${id}/stop`).toBe('/time_entries/%2E%2E%2F%2E%2E%2Finvoices/stop');
    expect(path`/time_entries/${'abc'}/stop`).toBe('/time_entries/abc/stop');
  });
});
