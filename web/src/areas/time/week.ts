import type { Format } from '../../ui/format.ts';
import type { Choice, WebEntry } from './api.ts';
import { choiceId, choiceLabel } from './choices.ts';
import { timeTexts } from './texts.ts';

/** The week grid's rows (project x task) and cells, from the week's entries and the rows the user added. */
export interface GridRow {
  id: string;
  choice: Choice;
  label: string;
  /** Entries per day (YYYY-MM-DD). */
  cells: Record<string, WebEntry[]>;
}

export const choiceOfEntry = (e: WebEntry): Choice => ({
  project_id: e.project_id,
  project_name: e.project.name,
  project_code: e.project.code,
  client_id: e.client.id,
  client_name: e.client.name,
  task_id: e.task_id,
  task_name: e.task?.name ?? '',
  billable: e.billable,
});

export function buildGrid(entries: WebEntry[], added: Choice[]): GridRow[] {
  const rows = new Map<string, GridRow>();
  const rowOf = (choice: Choice) => {
    const id = choiceId(choice);
    let row = rows.get(id);
    if (!row) rows.set(id, (row = { id, choice, label: choiceLabel(choice), cells: {} }));
    return row;
  };
  for (const e of entries) (rowOf(choiceOfEntry(e)).cells[e.spent_date] ??= []).push(e);
  for (const c of added) rowOf(c);
  return [...rows.values()].sort((a, b) => a.label.localeCompare(b.label));
}

/** The longest entry (the server caps a running timer's seconds there too). */
const MAX_ENTRY_SECONDS = 24 * 3600;

/**
 * An entry's seconds by `now` (server clock, ms). A running timer's duration_seconds already
 * holds its run up to the server's answer, so adding now − start to it counted that run twice
 * (issue 21 item 2): it is its earlier runs (a restarted timer's, else 0) plus now − start.
 */
export function entrySeconds(e: Pick<WebEntry, 'is_running' | 'timer_started_at' | 'duration_seconds' | 'earlier_seconds'>, now: number): number {
  if (!e.is_running || !e.timer_started_at) return e.duration_seconds;
  const run = Math.max(0, Math.floor((now - Date.parse(e.timer_started_at)) / 1000));
  return Math.min(MAX_ENTRY_SECONDS, e.earlier_seconds + run);
}

/** Seconds of entries; a running one counts what it has so far by `now` (server clock, ms). */
export function secondsOf(entries: WebEntry[], now: number): number {
  return entries.reduce((sum, e) => sum + entrySeconds(e, now), 0);
}

/** Rounded seconds, as the server rounded each entry (rounded_hours), summed in whole seconds. */
export const roundedSecondsOf = (entries: WebEntry[]) => entries.reduce((sum, e) => sum + Math.round(e.rounded_hours * 3600), 0);

/**
 * A day as the time pages' headings name it: its weekday and the date in the person's
 * pattern ("Mon 2026-01-12", "Mo., 12.01.2026"); `format` is the person's (useFormat).
 */
export const longDayLabel = (format: Format, date: string) => timeTexts('longDay', { weekday: format.weekdayShort(date), day: format.day(date) });

/** How an entry reads in a list: its hours, times and notes (the current values: a save shows here), as `format` (the person's) writes them. */
export const entrySummary = (format: Format, e: WebEntry) =>
  [
    format.duration(e.duration_seconds),
    e.started_time && `${format.time(e.started_time)} – ${e.is_running ? timeTexts('running') : e.ended_time ? format.time(e.ended_time) : ''}`,
    e.notes,
  ]
    .filter(Boolean)
    .join(' · ');
