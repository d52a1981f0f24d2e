/**
 * A test hook for crash tests (test/idempotency-crash.test.ts): in a process
 * started with NODE_ENV=test and SHEAF_TEST_PAUSE_AT=<point>, the request that
 * reaches that point announces it on stderr (`sheaf-test-pause <point>`) and
 * never goes on, so the test can kill the process (SIGKILL) exactly there.
 * Inert otherwise: both variables are read once, at start, and without them
 * pauseAt returns at once.
 */
export type PausePoint =
  /** Inside the invoice import's transaction, after the work was linked to the new invoice, before the commit. */
  | 'invoice-import'
  /** After an Idempotency-Key's work and stored response committed, before the response is sent. */
  | 'idempotency-committed'
  /** Inside a recurring invoice occurrence's transaction, after the invoice, occurrence and next date were written, before the commit. */
  | 'recurring-occurrence';

const PAUSE_AT = process.env.NODE_ENV === 'test' ? process.env.SHEAF_TEST_PAUSE_AT : undefined;

export function pauseAt(point: PausePoint): Promise<void> | undefined {
  if (PAUSE_AT !== point) return undefined;
  process.stderr.write(`sheaf-test-pause ${point}\n`);
  return new Promise<void>(() => {});
}
