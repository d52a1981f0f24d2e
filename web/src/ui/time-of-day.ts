/**
 * Times of day as people type them (WEB-STYLE 3): `9`, `930`, `0930`, `9:30`, `9.30`,
 * `21:30`, `9:30pm`, `12am` all become `HH:mm`. The result is a wall-clock time in the
 * workspace's zone, as the API takes it: no Date is made, so the browser's zone never
 * moves it.
 */
import { t } from './texts.ts';

export type ParsedTime = { time: string } | { error: string };

export function parseTimeOfDay(input: string): ParsedTime {
  const text = input.trim().toLowerCase().replace(/\s+/g, '').replace(/\./g, ':');
  const m = /^(\d{1,4}|\d{1,2}:\d{2})(am|pm|a|p)?$/.exec(text);
  if (!m) return { error: t('timeOfDay.format') };
  const [, digits, meridiem] = m;
  let hours: number;
  let minutes: number;
  if (digits.includes(':')) {
    const [h, mm] = digits.split(':');
    hours = Number(h);
    minutes = Number(mm);
  } else if (digits.length <= 2) {
    hours = Number(digits);
    minutes = 0;
  } else {
    // 930 -> 9:30, 0930 and 1230 -> HH:mm: the last two digits are the minutes.
    hours = Number(digits.slice(0, -2));
    minutes = Number(digits.slice(-2));
  }
  if (meridiem) {
    if (hours < 1 || hours > 12) return { error: t('timeOfDay.format') };
    hours = (hours % 12) + (meridiem.startsWith('p') ? 12 : 0);
  }
  if (hours > 23 || minutes > 59) return { error: t('timeOfDay.range') };
  return { time: `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}` };
}

/** Minutes since midnight of an `HH:mm` time. */
export const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** `HH:mm` of minutes since midnight (0..1439; 1440 is shown as 24:00, the end of a day). */
export const timeOf = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
