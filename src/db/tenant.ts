import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from './types.ts';
import { APP_ROLE } from './migrate.ts';

export type Tx = Transaction<DB>;

/**
 * Runs `fn` in a transaction that can only see one workspace: the role drops to
 * sheaf_app (no BYPASSRLS) and app.company_id is set for this transaction alone,
 * so row-level security backs up every query's own company_id filter.
 * Both settings are transaction-local and vanish at commit or rollback.
 */
export function withTenant<T>(db: Kysely<DB>, companyId: string, fn: (trx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('role', ${APP_ROLE}, true), set_config('app.company_id', ${companyId}, true)`.execute(
      trx,
    );
    return fn(trx);
  });
}
