import { describe, expect, it } from 'vitest';
import { elapsedMs, shareOf, withRunning } from './home.ts';

describe('home page rules', () => {
  it('elapsed time: the server\u2019s duration plus the time since its answer, whatever the start', () => {
    // A fresh timer answered at 10 s; 12 s later.
    expect(elapsedMs({ duration_seconds: 10 }, 1_000_000, 1_012_000)).toBe(22_000);
    // A restarted one (an hour before, 10 s running now): not doubled.
    expect(elapsedMs({ duration_seconds: 3610 }, 5_000, 5_000)).toBe(3_610_000);
    expect(elapsedMs({ duration_seconds: 5 }, 10_000, 9_000)).toBe(5_000);
  });

  it('adds a running timer to its own day only', () => {
    const days = [
      { date: '2026-03-29', tracked_seconds: 60 },
      { date: '2026-03-30', tracked_seconds: 0 },
    ];
    expect(withRunning(days, { spent_date: '2026-03-30', seconds: 30 }).map((d) => d.tracked_seconds)).toEqual([60, 30]);
    expect(withRunning(days, { spent_date: '2026-04-30', seconds: 30 }).map((d) => d.tracked_seconds)).toEqual([60, 0]);
    expect(withRunning(days, null)).toEqual(days);
  });

  it('share of the expected hours', () => {
    expect(shareOf(3600 * 3, 7.5)).toBeCloseTo(0.4);
    expect(shareOf(3600 * 9, 7.5)).toBe(1);
    expect(shareOf(0, 0)).toBe(0);
    expect(shareOf(60, 0)).toBe(1);
    expect(shareOf(60, null)).toBeNull();
  });
});
