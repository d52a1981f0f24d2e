import { sql, type RawBuilder } from 'kysely';
import type { RoundingRule } from './rules.ts';

/**
 * rules.ts's roundMicroHours in SQL, on the bigint micro-hours `micro`, with the rule folded in
 * as constants: the time-entry export (written by the database) and the reports round as the
 * entries' `rounded_hours` do. A change to the rule there needs its twin here (test/hours-agree.test.ts
 * compares the two on and around the boundaries of steps from 1 to 60 minutes).
 */
export function roundedMicroSql(micro: RawBuilder<unknown>, rule: RoundingRule): RawBuilder<unknown> {
  if (rule.rounding === 'none') return micro;
  const step = sql.lit(rule.rounding_minutes * 50_000);
  const thirds = sql`(${micro} * 3)`;
  const steps =
    rule.rounding === 'up'
      ? sql`(${thirds} + ${step} - 2) / ${step}`
      : rule.rounding === 'down'
        ? sql`(${thirds} + 1) / ${step}`
        : sql`(2 * ${thirds} + 2 + ${step}) / (2 * ${step})`;
  return sql`(((${steps}) * ${step} + 1) / 3)`;
}
