import { Decimal } from 'decimal.js';
import { formatMoney } from '../../money.ts';
import type { Output } from '../output.ts';

/**
 * Output of the person commands: with --json the API's JSON as it came, else
 * aligned tables. Hours are the API's decimals shown to the hundredth (a
 * running timer's 0.016944 reads 0.02, 1.5 stays 1.5, never a float's
 * 1.4999…), sums are added exactly as decimals before they are shown so, and
 * money has the currency's minor units (formatMoney, as the admin commands
 * show it).
 */

export interface Column<R> {
  title: string;
  value: (row: R) => unknown;
  /** Numbers: right-aligned. */
  align?: 'right';
  /** The column that gives up width (cut with …) when the table is wider than the terminal. */
  shrink?: boolean;
}

const text = (v: unknown): string => (v === null || v === undefined || v === '' ? '-' : String(v).replace(/\s+/g, ' '));

/** Aligned columns; when stdout is a terminal, the shrinkable column is cut so a row fits its width. */
export function grid<R>(rows: R[], columns: Column<R>[], width?: number): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((r) => columns.map((c) => text(c.value(r))));
  const widths = columns.map((c, i) => Math.max(c.title.length, ...cells.map((row) => row[i].length)));
  const total = widths.reduce((a, b) => a + b, 0) + 2 * (columns.length - 1);
  const shrink = columns.findIndex((c) => c.shrink);
  if (width && total > width && shrink >= 0) widths[shrink] = Math.max(columns[shrink].title.length, 10, widths[shrink] - (total - width));
  const cut = (s: string, w: number) => (s.length > w ? `${s.slice(0, Math.max(0, w - 1))}…` : s);
  const line = (values: string[]) =>
    values
      .map((v, i) => (columns[i].align === 'right' ? cut(v, widths[i]).padStart(widths[i]) : cut(v, widths[i]).padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.title)), ...cells.map(line)].join('\n');
}

/** The terminal's width when stdout is one (tables are never cut in a pipe). */
export const terminalWidth = (output: Output) => (output.tty ? process.stdout.columns || 100 : undefined);

/** `value` as JSON (--json) or as the text `human` makes. */
export function show(output: Output, value: unknown, human: () => string) {
  output.out(output.json ? JSON.stringify(value, null, 2) : human());
}

/** The sum of decimals as the API gave them (numbers or strings), exactly. */
export const sum = (values: Array<number | string | null | undefined>) =>
  values.reduce<Decimal>((a, v) => (v === null || v === undefined ? a : a.plus(new Decimal(String(v)))), new Decimal(0)).toString();

/** Decimal hours (a number or a string) to the hundredth, as text: 0.016944 → "0.02", 7.50 → "7.5"; '-' for none. */
export const hours = (value: number | string | null | undefined) =>
  value === null || value === undefined ? '-' : new Decimal(String(value)).toDecimalPlaces(2).toString();

/** An amount in its currency's minor units, or '-'. */
export const money = (amount: number | string | null | undefined, currency: string | null | undefined) =>
  amount === null || amount === undefined ? '-' : currency ? formatMoney(String(amount), currency) : String(amount);

/** An entry's time of day: "09:00–10:30", "09:00–" while running, or "". */
export const span = (e: { started_time?: string | null; ended_time?: string | null; is_running?: boolean }) =>
  e.started_time ? `${e.started_time}–${e.is_running ? '' : (e.ended_time ?? '')}` : '';

/** Seconds as h:mm, e.g. 5400 → 1:30. */
/** Seconds as h:mm, to the nearest minute (as the web app writes durations: 27,599 s is 7:40). */
export const clock = (seconds: number) => {
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
};
