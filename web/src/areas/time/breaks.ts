/**
 * The breaks the day view shows between entries (pure; breaks.test.ts). Entries come in the
 * order the day lists them (by start time). Between two consecutive entries that both have
 * a start and an end time, the gap from the latest end so far to the next start is a break;
 * an entry without times (hours only) or still running ends the run, as nobody knows when
 * it was worked. Overlapping entries leave no gap.
 */

export interface TimedEntry {
  id: string;
  /** HH:mm in the workspace's zone, as the API gives it. */
  started_time?: string | null;
  ended_time?: string | null;
  is_running?: boolean;
}

export interface Break {
  /** The entry the break follows (its row comes right after that entry's). */
  after: string;
  /** HH:mm */
  from: string;
  /** HH:mm */
  to: string;
  minutes: number;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmm = (time: string) => time.slice(0, 5);

export function breaksBetween(entries: readonly TimedEntry[]): Break[] {
  const breaks: Break[] = [];
  // The latest end of the run of timed entries so far (null: no run).
  let latest: { minutes: number; time: string } | null = null;
  let previous: TimedEntry | null = null;
  for (const e of entries) {
    if (!e.started_time || !e.ended_time || e.is_running) {
      latest = null;
      previous = e;
      continue;
    }
    const start = minutesOf(e.started_time);
    const end = minutesOf(e.ended_time);
    if (latest && previous && start > latest.minutes) {
      breaks.push({ after: previous.id, from: latest.time, to: hhmm(e.started_time), minutes: start - latest.minutes });
    }
    if (!latest || end > latest.minutes) latest = { minutes: end, time: hhmm(e.ended_time) };
    previous = e;
  }
  return breaks;
}
