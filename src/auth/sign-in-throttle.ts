import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { newId } from '../ids.ts';
import { ApiError } from '../errors.ts';
import { hashToken, newToken } from './sessions.ts';

/**
 * Throttles password guessing without handing strangers a way to lock people out
 * (issue 22 item 4; docs/decisions.md, "The web app"). Failed sign-ins are
 * counted in the database, so every API node counts the same failures:
 *
 * - From a browser that signed in to the account before (its `sheaf_device`
 *   cookie is known for that account): at most DEVICE_LIMIT failures per
 *   (account, device) within WINDOW_MS, and nothing else. Failures anybody else
 *   makes, for the account or from the same address, never lock it out.
 * - From anywhere else: at most PAIR_LIMIT failures per (account, client address)
 *   and ADDRESS_LIMIT per client address within WINDOW_MS, and ACCOUNT_LIMIT per
 *   account within ACCOUNT_WINDOW_MS (bounds a guesser spread over many addresses).
 *
 * Beyond a limit, attempts are refused (429) until enough of those failures are
 * older than their window; the right password is refused too, or guessing could
 * go on. An attempt is recorded as a failure before the password is checked, and
 * the record is taken back when it succeeds (or is refused): concurrent guesses
 * each see the ones started before them, so a burst cannot slip more than the
 * limit past the check. A success forgives the failures of its (account,
 * address) or (account, device), not the account's or the address's.
 */
export const WINDOW_MS = 15 * 60 * 1000;
/** Failures per (account, client address), without a known device. */
export const PAIR_LIMIT = 10;
/** Failures per client address, over all accounts, without a known device. */
export const ADDRESS_LIMIT = 50;
/** Failures per account, over all addresses, without a known device, within ACCOUNT_WINDOW_MS. */
export const ACCOUNT_LIMIT = 100;
export const ACCOUNT_WINDOW_MS = 60 * 60 * 1000;
/** Failures per (account, device) from a device known to that account. */
export const DEVICE_LIMIT = 10;

/** The device cookie: 256 random bits; the table keeps their SHA-256 per account. */
export const DEVICE_COOKIE = 'sheaf_device';
export const DEVICE_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;

type Scope = 'account' | 'address' | 'account_address' | 'device';

export interface SignInAttempt {
  /** The normalised e-mail address (the account, known or not). */
  email: string;
  address: string;
  at: Date;
  /** The `sheaf_device` cookie the request carries, if any. */
  device?: string;
  /** The failure rows this attempt recorded (set by beginSignInAttempt). */
  ids?: string[];
  /** The subjects it was counted under (set by beginSignInAttempt). */
  subjects?: Subject[];
}

interface Subject {
  scope: Scope;
  subject: string;
  limit: number;
  window: number;
}

const cap = (s: string) => s.slice(0, 400);

/** The account the device cookie is known for, if it is the one signing in (by e-mail); else undefined. */
async function knownDevice(db: Kysely<DB>, email: string, device: string | undefined, now: Date): Promise<string | undefined> {
  if (!device || device.length > 100) return undefined;
  const row = await db
    .selectFrom('sign_in_devices as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .select('d.user_id')
    .where('d.token_hash', '=', hashToken(device))
    .where('u.email', '=', email)
    .where('d.last_used_at', '>', new Date(now.getTime() - DEVICE_LIFETIME_MS))
    .executeTakeFirst();
  return row?.user_id;
}

async function subjectsOf(db: Kysely<DB>, a: SignInAttempt): Promise<Subject[]> {
  const userId = await knownDevice(db, a.email, a.device, a.at);
  if (userId) return [{ scope: 'device', subject: `${userId}:${hashToken(a.device!).toString('base64url')}`, limit: DEVICE_LIMIT, window: WINDOW_MS }];
  return [
    { scope: 'account_address', subject: cap(`${a.address.slice(0, 64)} ${a.email}`), limit: PAIR_LIMIT, window: WINDOW_MS },
    { scope: 'address', subject: cap(a.address), limit: ADDRESS_LIMIT, window: WINDOW_MS },
    { scope: 'account', subject: cap(a.email), limit: ACCOUNT_LIMIT, window: ACCOUNT_WINDOW_MS },
  ];
}

/** Seconds until a subject holding more than its limit of failures in its window allows another; 0 when within it. */
async function waitFor(db: Kysely<DB>, s: Subject, now: Date): Promise<number> {
  const rows = await db
    .selectFrom('sign_in_failures')
    .select('failed_at')
    .where('scope', '=', s.scope)
    .where('subject', '=', s.subject)
    .where('failed_at', '>', new Date(now.getTime() - s.window))
    .orderBy('failed_at', 'desc')
    .limit(s.limit + 1)
    .execute();
  if (rows.length <= s.limit) return 0;
  // When the limit-th most recent earlier failure leaves the window, a new attempt is within the limit again.
  const deciding = rows[s.limit - 1];
  return Math.max(1, Math.ceil((deciding.failed_at.getTime() + s.window - now.getTime()) / 1000));
}

/**
 * Records the attempt and says how many seconds the caller must wait (0: go on and
 * check the password). A refused attempt is not counted.
 */
export async function beginSignInAttempt(db: Kysely<DB>, attempt: SignInAttempt): Promise<number> {
  const cutoff = new Date(attempt.at.getTime() - ACCOUNT_WINDOW_MS);
  await db.deleteFrom('sign_in_failures').where('failed_at', '<', cutoff).execute();
  const subjects = await subjectsOf(db, attempt);
  const rows = subjects.map((s) => ({ id: newId(attempt.at.getTime()), scope: s.scope, subject: s.subject, failed_at: attempt.at }));
  await db.insertInto('sign_in_failures').values(rows).execute();
  attempt.ids = rows.map((r) => r.id);
  attempt.subjects = subjects;
  const waits = await Promise.all(subjects.map((s) => waitFor(db, s, attempt.at)));
  const wait = Math.max(...waits);
  if (wait > 0) await forgetAttempt(db, attempt);
  return wait;
}

async function forgetAttempt(db: Kysely<DB>, attempt: SignInAttempt) {
  if (attempt.ids?.length) await db.deleteFrom('sign_in_failures').where('id', 'in', attempt.ids).execute();
}

/**
 * The password was right: the attempt was no failure, and the earlier failures of
 * its (account, address) or (account, device) are forgiven. The account's and the
 * address's are not: they bound guessers who never sign in.
 */
export async function signInSucceeded(db: Kysely<DB>, attempt: SignInAttempt) {
  await forgetAttempt(db, attempt);
  const own = (attempt.subjects ?? []).filter((s) => s.scope === 'device' || s.scope === 'account_address');
  for (const s of own) await db.deleteFrom('sign_in_failures').where('scope', '=', s.scope).where('subject', '=', s.subject).execute();
}

/**
 * Remembers this browser as one that signed in to the account; returns the cookie
 * value to set. A cookie the browser carries is kept when the server issued it
 * (known for some account), so one browser can be known for several accounts;
 * anything else gets a fresh random one.
 */
export async function rememberDevice(db: Kysely<DB>, userId: string, presented: string | undefined, now: Date): Promise<string> {
  let token = presented && presented.length <= 100 ? presented : undefined;
  if (token) {
    const issued = await db.selectFrom('sign_in_devices').select('user_id').where('token_hash', '=', hashToken(token)).limit(1).executeTakeFirst();
    if (!issued) token = undefined;
  }
  token ??= newToken();
  await db
    .insertInto('sign_in_devices')
    .values({ token_hash: hashToken(token), user_id: userId, created_at: now, last_used_at: now })
    .onConflict((oc) => oc.columns(['token_hash', 'user_id']).doUpdateSet({ last_used_at: now }))
    .execute();
  // Devices unused for a year are forgotten (their cookies have expired).
  await db
    .deleteFrom('sign_in_devices')
    .where('user_id', '=', userId)
    .where('last_used_at', '<', new Date(now.getTime() - DEVICE_LIFETIME_MS))
    .execute();
  return token;
}

/** A new password forgets the account's devices (whoever signed in with the old one is a stranger now). */
export async function forgetDevices(db: Kysely<DB>, userId: string) {
  await db.deleteFrom('sign_in_devices').where('user_id', '=', userId).execute();
}

/** The 429 of a throttled attempt; the route sends `retry_after` as the Retry-After header too. */
export const throttled = (wait: number) =>
  new ApiError('rate_limited', `Too many failed sign-ins: wait ${Math.ceil(wait / 60)} minutes before trying again.`, { retry_after: wait });
