/**
 * Durations as people type them (WEB-STYLE 3): `1:30`, `1.5`, `1,5`, `90m`, `1h30`,
 * `1h 30m` are all an hour and a half; a bare number is hours everywhere. The result
 * is whole seconds (the browser sums hours only in integer seconds). A day's duration is at most
 * 24 hours; a longer total (a plan's hours) names its own `maxHours` and its own refusal.
 */
import { t } from './texts.ts';

export type Parsed = { seconds: number } | { error: string };

export function parseDuration(input: string, { maxHours = 24, tooLong = t('duration.tooLong') } = {}): Parsed {
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  if (text === '') return { seconds: 0 };
  if (text.startsWith('-')) return { error: t('duration.negative') };
  let seconds: number | undefined;
  let m: RegExpExecArray | null;
  if ((m = /^(\d+):([0-5]?\d)$/.exec(text))) seconds = Number(m[1]) * 3600 + Number(m[2]) * 60;
  else if ((m = /^(\d+(?:[.,]\d+)?)$/.exec(text))) seconds = Math.round(Number(m[1].replace(',', '.')) * 3600);
  else if ((m = /^(\d+)\s?m(?:in)?$/.exec(text))) seconds = Number(m[1]) * 60;
  else if ((m = /^(\d+(?:[.,]\d+)?)\s?h(?:\s?(\d+)\s?m?)?$/.exec(text))) {
    seconds = Math.round(Number(m[1].replace(',', '.')) * 3600) + (m[2] ? Number(m[2]) * 60 : 0);
  }
  if (seconds === undefined || !Number.isFinite(seconds)) return { error: t('duration.format') };
  if (seconds > maxHours * 3600) return { error: tooLong };
  return { seconds };
}

/** `h:mm:ss`, the running timer's elapsed time. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** Hours for the API (decimal, at most 6 places) from whole seconds. */
export const secondsToHours = (seconds: number) => Math.round((seconds / 3600) * 1e6) / 1e6;
