import { Decimal } from 'decimal.js';

/**
 * Budget alerts, pure (test/unit/budget-alerts.test.ts): when a project's budget is spent far
 * enough to e-mail its managers, and which budget period an alert belongs to.
 */

/** The project's spend has reached `percentage` of a budget above 0 (a budget of 0, or none, alerts nobody). */
export function alertDue(budget: string | null, spent: string, percentage: string): boolean {
  if (budget === null) return false;
  const b = new Decimal(budget);
  return b.gt(0) && new Decimal(spent).times(100).gte(b.times(percentage));
}

/** The share spent, in whole percent rounded down, so "80 %" is never said of 79.6 %. */
export const percentSpent = (budget: string, spent: string) => new Decimal(spent).times(100).div(budget).floor().toNumber();

/** The alert's period: the month (`YYYY-MM`) of a monthly budget, `all` for a budget over all time. */
export const alertPeriod = (monthly: boolean, monthStart: string) => (monthly ? monthStart.slice(0, 7) : 'all');
