import { minutesOf, timeOf } from '../../ui/time-of-day.ts';
import type { WebEntry } from './api.ts';
import { secondsOf } from './week.ts';

/**
 * The calendar's layout rules (issue 21 item 10), pure: where an entry's block stands in
 * its day (minutes since midnight of its wall-clock `started_time`/`ended_time`, in the
 * workspace zone as the API gives them: no Date, so the browser's zone never moves a
 * block), side by side when blocks overlap, and how a drag or a key snaps to 15 minutes.
 */

export const SNAP_MINUTES = 15;
export const DAY_MINUTES = 24 * 60;
/** The last minute an `HH:mm` can name (an end at midnight is 23:59). */
export const LAST_MINUTE = DAY_MINUTES - 1;

export interface Block {
  entry: WebEntry;
  start: number;
  end: number;
  /** Which of `lanes` side-by-side columns the block takes (overlapping blocks share the width). */
  lane: number;
  lanes: number;
}

export interface DayLayout {
  /** Entries with a start and an end (or running from a start): placed by time. */
  blocks: Block[];
  /** Entries without times (hours only): listed at the top of the day. */
  untimed: WebEntry[];
}

/** Where an entry spans, in minutes of its day; null when it has no times to place it by. */
export function spanOf(entry: WebEntry, now: number): { start: number; end: number } | null {
  if (!entry.started_time) return null;
  const start = minutesOf(entry.started_time);
  let end: number;
  if (entry.is_running) end = start + Math.floor(secondsOf([entry], now) / 60);
  else if (entry.ended_time) end = minutesOf(entry.ended_time);
  else return null;
  // At least a sliver, never past the day: a short or a midnight-crossing run stays visible.
  return { start, end: Math.min(DAY_MINUTES, Math.max(end, start + 1)) };
}

/** A day's entries as blocks in lanes (overlaps side by side, as calendars show them) and the untimed rest. */
export function layoutDay(entries: WebEntry[], now: number): DayLayout {
  const untimed: WebEntry[] = [];
  const placed: Omit<Block, 'lane' | 'lanes'>[] = [];
  for (const entry of entries) {
    const span = spanOf(entry, now);
    if (span) placed.push({ entry, ...span });
    else untimed.push(entry);
  }
  placed.sort((a, b) => a.start - b.start || b.end - a.end);
  const blocks: Block[] = [];
  // Clusters of blocks that overlap one another; in each, a block takes the first lane free at its start.
  let cluster: Block[] = [];
  let clusterEnd = -1;
  const close = () => {
    const lanes = Math.max(1, ...cluster.map((b) => b.lane + 1));
    for (const b of cluster) blocks.push({ ...b, lanes });
    cluster = [];
  };
  for (const p of placed) {
    if (p.start >= clusterEnd) {
      close();
      clusterEnd = -1;
    }
    const laneEnds: number[] = [];
    for (const b of cluster) laneEnds[b.lane] = Math.max(laneEnds[b.lane] ?? -1, b.end);
    let lane = laneEnds.findIndex((end) => end <= p.start);
    if (lane === -1) lane = laneEnds.length;
    cluster.push({ ...p, lane, lanes: 1 });
    clusterEnd = Math.max(clusterEnd, p.end);
  }
  close();
  return { blocks, untimed };
}

/** Minutes rounded to the nearest 15, within the day. */
export const snap = (minutes: number) => Math.min(DAY_MINUTES, Math.max(0, Math.round(minutes / SNAP_MINUTES) * SNAP_MINUTES));

/**
 * The span a drag over empty space makes: from where it began to where it ended (either
 * way), snapped; a click (no span) makes an hour from that point. An end at midnight is 23:59.
 */
export function dragSpan(fromMinutes: number, toMinutes: number): { started_time: string; ended_time: string } {
  let start = snap(Math.min(fromMinutes, toMinutes));
  let end = snap(Math.max(fromMinutes, toMinutes));
  if (end - start < SNAP_MINUTES) {
    start = Math.min(snap(fromMinutes - SNAP_MINUTES / 2), DAY_MINUTES - 60);
    end = start + 60;
  }
  return { started_time: timeOf(start), ended_time: timeOf(Math.min(end, LAST_MINUTE)) };
}

/** A block's new end after a resize (a drag of its bottom edge, or a key), snapped, at least 15 minutes after its start. */
export function resizedEnd(start: number, end: number): string {
  return timeOf(Math.min(LAST_MINUTE, Math.max(start + SNAP_MINUTES, snap(end))));
}

/** Where "New entry" proposes a day's next entry: an hour after the day's last block, or 09:00. */
export function nextSlot(blocks: Pick<Block, 'end'>[]): { started_time: string; ended_time: string } {
  const last = Math.max(-1, ...blocks.map((b) => b.end));
  const start = last < 0 ? 9 * 60 : Math.min(Math.ceil(last / SNAP_MINUTES) * SNAP_MINUTES, DAY_MINUTES - 60);
  return { started_time: timeOf(start), ended_time: timeOf(Math.min(start + 60, LAST_MINUTE)) };
}
