import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { newId } from '../ids.ts';

/**
 * Throttles password guessing: at most ACCOUNT_LIMIT failed sign-ins for one
 * e-mail address, and ADDRESS_LIMIT from one client address, within WINDOW_MS;
 * beyond, attempts are refused (429) until enough of those failures are older
 * than the window. Kept in the database, so every API node counts the same
 * failures.
 *
 * An attempt is recorded as a failure before the password is checked, and the
 * record is taken back when it succeeds (or is refused): concurrent guesses each
 * see the ones started before them, so a burst cannot slip more than the limit
 * past the check. A successful sign-in clears the account's failures.
 */
export const WINDOW_MS = 15 * 60 * 1000;
export const ACCOUNT_LIMIT = 10;
export const ADDRESS_LIMIT = 50;

type Scope = 'account' | 'address';

export interface SignInAttempt {
  email: string;
  address: string;
  at: Date;
  /** The failure rows this attempt recorded (set by beginSignInAttempt). */
  ids?: string[];
}

const subjects = (a: SignInAttempt): Array<[Scope, string, number]> => [
  ['account', a.email.slice(0, 400), ACCOUNT_LIMIT],
  ['address', a.address.slice(0, 400), ADDRESS_LIMIT],
];

/** Seconds until a scope holding more than `limit` failures in the window allows another; 0 when within it. */
async function waitFor(db: Kysely<DB>, scope: Scope, subject: string, limit: number, now: Date): Promise<number> {
  const rows = await db
    .selectFrom('sign_in_failures')
    .select('failed_at')
    .where('scope', '=', scope)
    .where('subject', '=', subject)
    .where('failed_at', '>', new Date(now.getTime() - WINDOW_MS))
    .orderBy('failed_at', 'desc')
    .limit(limit + 1)
    .execute();
  if (rows.length <= limit) return 0;
  // When the limit-th most recent earlier failure leaves the window, a new attempt is within the limit again.
  const deciding = rows[limit - 1];
  return Math.max(1, Math.ceil((deciding.failed_at.getTime() + WINDOW_MS - now.getTime()) / 1000));
}

/**
 * Records the attempt and says how many seconds the caller must wait (0: go on and
 * check the password). A refused attempt is not counted.
 */
export async function beginSignInAttempt(db: Kysely<DB>, attempt: SignInAttempt): Promise<number> {
  const cutoff = new Date(attempt.at.getTime() - WINDOW_MS);
  await db.deleteFrom('sign_in_failures').where('failed_at', '<', cutoff).execute();
  const rows = subjects(attempt).map(([scope, subject]) => ({ id: newId(attempt.at.getTime()), scope, subject, failed_at: attempt.at }));
  await db.insertInto('sign_in_failures').values(rows).execute();
  attempt.ids = rows.map((r) => r.id);
  const waits = await Promise.all(subjects(attempt).map(([scope, subject, limit]) => waitFor(db, scope, subject, limit, attempt.at)));
  const wait = Math.max(...waits);
  if (wait > 0) await forgetAttempt(db, attempt);
  return wait;
}

async function forgetAttempt(db: Kysely<DB>, attempt: SignInAttempt) {
  if (attempt.ids?.length) await db.deleteFrom('sign_in_failures').where('id', 'in', attempt.ids).execute();
}

/** The password was right: the attempt was no failure, and the account's earlier failures are forgiven. */
export async function signInSucceeded(db: Kysely<DB>, attempt: SignInAttempt) {
  await forgetAttempt(db, attempt);
  await db.deleteFrom('sign_in_failures').where('scope', '=', 'account').where('subject', '=', attempt.email.slice(0, 400)).execute();
}
