/**
 * When the outbox worker tries a message again, and when it gives up.
 *
 * A mail server that is down over a long weekend, or a relay that greylists
 * for hours, must not turn an invoice into a failed e-mail: a message is
 * retried for at least RETRY_FOR_MS (three days) before it is marked failed,
 * and an operator sees and retries failed ones (`sheaf admin outbox`).
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** How long a message is retried, counted from its first attempt, before it may be marked failed. */
export const RETRY_FOR_MS = 72 * HOUR;

/** The longest wait between two attempts: a recovered server is used again within six hours. */
export const MAX_DELAY_MS = 6 * HOUR;

/**
 * How long a claim holds a message while it is being sent; a worker that dies
 * mid-send frees it after this, and the message goes out again (with the same
 * Message-ID, see mailer.ts). Longer than a send can take with the transport's
 * timeouts (30 s connect, 30 s greeting, 120 s idle socket).
 */
export const LEASE_MS = 5 * MINUTE;

/** The wait after the `attempts`-th failed attempt: 1, 2, 4 … minutes, at most six hours. */
export const retryDelayMs = (attempts: number) => Math.min(MAX_DELAY_MS, MINUTE * 2 ** Math.max(0, attempts - 1));

/**
 * The fewest attempts whose waits in between add up to RETRY_FOR_MS (21: the
 * waits after the first 20 attempts add up to 74.5 hours).
 */
export const MIN_ATTEMPTS = (() => {
  let attempts = 1;
  for (let waited = 0; waited < RETRY_FOR_MS; attempts++) waited += retryDelayMs(attempts);
  return attempts;
})();

export type AfterFailure = { status: 'failed' } | { status: 'pending'; availableAt: Date };

/**
 * What becomes of a message after its `attempts`-th attempt failed at `now`:
 * failed only when it has had at least MIN_ATTEMPTS attempts and its first was
 * RETRY_FOR_MS ago or more; otherwise due again after retryDelayMs(attempts).
 * Both, because each alone breaks the promise: time alone would give up after
 * two attempts when the server was stopped for three days in between, and
 * attempts alone within two hours when a worker kept dying mid-send (each
 * expired claim counts an attempt, five minutes apart).
 */
export function afterFailure(attempts: number, firstAttemptAt: Date, now: Date): AfterFailure {
  if (attempts >= MIN_ATTEMPTS && now.getTime() - firstAttemptAt.getTime() >= RETRY_FOR_MS) return { status: 'failed' };
  return { status: 'pending', availableAt: new Date(now.getTime() + retryDelayMs(attempts)) };
}
