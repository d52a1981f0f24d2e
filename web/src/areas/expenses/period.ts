/**
 * The list's period filter: a few named periods, worked out from the workspace's
 * today (the server's, never the browser's clock or zone), as inclusive
 * YYYY-MM-DD bounds. Pure string arithmetic on calendar dates: no Date in a zone.
 */
export const PERIODS = [
  { id: 'all', label: 'All time' },
  { id: 'this_month', label: 'This month' },
  { id: 'last_month', label: 'Last month' },
  { id: 'last_90_days', label: 'Last 90 days' },
  { id: 'this_year', label: 'This year' },
  { id: 'last_year', label: 'Last year' },
] as const;

export type Period = (typeof PERIODS)[number]['id'];

export const isPeriod = (value: string | null): value is Period => PERIODS.some((p) => p.id === value);

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
