import { formatDuration } from '../../ui/duration.ts';

/** Dates and amounts as the approval screens say them (pure; dates are YYYY-MM-DD, read as calendar days). */

const DAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const SHORT = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

export const dayText = (date: string) => DAY.format(new Date(`${date}T00:00:00Z`)).replace(',', '');
export const weekText = (from: string, to: string) => `${SHORT.format(new Date(`${from}T00:00:00Z`))} – ${dayText(to)}`;
export const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
export const itemsText = (count: number) => `${count} item${count === 1 ? '' : 's'}`;
export const hoursText = (seconds: number) => formatDuration(seconds);
