import type { Tx } from '../../../db/tenant.ts';
import { shownEffectiveFrom, rateOn, setRate, type RateScope } from '../rates/index.ts';
import { sameDecimal } from '../../../money.ts';
import type { RateChange } from './rules.ts';

/** The rate an assignment change wrote, as its audit entry records it. */
export interface RateSet {
  hourly_rate: string;
  effective_from: string | null;
}

/**
 * Writes an assignment's rate from `rate.from` (default `day`) on; earlier dates keep their rate.
 * With `unlessSame`, a rate equal to the one already in force from that date writes nothing (null).
 */
export async function writeAssignmentRate(
  trx: Tx,
  companyId: string,
  scope: RateScope,
  rate: RateChange,
  day: string,
  { unlessSame = false } = {},
): Promise<RateSet | null> {
  const from = rate.from ?? day;
  if (unlessSame && sameDecimal(await rateOn(trx, companyId, scope, from), rate.hourlyRate)) return null;
  await setRate(trx, companyId, scope, from, rate.hourlyRate);
  return { hourly_rate: rate.hourlyRate, effective_from: shownEffectiveFrom(from) };
}
