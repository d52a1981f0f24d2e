/**
 * Which parameterized statements a database connection keeps prepared, on PostgreSQL
 * (database.ts) and on the embedded database (pglite-statements.ts) alike; the others are
 * planned on every run.
 */

/**
 * Statements a connection keeps prepared at most. Beyond, PostgreSQL's pool runs new texts unnamed
 * (planned each time) and the embedded database closes its least recently run statement.
 */
export const MAX_PREPARED_PER_CONNECTION = 500;
/** Longer texts (bulk inserts, long IN lists) vary too much to be worth preparing. */
export const MAX_PREPARED_SQL_LENGTH = 8_000;
