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
 *
 * On a handle made by joiningHandle (a request with an Idempotency-Key), `fn`
 * runs inside that request's shared transaction instead (see
 * shared-transaction.ts), so its work commits together with the stored response.
 */
export function withTenant<T, P extends Record<string, unknown> = Record<string, never>>(
  db: Kysely<DB>,
  companyId: string,
  fn: (trx: Tx, prelude: P) => Promise<T>,
  prelude?: { [K in keyof P]: RawSql<P[K]> },
): Promise<T> {
  if (!isId(companyId)) throw new Error(`withTenant needs a company id, not ${JSON.stringify(companyId)}`);
  const shared = joinable.get(db);
  if (shared?.accepts(companyId)) return shared.run(fn, prelude);
  return db.transaction().execute(async (trx) => {
    const { rows } = await tenantSettings<P>(companyId, prelude).execute(trx);
    return fn(trx, rows[0]);
  });
}

/** The first statement of a tenant transaction: its settings, then the prelude's expressions. */
export function tenantSettings<P>(companyId: string, prelude?: Record<string, RawSql<unknown>>) {
  const extra = prelude ? Object.entries(prelude).map(([name, expression]) => sql`, ${expression} as ${sql.id(name)}`) : [];
  return sql<P>`select set_config('role', ${sql.lit(APP_ROLE)}, true), set_config('app.company_id', ${sql.lit(companyId)}, true)${sql.join(extra, sql``)}`;
}

/** A transaction that withTenant calls on a joining handle run in, rather than in their own. */
export interface JoinableTransaction {
  /** Whether a withTenant call for this workspace joins now (false once the transaction has ended). */
  accepts(companyId: string): boolean;
  run<T, P>(fn: (trx: Tx, prelude: P) => Promise<T>, prelude?: Record<string, RawSql<unknown>>): Promise<T>;
}

const joinable = new WeakMap<Kysely<DB>, JoinableTransaction>();

/**
 * A handle on `db` (the same pool and driver, a new identity) whose withTenant
 * calls join `into`. Everything else done with it (a query outside withTenant)
 * runs on `db` as usual.
 */
export function joiningHandle(db: Kysely<DB>, into: JoinableTransaction): Kysely<DB> {
  const handle = db.withTables<Record<string, never>>() as unknown as Kysely<DB>;
  joinable.set(handle, into);
  return handle;
}

export type RawSql<T> = ReturnType<typeof sql<T>>;
