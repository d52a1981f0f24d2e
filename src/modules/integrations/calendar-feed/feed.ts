import { Decimal } from 'decimal.js';
import ical from 'ical-generator';
import { secondsToHours, wallClockInstant } from '../../tracking/week/index.ts';
import type { FeedEntry } from './queries.ts';

/**
 * The iCalendar text of a person's feed, written by ical-generator. Time entries are
 * events: from start to end when both wall-clock times are known (in the workspace's
 * zone), a running timer from its start to now, else an all-day event on the work
 * date with the hours in its title. Planned work is one all-day event per planning
 * assignment over its dates. Each event's UID is its record's id, so a calendar
 * program updates an event when the record changes instead of adding another.
 * What is written is the person's own: names of the projects, clients and tasks they
 * worked on or are planned on, their notes, their hours; never a rate or anyone else.
 */

export interface PlannedWork {
  id: string;
  project_name: string;
  client_name: string;
  starts_on: string;
  ends_on: string;
  hours_per_day: string | null;
  total_hours: string | null;
  notes: string | null;
  updated_at: Date;
}

export interface FeedContent {
  workspaceName: string;
  personName: string;
  timezone: string;
  entries: FeedEntry[];
  plan: PlannedWork[];
  now: Date;
}

const DAY_MS = 86_400_000;
/** A calendar day as the Date ical-generator writes as that all-day DATE (UTC midnight; the feed sets no zone for them). */
const dayOf = (date: string) => new Date(`${date}T00:00:00Z`);
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS);

/** An entry's hours to the hundredth, as a person reads them (1.5, not 1.499722). */
const hoursText = (entry: FeedEntry, now: Date) => {
  const running = entry.timer_started_at ? Math.max(0, Math.floor((now.getTime() - entry.timer_started_at.getTime()) / 1000)) : 0;
  const hours = entry.hours_entered !== null && entry.timer_started_at === null ? new Decimal(entry.hours_entered) : secondsToHours(entry.duration_seconds + running);
  return hours.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toString();
};

const lines = (...parts: Array<string | null | undefined>) => parts.filter((p): p is string => Boolean(p)).join('\n');

export function calendarText(content: FeedContent): string {
  const { now, timezone } = content;
  const calendar = ical({
    name: `${content.personName} – ${content.workspaceName}`,
    prodId: { company: 'Sheaf', product: 'Sheaf calendar feed', language: 'EN' },
    // Calendar programs poll; an hour is what most of them do anyway.
    ttl: 3600,
  });
  for (const e of content.entries) {
    const hours = hoursText(e, now);
    const what = `${e.project_name} – ${e.task_name}`;
    const description = lines(`${hours} h`, e.client_name, e.notes);
    const base = { id: `time-entry-${e.id}@sheaf`, description, stamp: e.updated_at };
    if (e.timer_started_at) {
      calendar.createEvent({ ...base, start: e.timer_started_at, end: now, summary: `${what} (running)` });
    } else if (e.started_time && e.ended_time) {
      const start = wallClockInstant(e.spent_date, e.started_time, timezone);
      const end = wallClockInstant(e.spent_date, e.ended_time, timezone);
      calendar.createEvent({ ...base, start, end, summary: what });
    } else {
      calendar.createEvent({ ...base, start: dayOf(e.spent_date), end: dayAfter(e.spent_date), allDay: true, summary: `${hours} h · ${what}` });
    }
  }
  for (const a of content.plan) {
    const amount = a.hours_per_day !== null ? `${new Decimal(a.hours_per_day).toString()} h/day` : `${new Decimal(a.total_hours!).toString()} h in total`;
    calendar.createEvent({
      id: `planning-assignment-${a.id}@sheaf`,
      start: dayOf(a.starts_on),
      end: dayAfter(a.ends_on),
      allDay: true,
      summary: `Planned: ${a.project_name} (${amount})`,
      description: lines(a.client_name, a.notes),
      stamp: a.updated_at,
    });
  }
  return calendar.toString();
}
