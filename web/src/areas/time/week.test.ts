import { describe, expect, it } from 'vitest';
import { createFormat } from '../../ui/format.ts';
import { i18n } from '../../ui/i18n.ts';
import type { WebEntry } from './api.ts';
import { choiceId, recentFirst } from './choices.ts';
import { addDays } from '../../ui/dates.ts';
import { buildGrid, entrySeconds, entrySummary, longDayLabel, secondsOf } from './week.ts';

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
  it('steps days across month ends', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
  it('names a day by its weekday and the person\u2019s date pattern, in their language', async () => {
    const en = createFormat({ locale: 'en-GB', timeZone: 'Pacific/Kiritimati', durationStyle: 'clock', dateFormat: 'YYYY-MM-DD' });
    expect(longDayLabel(en, '2026-02-03')).toBe('Tue 2026-02-03');
    expect(entrySummary(en, entry({ duration_seconds: 5400, started_time: '09:00', ended_time: '10:30', notes: 'Hero' }))).toBe('1:30 · 09:00 – 10:30 · Hero');
    expect(entrySummary(en, entry({ duration_seconds: 1800 }))).toBe('0:30');
    const de = createFormat({ locale: 'de-DE', timeZone: 'America/Adak', durationStyle: 'decimal', dateFormat: 'DD.MM.YYYY' });
    await i18n.changeLanguage('de');
    try {
      expect(longDayLabel(de, '2026-02-03')).toBe('Di., 03.02.2026');
      expect(entrySummary(de, entry({ duration_seconds: 5400, started_time: '09:00', is_running: true, notes: 'Hero' }))).toBe('1,50 · 09:00 – läuft · Hero');
    } finally {
      await i18n.changeLanguage('en');
    }
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
  it('counts a running entry up to now, its current run once (issue 21 item 2)', () => {
    // Fresh: the answer came 10 s after the start (duration_seconds 10), shown 30 min after it.
    const fresh = entry({ is_running: true, duration_seconds: 10, earlier_seconds: 0, timer_started_at: '2026-02-03T10:00:00Z' });
    expect(secondsOf([fresh], Date.parse('2026-02-03T10:30:00Z'))).toBe(1800);
    // Restarted after a 60 s run: earlier 60 + the current run.
    const restarted = entry({ is_running: true, duration_seconds: 70, earlier_seconds: 60, timer_started_at: '2026-02-03T10:00:00Z' });
    expect(secondsOf([restarted], Date.parse('2026-02-03T10:30:00Z'))).toBe(60 + 1800);
    expect(entrySeconds(restarted, Date.parse('2026-02-03T09:59:00Z'))).toBe(60); // device clock behind the start: never negative
    expect(entrySeconds(restarted, Date.parse('2026-02-05T10:00:00Z'))).toBe(24 * 3600);
    expect(entrySeconds(entry({ duration_seconds: 3600 }), 0)).toBe(3600);
  });
});

describe('recentFirst', () => {
  const pair = (p: string, t: string) => ({ project_id: p, project_name: p, project_code: null, client_id: 'c', client_name: 'C', task_id: t, task_name: t, billable: true });
  const all = [pair('a', '1'), pair('a', '2'), pair('b', '1'), pair('c', '1')];
  it('puts the recently used pairs first, most recent first, then the rest in the server order', () => {
    expect(recentFirst(all, [{ project_id: 'c', task_id: '1' }, { project_id: 'a', task_id: '2' }, { project_id: 'gone', task_id: '9' }]).map(choiceId)).toEqual(['c/1', 'a/2', 'a/1', 'b/1']);
    expect(recentFirst(all, [])).toBe(all);
  });
});
