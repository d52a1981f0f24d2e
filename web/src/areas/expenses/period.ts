/**
 * The list's period filter: a few named periods, worked out from the workspace's
 * today (the server's, never the browser's clock or zone), as inclusive
 * YYYY-MM-DD bounds. Pure string arithmetic on calendar dates: no Date in a zone.
 */
export const PERIODS = ['all', 'this_month', 'last_month', 'last_90_days', 'this_year', 'last_year'] as const;

/** A named period; its name is in texts.ts (`periods.*`). */
export type Period = (typeof PERIODS)[number];

export const isPeriod = (value: string | null): value is Period => PERIODS.some((p) => p === value);

const pad = (n: number) => String(n).padStart(2, '0');
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** `date` moved by `days` calendar days (UTC arithmetic on a calendar date: no zone can move it). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function periodRange(period: Period, today: string): { from?: string; to?: string } {
  const [y, m] = today.split('-').map(Number);
  switch (period) {
    case 'all':
      return {};
    case 'this_month':
      return { from: `${y}-${pad(m)}-01`, to: `${y}-${pad(m)}-${pad(daysIn(y, m))}` };
    case 'last_month': {
      const [ly, lm] = m === 1 ? [y - 1, 12] : [y, m - 1];
      return { from: `${ly}-${pad(lm)}-01`, to: `${ly}-${pad(lm)}-${pad(daysIn(ly, lm))}` };
    }
    case 'last_90_days':
      return { from: addDays(today, -89), to: today };
    case 'this_year':
      return { from: `${y}-01-01`, to: `${y}-12-31` };
    case 'last_year':
      return { from: `${y - 1}-01-01`, to: `${y - 1}-12-31` };
  }
}
