import { Decimal } from 'decimal.js';
import { weekEndOf, weekStartOf } from '../../tracking/week/index.ts';
import { totalHours, type DayCapacity } from '../../planning/capacity/index.ts';

/**
 * Pure rules of the home page (issue 21 item 9): the week and its days against the
 * expected hours (the person's capacity, as the approvals preflight reads it), budget levels, and
 * amounts per currency (never added across currencies). Unit-tested in test/home-web.test.ts.
 */

export { addDays } from '../../../time/calendar-days.ts';
import { addDays } from '../../../time/calendar-days.ts';

/** Hours as a JSON number with the API's six places. */
export const hoursNumber = (d: Decimal) => d.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toNumber();

export interface WeekDay {
  date: string;
  tracked_seconds: number;
  expected_hours: number | null;
}

/** The workspace week holding `today` (its week_start): its first and last day. */
export function weekRange(today: string, weekStart: 'monday' | 'sunday' | 'saturday') {
  const from = weekStartOf(today, weekStart);
  return { from, to: weekEndOf(from) };
}

/**
 * The workspace week holding `today` (dates are calendar days in the workspace zone, so a
 * DST change inside the week moves nothing), each day with the completed seconds tracked on
 * it and the hours expected of it (`capacity`: the week's days; null: nothing expected).
 */
export function weekOf(
  today: string,
  weekStart: 'monday' | 'sunday' | 'saturday',
  secondsByDay: ReadonlyMap<string, number>,
  capacity: readonly DayCapacity[] | null,
) {
  const { from, to } = weekRange(today, weekStart);
  const expectedOn = new Map(capacity?.map((d) => [d.date, d.hours]));
  const days: WeekDay[] = Array.from({ length: 7 }, (_, i) => {
    const date = addDays(from, i);
    return { date, tracked_seconds: secondsByDay.get(date) ?? 0, expected_hours: capacity === null ? null : hoursNumber(expectedOn.get(date) ?? new Decimal(0)) };
  });
  return {
    from,
    to,
    tracked_seconds: days.reduce((sum, d) => sum + d.tracked_seconds, 0),
    expected_hours: capacity === null ? null : hoursNumber(totalHours(capacity)),
    days,
  };
}

/** Budget use at or above these shares of the budget is flagged. */
export const BUDGET_LEVELS = [
  { level: 'over_100', share: new Decimal(1) },
  { level: 'over_80', share: new Decimal('0.8') },
] as const;
export type BudgetLevel = (typeof BUDGET_LEVELS)[number]['level'];

/** The highest level a budget's spend reached, or null (no budget, a zero budget, or below 80 %). */
export function budgetLevel(budget: Decimal.Value | null, spent: Decimal.Value | null): { level: BudgetLevel; percent: number } | null {
  if (budget === null || spent === null) return null;
  const b = new Decimal(budget);
  if (b.lte(0)) return null;
  const share = new Decimal(spent).div(b);
  const hit = BUDGET_LEVELS.find((l) => share.gte(l.share));
  return hit ? { level: hit.level, percent: share.mul(100).toDecimalPlaces(0, Decimal.ROUND_DOWN).toNumber() } : null;
}

/** Sums amounts per currency (exact decimals), ordered by currency code; zero sums left out. Never adds two currencies. */
export function perCurrency(rows: Iterable<{ currency: string; amount: Decimal.Value }>) {
  const sums = new Map<string, { amount: Decimal; count: number }>();
  for (const r of rows) {
    const s = sums.get(r.currency) ?? { amount: new Decimal(0), count: 0 };
    sums.set(r.currency, { amount: s.amount.add(r.amount), count: s.count + 1 });
  }
  return [...sums.entries()]
    .filter(([, s]) => !s.amount.isZero())
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, s]) => ({ currency, amount: Number(s.amount.toFixed()), count: s.count }));
}
