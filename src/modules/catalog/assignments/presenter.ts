import { decimalNumber } from '../../../money.ts';
import { shownEffectiveFrom } from '../rates/index.ts';

/** What the caller may see of a project's assignments (of people or of tasks). */
export interface AssignmentView {
  /** The assignment budget (maySeeBudget for the project). */
  budget: boolean;
  /** The billable hourly rate (maySeeRates). */
  rates: boolean;
}

/** The rate in force on the day read for and the date it took effect (null: from the start). */
export function presentRate(row: { hourly_rate: string | null; hourly_rate_effective_from: string | null }) {
  return { hourly_rate: decimalNumber(row.hourly_rate), hourly_rate_effective_from: shownEffectiveFrom(row.hourly_rate_effective_from) };
}
