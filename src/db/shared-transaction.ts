import { sql, type ControlledTransaction, type Kysely } from 'kysely';
import type { DB } from './types.ts';
import { Mutex } from './mutex.ts';
import { joiningHandle, tenantSettings, type JoinableTransaction, type RawSql, type Tx } from './tenant.ts';

/**
 * One tenant transaction for all the work of a request, so that the work and
 * what the request records about it afterwards (an Idempotency-Key's stored
 * response, src/http/idempotency.ts) commit together or not at all.
 *
 * The work gets `handle`; each withTenant call on it runs as a unit of this
 * transaction instead of a transaction of its own. The first unit opens the
 * transaction: the tenant settings with the owner's `prelude` expressions in
 * one statement, then the owner's `check` (which may refuse, e.g. a key held by
 * another process). Each unit runs under a savepoint, so a unit that fails is
 * undone on its own, as its own transaction would have been, and the request can
 * still commit (a 4xx answer is stored too). Savepoints of units that succeeded
 * are left to the commit rather than released (a round trip saved per unit).
 * Units run one at a time, in call order; a withTenant call nested inside a
 * unit's function would wait for itself (as it does on PGlite anyway).
 *
 * The owner ends it with commit() or rollback(). Until then the transaction holds
 * its connection (on PGlite: the database), so code running meanwhile must reach
 * the database through `handle`'s withTenant, never through another handle.
 * After the end, withTenant on `handle` opens transactions of its own again.
 */
export class SharedTransaction implements JoinableTransaction {
  readonly handle: Kysely<DB>;
  private trx: ControlledTransaction<DB> | null = null;
  /** Why opening failed: every later unit fails the same way rather than run outside the transaction. */
  private failure: unknown = null;
  private ended = false;
  private units = 0;
  private readonly turns = new Mutex();

  constructor(
    private readonly db: Kysely<DB>,
    readonly companyId: string,
    private readonly opening: { prelude: Record<string, RawSql<unknown>>; check: (trx: Tx, first: Record<string, unknown>) => Promise<void> },
  ) {
    this.handle = joiningHandle(db, this);
  }

  accepts(companyId: string): boolean {
    if (this.ended) return false;
    if (companyId !== this.companyId) {
      // It could not join (the settings are per workspace), and its own transaction would
      // wait for this one on PGlite: a programming error, said loudly.
      throw new Error('withTenant for another workspace inside a shared transaction');
    }
    return true;
  }

  async run<T, P>(fn: (trx: Tx, prelude: P) => Promise<T>, prelude?: Record<string, RawSql<unknown>>): Promise<T> {
    const done = await this.turns.lock();
    try {
      if (this.ended) throw new Error('the shared transaction ended before this unit of work ran');
      const trx = await this.open();
      const savepoint = sql.id(`unit_${++this.units}`);
      // The prelude is parameterless (see withTenant), so it rides with the savepoint in one round trip.
      const expressions = prelude ? Object.entries(prelude).map(([name, expression]) => sql`${expression} as ${sql.id(name)}`) : [];
      const head = expressions.length ? sql<P>`savepoint ${savepoint}; select ${sql.join(expressions)}` : sql<P>`savepoint ${savepoint}`;
      try {
        const { rows } = await head.execute(trx);
        return await fn(trx, rows[0] ?? ({} as P));
      } catch (err) {
        // If even this fails, the transaction is unusable and its commit fails and says so.
        await sql`rollback to savepoint ${savepoint}`.execute(trx).catch(() => {});
        throw err;
      }
    } finally {
      done();
    }
  }

  /**
   * Runs `last` in the transaction and commits. False when no unit ever opened the
   * transaction (nothing was done through `handle`): nothing is committed then.
   * A failure rolls everything back and is thrown.
   */
  async commit(last: (trx: Tx) => Promise<void>): Promise<boolean> {
    const done = await this.turns.lock();
    try {
      if (this.ended) return false;
      this.ended = true;
      const trx = this.trx;
      if (!trx) return false;
      try {
        await last(trx);
        await trx.commit().execute();
      } catch (err) {
        await trx.rollback().execute().catch(() => {});
        throw err;
      }
      return true;
    } finally {
      done();
    }
  }

  /**
   * Undoes all the units. Never throws: a rollback that fails means the connection
   * is gone, and the server rolls the transaction back on its own.
   */
  async rollback(): Promise<void> {
    const done = await this.turns.lock();
    try {
      if (this.ended) return;
      this.ended = true;
      await this.trx?.rollback().execute().catch(() => {});
    } finally {
      done();
    }
  }

  private async open(): Promise<ControlledTransaction<DB>> {
    if (this.failure) throw this.failure;
    if (this.trx) return this.trx;
    const trx = await this.db.startTransaction().execute();
    try {
      const { rows } = await tenantSettings<Record<string, unknown>>(this.companyId, this.opening.prelude).execute(trx);
      await this.opening.check(trx, rows[0]);
    } catch (err) {
      this.failure = err;
      await trx.rollback().execute().catch(() => {});
      throw err;
    }
    this.trx = trx;
    return trx;
  }
}
