import { describe, expect, it } from 'vitest';
import type { WebEntry } from './api.ts';
import { dragSpan, layoutDay, nextSlot, resizedEnd, snap, spanOf } from './calendar.ts';

const entry = (id: string, started_time: string | null, ended_time: string | null, extra: Partial<WebEntry> = {}) =>
  ({ id, started_time, ended_time, is_running: false, timer_started_at: null, duration_seconds: 3600, ...extra }) as WebEntry;

describe('spanOf', () => {
  it('places an entry by its wall-clock times', () => {
    expect(spanOf(entry('a', '09:00', '10:30'), 0)).toEqual({ start: 540, end: 630 });
  });
  it('leaves entries without a start or an end unplaced', () => {
    expect(spanOf(entry('a', null, null), 0)).toBeNull();
    expect(spanOf(entry('a', '09:00', null), 0)).toBeNull();
  });
  it('runs a timer from its start for what it has counted so far', () => {
    const now = Date.parse('2026-01-05T10:00:00Z');
    const running = entry('r', '08:00', null, { is_running: true, duration_seconds: 600, earlier_seconds: 600, timer_started_at: '2026-01-05T09:30:00Z' });
    expect(spanOf(running, now)).toEqual({ start: 480, end: 480 + 10 + 30 });
  });
  it('keeps a zero-length entry visible', () => {
    expect(spanOf(entry('a', '09:00', '09:00'), 0)).toEqual({ start: 540, end: 541 });
  });
});

describe('layoutDay', () => {
  it('lists untimed entries apart and places the rest', () => {
    const day = layoutDay([entry('a', null, null), entry('b', '13:00', '14:00')], 0);
    expect(day.untimed.map((e) => e.id)).toEqual(['a']);
    expect(day.blocks).toMatchObject([{ start: 780, end: 840, lane: 0, lanes: 1 }]);
  });
  it('puts overlapping blocks side by side and back to one lane after', () => {
    const day = layoutDay([entry('a', '09:00', '11:00'), entry('b', '10:00', '12:00'), entry('c', '11:00', '11:30'), entry('d', '13:00', '14:00')], 0);
    const byId = Object.fromEntries(day.blocks.map((b) => [b.entry.id, b]));
    expect(byId.a).toMatchObject({ lane: 0, lanes: 2 });
    expect(byId.b).toMatchObject({ lane: 1, lanes: 2 });
    expect(byId.c).toMatchObject({ lane: 0, lanes: 2 }); // a's lane is free at 11:00
    expect(byId.d).toMatchObject({ lane: 0, lanes: 1 });
  });
  it('touching blocks do not overlap', () => {
    const day = layoutDay([entry('a', '09:00', '10:00'), entry('b', '10:00', '11:00')], 0);
    expect(day.blocks.every((b) => b.lanes === 1)).toBe(true);
  });
});

describe('snapping', () => {
  it('rounds to the nearest quarter hour within the day', () => {
    expect(snap(547)).toBe(540);
    expect(snap(548)).toBe(555);
    expect(snap(-10)).toBe(0);
    expect(snap(1500)).toBe(1440);
  });
  it('makes a drag in either direction a snapped span', () => {
    expect(dragSpan(541, 628)).toEqual({ started_time: '09:00', ended_time: '10:30' });
    expect(dragSpan(628, 541)).toEqual({ started_time: '09:00', ended_time: '10:30' });
  });
  it('makes a click an hour from the quarter it fell in', () => {
    expect(dragSpan(550, 552)).toEqual({ started_time: '09:00', ended_time: '10:00' });
    expect(dragSpan(1435, 1436)).toEqual({ started_time: '23:00', ended_time: '23:59' });
  });
  it('ends a drag to midnight at 23:59', () => {
    expect(dragSpan(1380, 1440)).toEqual({ started_time: '23:00', ended_time: '23:59' });
  });
  it('resizes by quarters, never shorter than 15 minutes or past the day', () => {
    expect(resizedEnd(540, 640)).toBe('10:45');
    expect(resizedEnd(540, 500)).toBe('09:15');
    expect(resizedEnd(540, 1445)).toBe('23:59');
  });
  it('proposes the next slot after the last block, else 09:00', () => {
    expect(nextSlot([])).toEqual({ started_time: '09:00', ended_time: '10:00' });
    expect(nextSlot([{ end: 630 }, { end: 601 }])).toEqual({ started_time: '10:30', ended_time: '11:30' });
    expect(nextSlot([{ end: 635 }])).toEqual({ started_time: '10:45', ended_time: '11:45' });
  });
});
