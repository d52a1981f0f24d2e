import { sql, type RawBuilder } from 'kysely';
import { minorUnitDigits } from '../money.ts';
import type { Tx } from './tenant.ts';

/**
 * Money in SQL: the minor-unit digits of a currency (Intl's data, as formatMoney's
 * minorUnitDigits) for the statements that round amounts in the database (the reports, the
 * time-entry export's CSV).
 */

/**
 * The minor-unit digits of the currency in the SQL expression `currency`, for the currencies
 * `used`, at most `atMost`: a CASE over only those with other digits than two, since a CASE over
 * all of Intl's forty such currencies cost a fifth of the export's time; a plain 2 when there
 * are none.
 */
export function minorDigitsSql(currency: RawBuilder<unknown>, used: readonly string[], { atMost = Infinity } = {}): RawBuilder<number> {
  const digitsOf = (code: string) => Math.min(minorUnitDigits(code), atMost);
  const odd = [...new Set(used)].filter((code) => digitsOf(code) !== 2);
  if (!odd.length) return sql<number>`2`;
  return sql<number>`case ${currency} ${sql.join(
    odd.map((code) => sql`when ${sql.lit(code)} then ${sql.lit(digitsOf(code))}`),
    sql` `,
  )} else 2 end`;
}

/** The currencies of the workspace and its clients, by code: the only ones its work can be counted in. */
export async function workspaceCurrencies(trx: Tx, companyId: string): Promise<string[]> {
  const { rows } = await sql<{ currency: string }>`
    select currency from companies where id = ${companyId}
    union select currency from clients where company_id = ${companyId} and currency is not null
    order by currency`.execute(trx);
  return rows.map((r) => r.currency);
}
