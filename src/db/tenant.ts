import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from './types.ts';
import { APP_ROLE } from './migrate.ts';
import { isId } from '../ids.ts';

export type Tx = Transaction<DB>;

/**
 * Runs `fn` in a transaction that can only see one workspace: the role drops to
 * sheaf_app (no BYPASSRLS) and app.company_id is set for this transaction alone,
 * so row-level security backs up every query's own company_id filter.
 * Both settings are transaction-local and vanish at commit or rollback.
 *
 * The settings are inlined as literals (the company id is checked to be an id
 * first), so the statement has no parameters and the PostgreSQL pool sends it in
 * one round trip with the transaction's BEGIN (see database.ts). `prelude` adds
 * select expressions to that statement, parameterless too (sql.lit), for work that
 * must come first in the transaction; fn receives their row.
 */
export function withTenant<T, P extends Record<string, unknown> = Record<string, never>>(
  db: Kysely<DB>,
  companyId: string,
  fn: (trx: Tx, prelude: P) => Promise<T>,
  prelude?: { [K in keyof P]: RawSql<P[K]> },
): Promise<T> {
  if (!isId(companyId)) throw new Error(`withTenant needs a company id, not ${JSON.stringify(companyId)}`);
  const extra = prelude ? Object.entries(prelude).map(([name, expression]) => sql`, ${expression} as ${sql.id(name)}`) : [];
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<P>`select set_config('role', ${sql.lit(APP_ROLE)}, true), set_config('app.company_id', ${sql.lit(companyId)}, true)${sql.join(extra, sql``)}`.execute(trx);
    return fn(trx, rows[0]);
  });
}

type RawSql<T> = ReturnType<typeof sql<T>>;
