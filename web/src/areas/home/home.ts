/**
 * Pure rules of the home page (vitest: home.test.ts).
 */

/**
 * A running timer's elapsed milliseconds now. `duration_seconds` was measured by the
 * server when it answered (an earlier run of a restarted entry plus the running part up
 * to then), so the time since the answer arrived (`fetchedAt`, this browser's clock, as
 * `now`) is added, not the time since the start: the device's clock never matters.
 */
export function elapsedMs(entry: { duration_seconds: number }, fetchedAt: number, now: number): number {
  return entry.duration_seconds * 1000 + Math.max(0, now - fetchedAt);
}

/** The week's days with a running timer's time added to its day (the server counts completed time only). */
export function withRunning<D extends { date: string; tracked_seconds: number }>(days: readonly D[], running: { spent_date: string; seconds: number } | null): D[] {
  return days.map((d) => (running && d.date === running.spent_date ? { ...d, tracked_seconds: d.tracked_seconds + running.seconds } : d));
}

/** Share of the expected time done, 0..1 (null without an expectation; full when nothing was expected and some was done). */
export function shareOf(trackedSeconds: number, expectedHours: number | null): number | null {
  if (expectedHours === null) return null;
  if (expectedHours <= 0) return trackedSeconds > 0 ? 1 : 0;
  return Math.min(1, trackedSeconds / 3600 / expectedHours);
}
