import type { Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';
import { ApiError, badRequest } from '../../../errors.ts';
import { isEmailAddress } from '../../../email-address.ts';

/**
 * The rules of a person's e-mail address, in one place for every way it is set:
 * `sheaf admin user create|update`, the web app's profile (a confirmed change)
 * and the first owner's first sign-in. An address is one identity across the
 * whole installation (users_email_key), so it is free or taken installation-wide.
 */

/** The first start's owner address: example.com is reserved (RFC 2606), so no mail sent to it arrives. */
export const FIRST_OWNER_EMAIL = 'owner@example.com';

/** Whether this is the placeholder identity the first start made, still waiting for the owner's real one. */
export const isPlaceholderEmail = (email: string) => email === FIRST_OWNER_EMAIL;

export const normalEmail = (email: string) => email.trim().toLowerCase();

/** Throws a 400 naming `field` unless `email` looks like an address (3 to 320 characters, as the users table allows). */
export function assertValidEmail(email: string, field = 'email') {
  if (!isEmailAddress(email) || email.length > 320) throw badRequest(`${field} must be a valid e-mail address.`, { field });
}

/**
 * The answer when another person already has the address. It names neither the
 * person nor their workspaces: the address may belong to someone in a workspace
 * the caller cannot see.
 */
export const emailTaken = () =>
  new ApiError('email_taken', 'This e-mail address is already used by another Sheaf account.', { field: 'email' });

/** Refuses (409) an address someone other than `userId` has. Reads as the service: every workspace's people count. */
export async function assertEmailFree(db: Kysely<DB>, email: string, userId: string) {
  const other = await db.selectFrom('users').select('id').where('email', '=', email).where('id', '<>', userId).executeTakeFirst();
  if (other) throw emailTaken();
}

/** Whether an error is users_email_key refusing a second person with one address (two changes racing). */
export function isEmailTakenError(err: unknown) {
  const e = err as { code?: string; constraint?: string; message?: string } | null;
  return e?.code === '23505' && (e.constraint === 'users_email_key' || /users_email_key/.test(e.message ?? ''));
}

/**
 * Gives the person a new address in the caller's transaction, checked free first;
 * the unique index settles a race between two people taking one address at once.
 */
export async function setEmail(db: Kysely<DB>, userId: string, email: string, now: Date) {
  assertValidEmail(email);
  await assertEmailFree(db, email, userId);
  try {
    await db.updateTable('users').set({ email, updated_at: now }).where('id', '=', userId).execute();
  } catch (err) {
    if (isEmailTakenError(err)) throw emailTaken();
    throw err;
  }
}
