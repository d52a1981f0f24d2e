import { sql } from 'kysely';

/**
 * How long a request may wait on the database, in milliseconds (0: no limit of
 * Sheaf's; PostgreSQL's own setting, usually none, applies). Each bound turns a
 * wait that would otherwise last until the client gives up (a held lock, a stalled
 * network, an exhausted pool) into a 503 in the error shape (src/db/unavailable.ts).
 * Set from DATABASE_*_TIMEOUT_MS (src/config.ts); the reasons for the defaults are
 * in docs/decisions.md ("Resilience: bounded database waits").
 */
export interface DatabaseTimeouts {
  /**
   * Opening a connection, and waiting for a pooled one when all are busy (node-postgres
   * uses one setting for both); on PGlite, waiting for the single connection. Also the
   * slack the client allows past the statement limit, and /healthz's bound.
   */
  connectMs: number;
  /** A statement's run time, lock waits included (PostgreSQL's statement_timeout). */
  statementMs: number;
  /** A wait for a table or row lock (lock_timeout). */
  lockMs: number;
  /** A session left idle inside a transaction (idle_in_transaction_session_timeout). */
  idleInTransactionMs: number;
  /** The statement limit of reports and backup pages, which read a whole workspace. */
  longStatementMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectMs: 5_000,
  statementMs: 30_000,
  lockMs: 5_000,
  idleInTransactionMs: 60_000,
  longStatementMs: 120_000,
};

/**
 * A select expression that gives the current transaction its own statement limit
 * (SET LOCAL; 0 lifts it): for withTenant's prelude or a `select` of its own. The
 * PostgreSQL pool reads the limit back from the statement's text (statementLimitIn)
 * so that its client-side backstop follows it.
 */
export function statementLimit(ms: number) {
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`invalid statement limit ${ms}`);
  return sql<string>`set_config('statement_timeout', ${sql.lit(String(ms))}, true)`;
}

const LIMIT_PATTERN = /set_config\('statement_timeout', '(\d+)', true\)/;

/** The limit a statement built with statementLimit sets, if the text holds one. */
export function statementLimitIn(text: string): number | undefined {
  if (!text.includes("'statement_timeout'")) return undefined;
  const match = LIMIT_PATTERN.exec(text);
  return match ? Number(match[1]) : undefined;
}

/**
 * The statement limit of reports and backup pages: the longer of the two limits
 * (none when either is off, so the long limit never shortens the ordinary one).
 */
export function longStatementLimit(t: DatabaseTimeouts) {
  return statementLimit(t.statementMs === 0 || t.longStatementMs === 0 ? 0 : Math.max(t.statementMs, t.longStatementMs));
}
