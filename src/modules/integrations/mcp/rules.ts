import { Decimal } from 'decimal.js';
import { IANAZone } from 'luxon';
import { addDays } from '../../../time/calendar-days.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { weekEndOf, weekStartOf } from '../../tracking/week/index.ts';

/**
 * Pure rules of the MCP server: which days "a week" is, and a week's sums. No I/O.
 * The sums are decimal (never floats) and shown as JSON numbers, as the API shows hours.
 */

export const WEEK_STARTS = ['monday', 'sunday', 'saturday'] as const;
export type WeekStartDay = (typeof WEEK_STARTS)[number];

/**
 * Today in `timeZone` (IANA), else in this process's zone. The tools pass the
 * workspace's zone (GET /company, calls.ts) unless the agent names one (`time_zone`).
 */
export function today(now: Date, timeZone?: string): string {
  if (timeZone !== undefined && !IANAZone.isValidZone(timeZone)) {
    throw new RangeError(`time_zone must be an IANA time zone such as Europe/Berlin, not '${timeZone}'.`);
  }
  return todayIn(timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone, now);
}

export interface Week {
  from: string;
  to: string;
  days: string[];
}

/** The week (of `weekStart`) that contains `date` (YYYY-MM-DD). */
export function weekContaining(date: string, weekStart: WeekStartDay): Week {
  const from = weekStartOf(date, weekStart);
  return { from, to: weekEndOf(from), days: Array.from({ length: 7 }, (_, i) => addDays(from, i)) };
}

/** What the summary reads of a time entry as the API lists it. */
export interface EntryLike {
  spent_date: string;
  project_id: string;
  hours: number;
  billable: boolean;
  is_running: boolean;
}

export interface ProjectLike {
  id: string;
  name: string;
  client?: { id: string; name: string } | null;
}

const num = (d: Decimal) => d.toNumber();

/** Hours split by billable: a decimal triple. */
class Split {
  total = new Decimal(0);
  billable = new Decimal(0);
  add(entry: EntryLike) {
    // String(): a JSON number's shortest form, so 0.1 stays 0.1 in the decimal.
    const hours = new Decimal(String(entry.hours));
    this.total = this.total.plus(hours);
    if (entry.billable) this.billable = this.billable.plus(hours);
  }
  shown() {
    return { hours: num(this.total), billable_hours: num(this.billable), non_billable_hours: num(this.total.minus(this.billable)) };
  }
}

/**
 * A week's hours per day and per project, billable and not, from its time entries (a
 * running timer counts with the hours it has so far). Projects the caller cannot list
 * are named by id only.
 */
export function summarizeWeek(week: Week, entries: readonly EntryLike[], projects: readonly ProjectLike[]) {
  const names = new Map(projects.map((p) => [p.id, p]));
  const all = new Split();
  const byDay = new Map(week.days.map((d) => [d, new Split()]));
  const byProject = new Map<string, Split>();
  for (const entry of entries) {
    all.add(entry);
    byDay.get(entry.spent_date)?.add(entry);
    let split = byProject.get(entry.project_id);
    if (!split) byProject.set(entry.project_id, (split = new Split()));
    split.add(entry);
  }
  return {
    from: week.from,
    to: week.to,
    ...all.shown(),
    entry_count: entries.length,
    running_timers: entries.filter((e) => e.is_running).length,
    days: week.days.map((date) => ({ date, ...byDay.get(date)!.shown() })),
    projects: [...byProject]
      .map(([id, split]) => {
        const project = names.get(id);
        return { project_id: id, project_name: project?.name ?? null, client_name: project?.client?.name ?? null, ...split.shown() };
      })
      .sort((a, b) => b.hours - a.hours || String(a.project_name).localeCompare(String(b.project_name))),
  };
}
