/**
 * The list's period filter: a few named periods, worked out from the workspace's
 * today (the server's, never the browser's clock or zone), as inclusive
 * YYYY-MM-DD bounds. Pure string arithmetic on calendar dates: no Date in a zone.
 */
import { addDays, monthRange, yearRange } from '../../ui/dates.ts';

export const PERIODS = ['all', 'this_month', 'last_month', 'last_90_days', 'this_year', 'last_year'] as const;

/** A named period; its name is in texts.ts (`periods.*`). */
export type Period = (typeof PERIODS)[number];

export const isPeriod = (value: string | null): value is Period => PERIODS.some((p) => p === value);


export function periodRange(period: Period, today: string): { from?: string; to?: string } {
  const [y, m] = today.split('-').map(Number);
  switch (period) {
    case 'all':
      return {};
    case 'this_month':
      return monthRange(y, m);
    case 'last_month':
      return m === 1 ? monthRange(y - 1, 12) : monthRange(y, m - 1);
    case 'last_90_days':
      return { from: addDays(today, -89), to: today };
    case 'this_year':
      return yearRange(y);
    case 'last_year':
      return yearRange(y - 1);
  }
}
