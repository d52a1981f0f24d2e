/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { billableRateOn } from './queries.ts';
export { FROM_THE_START, MAX_BUDGET, MAX_HOURLY_RATE, budgetAmount, effectiveDate, hourlyRate, parseRateChange, rateScope, shownEffectiveFrom } from './rules.ts';
export type { RateChange } from './rules.ts';
export { changeRate, listRates, rateOn, setRate } from './service.ts';
export type { RateScope } from './service.ts';
export { workspaceToday } from './workspace-today.ts';
