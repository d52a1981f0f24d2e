import { Decimal } from 'decimal.js';
import {
  HOURS_DECIMALS,
  hoursToSeconds,
  secondsToHours,
  wallClockInstant,
  wallClockOf,
  wallClockSeconds,
  type RuleError,
} from '../week/index.ts';

/**
 * Pure rules of time entries: a completed entry's duration, timers, notes, metadata,
 * sources and external references. Hours, seconds, rounding, wall clocks and weeks
 * are the week's rules (week/rules.ts). No I/O; unit-tested on their own.
 */

/** The longest entry: 24 hours. */
export const MAX_ENTRY_SECONDS = 24 * 3600;

// ---- entry values (create and update) ----

/** The sources a time entry may come from; immutable after creation. */
export const TIME_SOURCES = ['web', 'cli', 'api', 'agent', 'calendar', 'desktop'] as const;
export const DEFAULT_SOURCE = 'api';
export const NOTES_MAX = 10_000;
/** `metadata`: a JSON object of at most 4 KB, serialized as UTF-8. */
export const METADATA_MAX_BYTES = 4096;
/** How far a timer's given start may lie from the current minute and still count as now (clock skew, minute resolution). */
export const TIMER_START_TOLERANCE_MS = 60_000;


/** Hours as sent: a JSON number 0..24 with at most six decimal places, as an exact decimal. */
export function parseHours(value: unknown): Decimal | RuleError {
  const field = 'hours';
  if (typeof value !== 'number' || !Number.isFinite(value)) return { field, message: 'hours must be a number.' };
  const d = new Decimal(value);
  if (d.isNegative() && !d.isZero()) return { field, message: 'hours must be at least 0.' };
  if (d.gt(24)) return { field, message: 'hours must be at most 24.' };
  if (d.decimalPlaces() > HOURS_DECIMALS) return { field, message: `hours takes at most ${HOURS_DECIMALS} decimal places.` };
  return d.abs();
}

/** Whole seconds a timer has run from its start to `now` (never negative). */
export function elapsedSeconds(startedAt: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - startedAt.getTime()) / 1000));
}

/** An entry's seconds including a running timer's current run, at most 24 hours (the longest entry). */
export function currentSeconds(entry: { duration_seconds: number; timer_started_at: Date | null }, now: Date): number {
  const running = entry.timer_started_at ? elapsedSeconds(entry.timer_started_at, now) : 0;
  return Math.min(MAX_ENTRY_SECONDS, entry.duration_seconds + running);
}

/** Hours and times agree when they are within a minute, the times' resolution (HH:mm). */
export const agreeWithinAMinute = (seconds: number, span: number) => Math.abs(seconds - span) < 60;

/**
 * The duration of a completed entry from what the body says: `hours`, or
 * `started_time` + `ended_time` (wall clock on `date` in `zone`, DST-safe), or
 * both when they agree (the hours within one minute of the span, the times'
 * resolution; the entered hours are kept). Null when neither is given.
 */
export function completedDuration(
  input: { hours?: Decimal; started?: string | null; ended?: string | null },
  date: string,
  zone: string,
): { seconds: number; hours: Decimal | null } | RuleError | null {
  const { hours, started, ended } = input;
  if ((started == null) !== (ended == null)) {
    return {
      field: started == null ? 'started_time' : 'ended_time',
      message: 'started_time and ended_time go together: send both (or only hours).',
    };
  }
  if (started != null && ended != null) {
    const span = wallClockSeconds(date, started, ended, zone);
    if (span <= 0) return emptySpan(date, started, ended, zone);
    // Only the day the clocks go back has more than 24 hours between two times of it.
    if (span > MAX_ENTRY_SECONDS) {
      return {
        field: 'ended_time',
        message: `${started} to ${ended} on ${date} in ${zone} is ${secondsToHours(span).toString()} hours (the clocks went back); an entry holds at most 24 hours.`,
      };
    }
    if (hours !== undefined && !agreeWithinAMinute(hoursToSeconds(hours), span)) {
      return {
        field: 'hours',
        message: `hours (${hours.toString()}) disagrees with started_time..ended_time (${secondsToHours(span).toString()} hours); send one or the other.`,
      };
    }
    return { seconds: hours !== undefined ? hoursToSeconds(hours) : span, hours: hours ?? null };
  }
  if (hours !== undefined) return { seconds: hoursToSeconds(hours), hours };
  return null;
}

/**
 * Why a span of wall-clock times holds no time. A time the clocks skipped (02:30 on the night
 * they go forward) counts as the time it became (03:30), as wallClockInstant says; a span that
 * this leaves empty is named for that cause, not as an end before its start.
 */
function emptySpan(date: string, started: string, ended: string, zone: string): RuleError {
  const times = [['started_time', started], ['ended_time', ended]] as const;
  const skipped = times.map(([field, hhmm]) => ({ field, hhmm, became: wallClockOf(wallClockInstant(date, hhmm, zone), zone).time })).find((t) => t.became !== t.hhmm);
  if (!skipped) return { field: 'ended_time', message: 'ended_time must be after started_time.' };
  const { field, hhmm, became } = skipped;
  return {
    field,
    message: `${field} ${hhmm} does not exist on ${date} in ${zone} (the clocks went forward); it counts as ${became}, which leaves no time between started_time and ended_time.`,
  };
}

/**
 * A stopped timer's times: its start time and the stop's wall clock while they span the hours it
 * holds (within a minute, as a create's hours agree with its times). None when the run ended on
 * a later date (past midnight, or at the 24-hour cap), since started_time..ended_time is a span
 * of one date, or when the entry ran more than once (a restart: its times would span the pauses
 * too). A run without a start time (a timer on a past date) gets no end time either: the two go
 * together.
 */
export function timesAfterStop(
  entry: { spent_date: string; started_time: string | null },
  end: { date: string; time: string },
  seconds: number,
  zone: string,
): { started_time: string | null; ended_time: string | null } {
  const none = { started_time: null, ended_time: null };
  if (entry.started_time === null || end.date !== entry.spent_date) return none;
  if (!agreeWithinAMinute(seconds, wallClockSeconds(entry.spent_date, entry.started_time, end.time, zone))) return none;
  return { started_time: entry.started_time, ended_time: end.time };
}

export type TimerStart = { spentDate: string; startedTime: string | null; startedAt: Date };

/**
 * Where a new running timer starts. `spentDate` defaults to today and
 * `startedTime` to now, both in the workspace zone. A start in the future (a
 * later date, or a time after the next minute) is refused; a start in the past
 * (an earlier date, or a time before the previous minute) needs the workspace
 * setting `allow_past_timer_starts`, however far back. A past date without a
 * time starts counting now.
 */
export function timerStart(opts: {
  now: Date;
  zone: string;
  spentDate?: string;
  startedTime?: string;
  allowPast: boolean;
}): TimerStart | RuleError {
  const { now, zone, allowPast } = opts;
  const today = wallClockOf(now, zone).date;
  const spentDate = opts.spentDate ?? today;
  if (spentDate > today) return { field: 'spent_date', message: 'A timer cannot start on a future date.' };
  const pastRefused = (field: string): RuleError => ({
    field,
    message: 'This workspace does not allow timers that started in the past (allow_past_timer_starts is off); record a completed entry instead.',
  });
  if (opts.startedTime === undefined) {
    if (spentDate < today) {
      if (!allowPast) return pastRefused('spent_date');
      return { spentDate, startedTime: null, startedAt: now };
    }
    return { spentDate, startedTime: wallClockOf(now, zone).time, startedAt: now };
  }
  // HH:mm has minute resolution: measure from the start of the current minute.
  const instant = wallClockInstant(spentDate, opts.startedTime, zone).getTime();
  const minute = Math.floor(now.getTime() / 60_000) * 60_000;
  if (instant > minute + TIMER_START_TOLERANCE_MS) return { field: 'started_time', message: 'A timer cannot start in the future.' };
  // No bound on how far back (the spec bounds only the future): a run longer than
  // the longest entry counts as MAX_ENTRY_SECONDS (currentSeconds), so its stop keeps
  // 24 hours on the start's date.
  if ((spentDate < today || instant < minute - TIMER_START_TOLERANCE_MS) && !allowPast) {
    return pastRefused(spentDate < today ? 'spent_date' : 'started_time');
  }
  return { spentDate, startedTime: opts.startedTime, startedAt: instant > now.getTime() ? now : new Date(instant) };
}

// ---- metadata and external references ----

const hasNul = (value: unknown) => JSON.stringify(value).includes('\\u0000');

/** `metadata`: a JSON object of at most 4 KB (UTF-8 of its JSON). */
export function checkMetadata(value: unknown): RuleError | null {
  const field = 'metadata';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { field, message: 'metadata must be an object.' };
  const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (bytes > METADATA_MAX_BYTES) return { field, message: `metadata must be at most ${METADATA_MAX_BYTES} bytes as JSON (it is ${bytes}).` };
  if (hasNul(value)) return { field, message: 'metadata cannot contain the NUL character.' };
  return null;
}

/** Text fields of an external reference and their maximum lengths (`id` is required). */
export const EXTERNAL_REFERENCE_FIELDS: Record<string, number> = {
  id: 255,
  permalink: 2048,
  service: 255,
  service_name: 255,
  group_id: 255,
  account_id: 255,
  display_name: 1024,
  group_name: 1024,
  parent_id: 255,
};

/**
 * Service identifiers reserved for built-in third-party integrations (docs/decisions.md):
 * `github.com` and `atlassian.net`, with their subdomains, ignoring case. They need
 * their integration enabled, and Sheaf has none yet, so they are refused.
 */
export const RESERVED_SERVICES = ['github.com', 'atlassian.net'] as const;

export function reservedService(service: string): string | null {
  const s = service.trim().toLowerCase();
  return RESERVED_SERVICES.find((r) => s === r || s.endsWith(`.${r}`)) ?? null;
}

/** The error code of a reserved service identifier whose integration is not enabled (400). */
export const INTEGRATION_NOT_ENABLED = 'integration_not_enabled';

export const EXTERNAL_REFERENCE_NOT_OBJECT = 'external_reference must be an object';

/**
 * Checks an external reference and returns what is stored: the given text fields
 * (null optional fields are dropped). `id` is required; `permalink` is a full
 * http(s) URL; unknown fields are refused.
 */
export function checkExternalReference(value: unknown): Record<string, string> | RuleError {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { field: 'external_reference', message: EXTERNAL_REFERENCE_NOT_OBJECT };
  }
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    const field = `external_reference.${key}`;
    const max = EXTERNAL_REFERENCE_FIELDS[key];
    if (max === undefined) return { field, message: `Unknown field '${field}'.`, code: 'unknown_field' };
    if (v === null && key !== 'id') continue;
    if (typeof v !== 'string') return { field, message: `${field} must be a string.` };
    if (v.trim() === '') return { field, message: `${field} cannot be blank.` };
    if (v.length > max) return { field, message: `${field} must be at most ${max} characters.` };
    if (v.includes('\u0000')) return { field, message: `${field} cannot contain the NUL character.` };
    out[key] = v;
  }
  if (out.id === undefined) return { field: 'external_reference.id', message: 'external_reference.id is required.' };
  if (out.permalink !== undefined && !isHttpUrl(out.permalink)) {
    return { field: 'external_reference.permalink', message: 'external_reference.permalink must be a full http:// or https:// URL.' };
  }
  const reserved = out.service === undefined ? null : reservedService(out.service);
  if (reserved) {
    return {
      field: 'external_reference.service',
      code: INTEGRATION_NOT_ENABLED,
      message: `The service '${out.service}' is reserved for the built-in ${reserved} integration, which is not enabled in this workspace; use another service identifier.`,
    };
  }
  return out;
}

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** `notes`: at most 10,000 characters kept as written; blank is null. */
export function checkNotes(value: string | null): string | null | RuleError {
  if (value === null || value.trim() === '') return null;
  if (value.length > NOTES_MAX) return { field: 'notes', message: `notes must be at most ${NOTES_MAX} characters.` };
  if (value.includes('\u0000')) return { field: 'notes', message: 'notes cannot contain the NUL character.' };
  return value;
}

