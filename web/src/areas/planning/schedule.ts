/**
 * The planner's arithmetic, pure (schedule.test.ts): which weeks the page shows, how full a
 * week is, where an assignment's bar sits across the week columns and in which lane, and
 * what a move or a resize by whole weeks makes of its dates. Calendar days are `YYYY-MM-DD`
 * strings moved by UTC arithmetic (ui/dates.ts), never through a time zone. The planner's
 * weeks are the workspace's (its `week_start`, from the session), as the server's schedule
 * counts them; `weekStart` is Monday where not given (the ISO week).
 */
import { addDays, isDate, utcDay, weekDays, weekStartOf } from '../../ui/dates.ts';

/** The weeks the page offers (the URL takes any of 1…52, as the API: the benchmark asks for 26). */
export const WEEK_CHOICES = [12, 26] as const;
export const DEFAULT_WEEKS = 12;
export const MAX_WEEKS = 52;
/** How far Earlier and Later move the schedule. */
export const STEP_WEEKS = 4;

/** The Monday of the week holding `date`. */
export const mondayOf = (date: string) => weekStartOf(date, 'monday');

/**
 * The page's schedule from the URL (?from=YYYY-MM-DD&weeks=n): the first day of the workspace
 * week holding `from` (else today), 12 weeks unless 1…52 are asked for. The server snaps `from`
 * the same way; snapping here too keeps one query key per week, so Earlier and Later land on
 * the columns' own days.
 */
export function scheduleParams(search: URLSearchParams, today: string, weekStart = 'monday'): { from: string; weeks: number } {
  const from = search.get('from');
  const asked = Number(search.get('weeks'));
  const weeks = Number.isInteger(asked) && asked >= 1 && asked <= MAX_WEEKS ? asked : DEFAULT_WEEKS;
  return { from: weekStartOf(isDate(from) && validDay(from) ? from : today, weekStart), weeks };
}

const validDay = (date: string) => !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);

/** A week's load: nothing planned (`free`, or `none` without capacity), under 80 %, 80–100 % (`full`), or over the capacity. */
export type Load = 'none' | 'free' | 'under' | 'full' | 'over';

/** The share of the capacity from which a week counts as (nearly) full. */
export const NEAR_FULL = 0.8;

export function loadOf(planned: number, capacity: number): Load {
  // Hundredths, as the API rounds: 40.004 planned of 40 is full, not over.
  const p = Math.round(planned * 100);
  const c = Math.round(capacity * 100);
  if (p <= 0) return c > 0 ? 'free' : 'none';
  if (p > c) return 'over';
  return p >= c * NEAR_FULL ? 'full' : 'under';
}

/**
 * The people planned for although no shown week gives them an hour of capacity (no working
 * pattern, as the first-start owner has none): every hour planned for them shows as
 * over-allocated, which reads as a planning mistake unless the page says why.
 */
export function plannedWithoutCapacity<P extends { name: string; is_active?: boolean; cells: readonly { planned_hours: number; capacity_hours: number }[] }>(people: readonly P[]): P[] {
  // Someone who left has no capacity by leaving; their row says so, working patterns would not help.
  return people.filter((p) => p.is_active !== false && p.cells.some((c) => loadOf(c.planned_hours, 0) === 'over') && p.cells.every((c) => loadOf(0, c.capacity_hours) === 'none'));
}

/** A schedule row: a person (by user id) or a placeholder (by its id). */
export type RowKey = `user:${string}` | `placeholder:${string}`;

/** The row an assignment's bar sits in. */
export const rowKeyOf = (a: { user_id: string | null; placeholder_id: string | null }): RowKey => (a.user_id ? `user:${a.user_id}` : `placeholder:${a.placeholder_id}`);

export interface Dated {
  starts_on: string;
  ends_on: string;
}

/** Days from `a` to `b` (b − a). */
export const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/**
 * Where a bar sits across the shown weeks, as fractions of the whole width (day-exact, so a
 * Tuesday-to-Thursday plan is drawn as such): null when it lies outside; `clippedStart` and
 * `clippedEnd` when it goes on before or after the shown weeks.
 */
export function barGeometry(a: Dated, from: string, weeks: number): { left: number; width: number; clippedStart: boolean; clippedEnd: boolean } | null {
  const total = weeks * 7;
  const start = daysBetween(from, a.starts_on);
  const end = daysBetween(from, a.ends_on) + 1; // exclusive
  if (end <= 0 || start >= total || end <= start) return null;
  const s = Math.max(0, start);
  const e = Math.min(total, end);
  return { left: s / total, width: (e - s) / total, clippedStart: start < 0, clippedEnd: end > total };
}

/**
 * Lanes for a row's bars: each bar goes in the first lane whose last bar ended before it
 * starts (sorted by start, then by end), so overlapping plans stack. Returns each id's lane
 * and the number of lanes (at least 1: an empty row keeps its height).
 */
export function lanesOf<T extends Dated & { id: string }>(bars: readonly T[]): { lane: Map<string, number>; count: number } {
  const sorted = [...bars].sort((x, y) => x.starts_on.localeCompare(y.starts_on) || x.ends_on.localeCompare(y.ends_on) || x.id.localeCompare(y.id));
  const ends: string[] = [];
  const lane = new Map<string, number>();
  for (const b of sorted) {
    let i = ends.findIndex((end) => end < b.starts_on);
    if (i === -1) i = ends.push(b.ends_on) - 1;
    else ends[i] = b.ends_on;
    lane.set(b.id, i);
  }
  return { lane, count: Math.max(1, ends.length) };
}

/** Both dates moved by whole weeks (the weekdays stay). */
export const movedByWeeks = (a: Dated, weeks: number): Dated => ({ starts_on: addDays(a.starts_on, 7 * weeks), ends_on: addDays(a.ends_on, 7 * weeks) });

/** The end moved by whole weeks; null when it would fall before the start (a bar of less than a day). */
export function resizedByWeeks(a: Dated, weeks: number): Dated | null {
  const ends_on = addDays(a.ends_on, 7 * weeks);
  return ends_on < a.starts_on ? null : { starts_on: a.starts_on, ends_on };
}

/** The fewest weeks (≤ 0) the end may move back and still not fall before the start. */
export const shortestResize = (a: Dated) => 0 - Math.floor(daysBetween(a.starts_on, a.ends_on) / 7);

/** A drag's distance in whole weeks: the nearest whole number of week columns. */
export const weeksOfDrag = (dx: number, weekWidth: number) => (weekWidth > 0 ? Math.round(dx / weekWidth) || 0 : 0);

/** The first days of `weeks` workspace weeks from the week holding `from` (the columns, as the API's `weeks`). */
export const weekColumns = (from: string, weeks: number, weekStart = 'monday') => Array.from({ length: weeks }, (_, i) => addDays(weekStartOf(from, weekStart), 7 * i));

/** Monday to Friday: the working days a new plan starts with (a placeholder's, and a person's without a pattern). */
const isWeekday = (date: string) => utcDay(date).getUTCDay() % 6 !== 0;

/**
 * The dates a new assignment starts with: the Monday to Friday of this workspace week when it is
 * shown, else of the first shown week's. In a Sunday-start week that is its second to sixth day,
 * in a Saturday-start one its third to seventh.
 */
export function newAssignmentDates(from: string, weeks: number, today: string, weekStart = 'monday'): Dated {
  const thisWeek = weekStartOf(today, weekStart);
  const start = thisWeek >= from && daysBetween(from, thisWeek) < weeks * 7 ? thisWeek : from;
  const working = weekDays(start).filter(isWeekday);
  return { starts_on: working[0]!, ends_on: working.at(-1)! };
}

/**
 * A text with placeholders, translated once and then filled by string replacement: i18next's
 * t() costs microseconds a call, and the schedule has thousands of labels. `translate` gets a
 * marker for each of `names` and returns the text with them in place.
 */
export function template(translate: (values: Record<string, string>) => string, names: string[]): (...values: string[]) => string {
  const parts = translate(Object.fromEntries(names.map((n, i) => [n, `\uE000${i}\uE000`]))).split(/\uE000(\d+)\uE000/);
  return (...values) => parts.map((part, i) => (i % 2 ? (values[Number(part)] ?? '') : part)).join('');
}
