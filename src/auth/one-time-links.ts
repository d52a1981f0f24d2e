import type { Kysely } from 'kysely';
import type { DB, OneTimeLinkPurpose } from '../db/types.ts';
import { ApiError } from '../errors.ts';
import { hashToken, newToken } from './sessions.ts';

/**
 * One-time links (the first start's sign-in link, password resets): 256 random
 * bits, stored hashed, usable once, until they expire. Issuing a new link of a
 * purpose voids the person's earlier unused ones, so only the latest e-mail works.
 */
export const LINK_LIFETIME_MS: Record<OneTimeLinkPurpose, number> = {
  sign_in: 24 * 60 * 60 * 1000,
  password_reset: 60 * 60 * 1000,
  // Sent to an address the person may read only later in the day (another device, another inbox).
  email_change: 24 * 60 * 60 * 1000,
};

/** The answer to a one-time link (sign-in, reset, invitation) that is unknown, used, replaced or expired. */
export const linkInvalid = () =>
  new ApiError('link_invalid', 'This link is not valid any more: it was used already, has expired, or was replaced by a newer one.');

/** `newEmail`: the address an email_change link sets (required for that purpose, absent otherwise). */
export async function issueLink(db: Kysely<DB>, userId: string, purpose: OneTimeLinkPurpose, now: Date, newEmail?: string): Promise<string> {
  return (await issue(db, userId, purpose, now, newEmail, undefined))!;
}

/**
 * A new link, unless the person's latest of this purpose is younger than `gapMs` (null: that one
 * stands). The person's row is locked first, so of concurrent requests one issues and the rest see it.
 */
export async function issueLinkUnlessRecent(db: Kysely<DB>, userId: string, purpose: OneTimeLinkPurpose, now: Date, gapMs: number): Promise<string | null> {
  return issue(db, userId, purpose, now, undefined, gapMs);
}

async function issue(db: Kysely<DB>, userId: string, purpose: OneTimeLinkPurpose, now: Date, newEmail: string | undefined, unlessIssuedWithinMs: number | undefined): Promise<string | null> {
  const token = newToken();
  const issued = await db.transaction().execute(async (trx) => {
    if (unlessIssuedWithinMs !== undefined) {
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
      const recent = await trx
        .selectFrom('one_time_links')
        .select('token_hash')
        .where('user_id', '=', userId)
        .where('purpose', '=', purpose)
        .where('created_at', '>', new Date(now.getTime() - unlessIssuedWithinMs))
        .executeTakeFirst();
      if (recent) return false;
    }
    await trx.deleteFrom('one_time_links').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
    await trx
      .insertInto('one_time_links')
      .values({
        token_hash: hashToken(token),
        purpose,
        user_id: userId,
        created_at: now,
        expires_at: new Date(now.getTime() + LINK_LIFETIME_MS[purpose]),
        new_email: newEmail ?? null,
      })
      .execute();
    return true;
  });
  return issued ? token : null;
}

/**
 * What a link is now, without using it (the reset page asks before the person types a
 * password): usable, used, expired, or invalid (unknown, replaced by a newer one, of
 * another purpose). Whoever holds the token may know this; it names nobody.
 */
export type LinkState = 'usable' | 'used' | 'expired' | 'invalid';

export async function lookUpLink(db: Kysely<DB>, token: unknown, purpose: OneTimeLinkPurpose, now: Date): Promise<LinkState> {
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(token)) return 'invalid';
  const row = await db
    .selectFrom('one_time_links')
    .select(['used_at', 'expires_at'])
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  if (!row) return 'invalid';
  if (row.used_at) return 'used';
  return row.expires_at > now ? 'usable' : 'expired';
}

/** Uses the link once: the person it was issued to, or null (unknown, used, expired or of another purpose). */
export async function redeemLink(db: Kysely<DB>, token: unknown, purpose: OneTimeLinkPurpose, now: Date): Promise<string | null> {
  return (await consumeLink(db, token, purpose, now))?.user_id ?? null;
}

/** Uses the link once: its row (the person, and an email_change link's new address), or null as redeemLink. */
export async function consumeLink(db: Kysely<DB>, token: unknown, purpose: OneTimeLinkPurpose, now: Date) {
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  // One statement: two redemptions at once cannot both see the link unused.
  const row = await db
    .updateTable('one_time_links')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'new_email'])
    .executeTakeFirst();
  return row ?? null;
}

/** The person's unused, unexpired link of this purpose, if any (an e-mail change waiting for its confirmation). */
export function pendingLink(db: Kysely<DB>, userId: string, purpose: OneTimeLinkPurpose, now: Date) {
  return db
    .selectFrom('one_time_links')
    .select(['new_email', 'expires_at'])
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}
